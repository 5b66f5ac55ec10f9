"""``optimize`` reports every step as it works, names what proved its answer, and a stop ends it
with the best fill so far (cells included), whatever step it lands in."""

from __future__ import annotations

import threading

from csp_crossword import api
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.strategies import optimize
from csp_crossword.strategies.heartbeat import run_reporting
from csp_crossword.strategies.optimum import Optimum, prove_optimum
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

RING = "...\n.#.\n..."
WORDS = {"CAT": 50, "COD": 50, "TAN": 60, "DEN": 60, "PIT": 99, "POD": 10, "TEN": 20, "DIN": 20}
MINI = "#....\n.....\n.....\n.....\n....#"


def lexicon() -> Lexicon:
    return Lexicon.from_words(list(WORDS), scores=WORDS)


def test_a_total_proved_by_the_branch_and_bound_is_not_credited_to_another_solver():
    phases: list[str] = []
    best = api.fill(RING, lexicon(), backend="cpsat", optimize=True, progress=lambda s: phases.append(s.phase))
    assert best.status == Status.OPTIMAL and best.backend == optimize.PROVER_NAME == "branch-and-bound"
    assert "before cpsat was needed" in (best.reason or "")
    assert "proof" in phases  # the step was reported as it began


def test_the_compiled_proof_search_reports_while_it_runs():
    """The progress callback is called during the search (here it stops it after three calls;
    without the calls the search would run to its proof)."""
    grid = parse_grid(MINI)
    problem = build_problem(grid, api.load_words(), FillOptions())
    stop = threading.Event()
    calls: list[int] = []

    def progress(nodes: int) -> None:
        calls.append(nodes)
        if len(calls) >= 3:
            stop.set()

    found = prove_optimum(problem, 0, None, stop, progress=progress)
    assert len(calls) >= 3 and not found.proved


def test_a_step_without_progress_of_its_own_gets_a_beat_while_it_runs():
    released = threading.Event()
    beats: list[int] = []

    def beat() -> None:
        beats.append(1)
        if len(beats) >= 3:
            released.set()

    answer, interrupted = run_reporting(lambda signal: released.wait(), None, beat)
    assert answer is True and not interrupted and len(beats) >= 3


def test_a_stop_before_the_first_fill_gives_the_grid_as_given_interrupted():
    stop = threading.Event()
    stop.set()
    grid = parse_grid("C..\n.#.\n...")
    result = api.fill(grid, lexicon(), backend="cpsat", optimize=True, stop=stop)
    assert result.status == Status.INTERRUPTED and result.cells is not None
    assert result.cells[0][0] == "C"


def test_a_stop_while_the_optimiser_runs_returns_the_best_fill_so_far(monkeypatch):
    """Our own searches prove nothing here (patched), so the optimiser's turn comes; the stop is
    set as that step is reported."""
    monkeypatch.setattr(optimize, "prove_optimum", lambda *a, **k: Optimum(None, False, None, 0))
    stop = threading.Event()
    phases: list[str] = []

    def progress(stats) -> None:
        phases.append(stats.phase)
        if stats.phase == "cpsat":
            stop.set()

    result = api.fill(RING, lexicon(), backend="cpsat", optimize=True, stop=stop, progress=progress)
    assert "cpsat" in phases
    assert result.status == Status.INTERRUPTED and result.cells is not None
    assert verify_fill(parse_grid(RING), result.cells, lexicon()) == []
    assert result.objective is not None and result.bound is not None and result.objective <= result.bound


def test_a_fill_the_branch_and_bound_found_is_credited_to_it(monkeypatch):
    """Our searches (patched) hand back another fill than the everyday one and prove nothing;
    stopped as the optimiser starts, the answer is that fill, named after its finder."""
    other = {"1A": "PIT", "1D": "POD", "2D": "TEN", "3A": "DIN"}

    def other_fill(problem, words, *args):
        network = problem.network
        return [network.indexes[s].position[other[slot.id]] for s, slot in enumerate(network.slots)], False, None

    monkeypatch.setattr(optimize, "_our_searches", other_fill)
    stop = threading.Event()

    def progress(stats) -> None:
        if stats.phase == "cpsat":
            stop.set()

    result = api.fill(RING, lexicon(), backend="cpsat", optimize_total=True, stop=stop, progress=progress)
    assert result.status == Status.INTERRUPTED and result.backend == "branch-and-bound"
    assert sorted(e.answer for e in result.entries) == sorted(other.values())
