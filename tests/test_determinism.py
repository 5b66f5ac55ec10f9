"""The same inputs and seed give the same result at any machine load: generate (both styles),
freeform, check's core, candidates and batch each run twice, once as they are and once while a busy loop holds a
core in another process, and the two results must be identical.

Every case spends a budget counted in search nodes, greedy steps or look-ahead checks, with the
wall clock only as a distant outer cap, so a busy machine only makes it slower. Each is kept
small (well under a second of work on an idle core) so the file stays quick on a busy machine.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from csp_crossword import api
from csp_crossword.batch import run_batch
from csp_crossword.core.result import Status
from csp_crossword.layout.freeform import Freeform
from csp_crossword.layout.generate import generate as generate_layout
from csp_crossword.words.lexicon import Lexicon

from conftest import GRIDS, STAND_IN

#: Seconds of the outer cap: far beyond what any case needs, so that only the budgets decide.
CAP_SECONDS = 60.0


def spin(stop: Any) -> None:
    """A CPU-bound loop until ``stop`` is set: the load of another busy program."""
    count = 0
    while not stop.is_set():
        for _ in range(100_000):
            count += 1


@contextmanager
def busy_core() -> Iterator[None]:
    """A busy loop in another process for the ``with`` block (started before, stopped after)."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    loop = context.Process(target=spin, args=(stop,), daemon=True)
    loop.start()
    try:
        assert loop.is_alive(), "the busy loop did not start"
        yield
    finally:
        stop.set()
        loop.join(10)
        if loop.is_alive():
            loop.terminate()
            loop.join()


def twice(run: Callable[[], Any]) -> tuple[Any, Any]:
    """``run()`` once as it is and once beside the busy loop."""
    quiet = run()
    with busy_core():
        loaded = run()
    return quiet, loaded


@pytest.fixture(scope="module")
def stand_in_words() -> list[str]:
    return STAND_IN.read_text().split()


def test_generate_is_the_same_under_load(stand_in_words):
    lexicon = Lexicon.from_words(stand_in_words)

    def run():
        made = api.generate(7, 7, lexicon, style="american", seed=2, time_limit=CAP_SECONDS)
        result = made.result
        return made.grid.cells, result.status, result.cells, [(e.id, e.answer) for e in result.entries]

    quiet, loaded = twice(run)
    assert quiet[1] is Status.FILLED and quiet[3]
    assert loaded == quiet


def test_open_generate_is_the_same_under_load(stand_in_words):
    # Runs as long as the side make most patterns unfillable within their nodes: the CSP path
    # spends its share of the budget (0.8 s worth of nodes), then progressive search its steps,
    # which end on the budget, far from cost 0, so both budgets decide the layout.
    lexicon = Lexicon.from_words(stand_in_words)

    def run():
        made = generate_layout(7, 7, lexicon, max_run=7, seed=5, time_limit=CAP_SECONDS, budget_seconds=0.8)
        result = made.result
        return made.method, made.patterns_tried, result.status, result.cells, made.unknown, made.scrambled

    quiet, loaded = twice(run)
    assert quiet[0] == "progressive" and quiet[1] >= 1 and quiet[2] is Status.TIMEOUT
    assert loaded == quiet


def test_open_generate_through_the_api_is_the_same_under_load(stand_in_words):
    # The library's call as the command line makes it: an 8x8 that the CSP path fills.
    lexicon = Lexicon.from_words(stand_in_words)

    def run():
        made = api.generate(8, 8, lexicon, style="open", seed=2, time_limit=CAP_SECONDS)
        return made.method, made.grid.cells, made.result.cells, [(e.id, e.answer) for e in made.result.entries]

    quiet, loaded = twice(run)
    assert quiet[0] == "csp" and quiet[3]
    assert loaded == quiet


def test_freeform_through_the_api_is_the_same_under_load():
    # A seeded pick of the list and a target it reaches: the library's call ends at the first
    # board of 8 words, which the seed alone decides.
    words = "apple banana cherry grape lemon mango olive peach melon lime kiwi plum pear date fig".upper().split()

    def run():
        board = api.freeform(words, pick=10, target=8, seed=6, time_limit=CAP_SECONDS)
        return board.cells, board.placed, board.crossings, board.boards

    quiet, loaded = twice(run)
    assert len(quiet[1]) == 8
    assert loaded == quiet


def test_freeform_is_the_same_under_load():
    # The engine's budget: 0.2 s worth of greedy steps (about 0.1 s of work on an idle core), its
    # clock a minute away, so only the steps may decide the board.
    words = "apple banana cherry grape lemon mango olive peach melon lime kiwi plum".upper().split()

    def run():
        board = Freeform(words, rows=9, cols=9).run(CAP_SECONDS, seed=4, budget_seconds=0.2)
        return board.cells, board.placed, board.crossings, board.boards

    quiet, loaded = twice(run)
    assert len(quiet[1]) >= 5 and quiet[3] > 1  # a real search: many boards, most words placed
    assert loaded == quiet


def test_checks_core_is_the_same_under_load(stand_in_words):
    # An open 5x5 that the words among every thirtieth of the stand-in list cannot fill: the core
    # comes from a search for a smaller one, test after test.
    lexicon = Lexicon.from_words(stand_in_words[::30])
    grid = "\n".join(["....."] * 5)

    def run():
        report = api.check(grid, lexicon, time_limit=CAP_SECONDS)
        return report.status, report.core, report.core_minimal, report.core_tests

    quiet, loaded = twice(run)
    assert quiet[0] == "unsolvable" and quiet[1] and quiet[3] > 1
    assert loaded == quiet


def test_candidates_statuses_are_the_same_under_load(stand_in_words):
    # A check time that buys fewer checks than the slot has words: the budget decides where the
    # checked rows end, never the clock.
    lexicon = Lexicon.from_words(stand_in_words[::6])
    job = api.prepare(GRIDS / "demo" / "prefilled-7x7.txt", lexicon)

    def run():
        found = api.job_candidates(job, "1A", limit=None, check_seconds=0.01)
        return found.words, found.statuses, found.emptied, found.examined, found.budget_spent

    quiet, loaded = twice(run)
    statuses = quiet[1]
    assert quiet[4] and "unknown" in statuses and {"viable", "dead_end"} & set(statuses)
    assert loaded == quiet


def test_batch_results_are_the_same_under_load(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'[[fill]]\nname = "mini"\ngrids = ["{GRIDS / "demo" / "mini-5x5.txt"}"]\nseeds = [0, 1]\n'
        f'format = "json"\ntime_limit = {CAP_SECONDS:g}\n'
    )
    runs = iter(("quiet", "loaded"))

    def run():
        out = tmp_path / next(runs)
        report = run_batch(spec, out, workers=2)
        lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
        files = {line["job"]: (out / line["file"]).read_bytes() for line in lines}
        return report.complete, [(line["job"], line["status"]) for line in lines], files

    quiet, loaded = twice(run)
    assert quiet[0] and [status for _job, status in quiet[1]] == ["filled", "filled"]
    assert loaded == quiet


def test_cpsat_fill_is_the_same_under_load(monkeypatch):
    # CP-SAT's quality stages end on its deterministic work (one worker, the seed), never on the
    # clock. With a first stage budget this small, mini-5x5's first stage ends on it (12 branches)
    # and the second fills (0.016 units), so where a stage ends decides the fill and its count.
    pytest.importorskip("ortools")
    from csp_crossword.strategies import quality

    monkeypatch.setattr(quality, "STAGE_WORK", 0.008)

    def run():
        result = api.fill(GRIDS / "demo" / "mini-5x5.txt", backend="cpsat", seed=3, time_limit=CAP_SECONDS)
        return result.status, result.cells, [(e.id, e.answer) for e in result.entries], result.stats.nodes

    quiet, loaded = twice(run)
    assert quiet[0] is Status.FILLED and quiet[2]
    assert loaded == quiet
