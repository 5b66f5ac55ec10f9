"""The proof search for the highest total score (Lagrangian branch and bound): its optimum is
brute force's, the compiled core and the Python reference agree node for node, and a search cut
short says so."""

from __future__ import annotations

import threading
import time

from csp_crossword import api
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.strategies.optimum import prove_optimum
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import grid_of, runs, scored_puzzles, solutions


def words_of(problem, words):
    return [problem.network.indexes[s].words[w] for s, w in enumerate(words)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_puzzles(), st.booleans())
def test_the_proved_optimum_is_brute_forces_in_the_core_and_the_reference(puzzle, allow_duplicates):
    rows, scores = puzzle
    grid = grid_of(rows)
    if grid is None:
        return
    slots = runs(rows)
    totals = [
        sum(scores["".join(fill[c] for c in slot)] for slot in slots)
        for fill in solutions(rows, set(scores), allow_duplicates=allow_duplicates)
    ]
    lexicon = Lexicon.from_words(scores, scores=scores)
    problem = build_problem(grid, lexicon, FillOptions(allow_duplicates=allow_duplicates))
    answers = []
    for native in (True, False):
        found = prove_optimum(problem, -1, time.monotonic() + 60, native=native)
        assert found.proved, (rows, scores)
        if not totals:
            assert found.words is None
            continue
        assert found.words is not None
        fill_words = words_of(problem, found.words)
        assert problem.total_score(found.words) == max(totals), (rows, scores, fill_words)
        answers.append((found.nodes, found.bound, found.words))
    if totals:
        assert answers[0] == answers[1]  # the compiled core follows the reference step for step


def test_a_fill_to_beat_that_is_optimal_is_proved_without_a_better_one():
    grid = parse_grid("...\n...\n...")
    scores = {"BAT": 90, "ORE": 40, "WED": 70, "BOW": 80, "ARE": 60, "TED": 30, "CAT": 50, "ARK": 20, "TEE": 10}
    lexicon = Lexicon.from_words(scores, scores=scores)
    problem = build_problem(grid, lexicon)
    best = prove_optimum(problem, -1, None)
    assert best.proved and best.words is not None
    total = problem.total_score(best.words)
    again = prove_optimum(problem, total, None)
    assert again.proved and again.words is None  # nothing beats it
    assert again.bound is None or again.bound >= total  # an upper bound of every fill


def test_a_search_stopped_or_out_of_nodes_says_it_proved_nothing():
    grid = parse_grid("#....\n.....\n.....\n.....\n....#")
    problem = build_problem(grid, api.load_words())
    stop = threading.Event()
    stop.set()
    stopped = prove_optimum(problem, 0, None, stop)
    assert not stopped.proved
    budget = prove_optimum(problem, 0, None, node_budget=5)
    assert not budget.proved and budget.nodes <= 5
    assert budget.words is None or problem.total_score(budget.words) > 0
    assert budget.bound is not None and budget.bound >= problem.total_score(budget.words or [])


def test_optimize_proves_a_small_grid_with_the_built_in_list():
    grid = parse_grid("#...\n....\n....\n...#")
    lexicon = api.load_words()
    everyday = api.fill(grid, lexicon, time_limit=30)
    best = api.fill(grid, lexicon, backend="cpsat", optimize_total=True, time_limit=60)
    assert best.status == Status.OPTIMAL
    assert verify_fill(grid, best.cells, lexicon) == []
    assert best.total_score == best.objective == best.bound >= everyday.total_score


def test_the_reference_search_keeps_its_deadline_on_a_15x15_with_the_built_in_list():
    problem = api.prepare("grids/american/am15-01.txt").problem
    started, computing = time.monotonic(), time.thread_time()
    found = prove_optimum(problem, 0, time.monotonic() + 1, native=False)
    # one evaluation of every slot's words takes seconds in Python: the deadline is looked at
    # per slot, so the search ends soon after it. On a busy machine it may wait for a processor
    # past that: the processor time it spent then bounds it instead (either will do).
    wall, spent = time.monotonic() - started, time.thread_time() - computing
    assert not found.proved and (wall < 15 or spent < 15), (wall, spent)
