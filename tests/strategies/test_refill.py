"""The neighbourhood re-fill by the proof search: the total only rises, the fill stays valid, and
the compiled core and the Python reference re-fill alike."""

from __future__ import annotations

import time

from csp_crossword import api
from csp_crossword.backends.base import fill_from_words
from csp_crossword.core.result import Status
from csp_crossword.search.problem import build_problem
from csp_crossword.strategies.quality import word_ids
from csp_crossword.strategies.refill import refill_neighbourhoods
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings

from bruteforce import grid_of, runs, scored_puzzles, solutions

#: Nodes the 15x15 re-fill may take (its first better fill comes after some 360).
REFILL_NODES = 420


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_puzzles())
def test_a_refill_never_lowers_the_total_nor_breaks_the_fill(puzzle):
    rows, scores = puzzle
    grid = grid_of(rows)
    if grid is None:
        return
    lexicon = Lexicon.from_words(scores, scores=scores)
    problem = build_problem(grid, lexicon)
    start = api.fill(grid, lexicon, strategy="plain", time_limit=30)
    if start.status != Status.FILLED:
        return
    words = word_ids(problem, start)
    assert words is not None
    outcomes = [refill_neighbourhoods(problem, words, None, native=native) for native in (True, False)]
    assert outcomes[0].words == outcomes[1].words  # the compiled core re-fills as the reference
    refilled = outcomes[0].words
    assert problem.total_score(refilled) >= problem.total_score(words)
    cells, _ = fill_from_words(problem, dict(enumerate(refilled)))
    assert verify_fill(grid, cells, lexicon) == []
    slots = runs(rows)
    best = max(sum(scores["".join(f[c] for c in slot)] for slot in slots) for f in solutions(rows, set(scores)))
    assert problem.total_score(refilled) <= best


def test_a_15x15_everyday_fill_gets_a_higher_total_and_stays_valid():
    job = api.prepare("grids/american/am15-01.txt")
    problem = job.problem
    everyday = api.fill(job.grid, job.lexicon, time_limit=30)
    words = word_ids(problem, everyday)
    assert words is not None
    # counted in nodes, so the same on any machine: the first better fill comes after some 360
    # nodes; the next 180 nodes (to the second, at 450, and past it) would double the test's time
    outcome = refill_neighbourhoods(problem, words, time.monotonic() + 120, node_budget=REFILL_NODES)
    assert outcome.nodes <= REFILL_NODES
    assert problem.total_score(outcome.words) > problem.total_score(words)
    cells, _ = fill_from_words(problem, dict(enumerate(outcome.words)))
    assert verify_fill(job.grid, cells, job.lexicon) == []
