"""The quality-first fill puts the floor first: its weakest entry is as high as the ladder of
floors allows, the improvement never lowers it, and no re-fill turns an acceptable entry (30 or
more) into one to avoid. Checked against brute force on small puzzles."""

from __future__ import annotations

import time
from pathlib import Path

import csp_crossword as cc
import pytest
from csp_crossword.backends import get_backend
from csp_crossword.backends.base import fill_from_words
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import build_problem
from csp_crossword.strategies.improvement import improve_fill, raise_floor
from csp_crossword.strategies.quality import ACCEPTABLE_SCORE, FLOOR_LADDER, _relaxed
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, example, given, settings

from bruteforce import grid_of, runs, scored_puzzles, solutions

GRIDS = Path(__file__).resolve().parents[2] / "grids"
# A ring of four slots: 1A (row 0), 3A (row 2), 1D (column 0), 2D (column 2).
RING = "...\n.#.\n..."


def problem_of(words: dict[str, int], grid: str = RING):
    return build_problem(parse_grid(grid), Lexicon.from_words(list(words), scores=words))


def ids_of(problem, answers: dict[str, str]) -> list[int]:
    return [problem.network.indexes[s].position[answers[slot.id]] for s, slot in enumerate(problem.slots)]


def scores_of(problem, words: list[int]) -> list[int]:
    return [problem.network.indexes[s].scores[w] for s, w in enumerate(words)]


def ladder_floor(score: int) -> int:
    """The highest floor of the ladder at or below ``score`` (0 below the ladder)."""
    return max([f for f in FLOOR_LADDER if f <= score], default=0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_puzzles(max_height=3, cells="....#", max_words=25, min_score=1))
# every slot's word forced, each below the floor: the scores still tell words apart
@example((["...", ".##"], {"AA": 1, "AAA": 2}))
@example((["...", "###"], {"AA": 1, "AAA": 2}))
def test_the_weakest_entry_is_as_high_as_the_ladder_allows(puzzle):
    rows, scores = puzzle
    grid = grid_of(rows)
    if grid is None:
        return
    slots = runs(rows)
    fills = [["".join(fill[c] for c in slot) for slot in slots] for fill in solutions(rows, set(scores))]
    result = cc.fill(grid, Lexicon.from_words(scores, scores=scores), time_limit=30)
    if not fills:
        assert result.status == cc.Status.UNSATISFIABLE
        return
    best = max(min(scores[w] for w in fill) for fill in fills)  # the highest weakest entry of any fill
    assert result.status == cc.Status.FILLED
    weakest = min(e.score or 0 for e in result.entries)
    assert weakest >= ladder_floor(best), (rows, scores)
    if best >= ACCEPTABLE_SCORE or weakest >= ACCEPTABLE_SCORE or len(set(scores.values())) == 1:
        assert result.weak_spots is None  # (scores that do not tell words apart: no floor applies)
    else:  # entries below 30 that no fill avoids: named, and proved unavoidable
        assert result.weak_spots is not None and result.weak_spots.verdict == "unfillable"


def test_the_improvement_never_turns_an_acceptable_entry_into_one_to_avoid():
    # From CAT (20) COD TAN DEN (35): TOP (99) raises the total but needs DIP (25) in 3A
    words = {"CAT": 20, "COD": 35, "TAN": 35, "DEN": 35, "TOP": 99, "DIP": 25}
    problem = problem_of(words)
    start = ids_of(problem, {"1A": "CAT", "1D": "COD", "2D": "TAN", "3A": "DEN"})
    free = improve_fill(problem, start, time.monotonic() + 5)
    assert sorted(scores_of(problem, free.words)) == [20, 25, 35, 99]  # without bands: DIP comes in
    kept = improve_fill(problem, start, time.monotonic() + 5, bands=(ACCEPTABLE_SCORE,))
    after = scores_of(problem, kept.words)
    assert sum(after) >= sum(scores_of(problem, start))
    assert min(after) >= min(scores_of(problem, start))
    assert sum(1 for s in after if s < ACCEPTABLE_SCORE) <= 1  # only CAT, as before


def test_raise_floor_lifts_weak_entries_where_the_grid_allows():
    words = {"CAT": 80, "COD": 80, "TAN": 80, "DEN": 80, "PIT": 10, "POD": 10, "TEN": 10, "DIN": 10}
    problem = problem_of(words)
    start = ids_of(problem, {"1A": "PIT", "1D": "POD", "2D": "TEN", "3A": "DIN"})
    lifted = raise_floor(problem, start, 50, time.monotonic() + 5)
    assert min(scores_of(problem, lifted.words)) >= 50 and lifted.replaced == 4


def test_raise_floor_leaves_an_entry_it_cannot_lift_and_lowers_none():
    # 1A and 1D share their first letter: only COD (10) goes with CAT in the ring
    words = {"CAT": 80, "TAN": 80, "DEN": 80, "COD": 10}
    problem = problem_of(words)
    start = ids_of(problem, {"1A": "CAT", "1D": "COD", "2D": "TAN", "3A": "DEN"})
    outcome = raise_floor(problem, start, 30, time.monotonic() + 5)
    assert sorted(scores_of(problem, outcome.words)) == [10, 80, 80, 80]


@pytest.mark.parametrize("name,seed", [("american/am15-03.txt", 0), ("demo/blocks-7x7.txt", 1)])
def test_the_compiled_floor_raise_matches_the_python_one(name, seed):
    from csp_crossword.api.jobs import prepare
    from csp_crossword.core.grid import read_grid
    from csp_crossword.search.propagation_kernel import kernel_module

    if kernel_module() is None:
        pytest.skip("the compiled extension was not built")
    problem = prepare(read_grid(GRIDS / name), None).problem
    result = get_backend("ac")(seed=seed, value_order="lookahead").solve(problem, time_limit=60)
    assert result.status == cc.Status.FILLED
    start = ids_of(problem, {entry.id: entry.answer for entry in result.entries})
    target = max(f for f in FLOOR_LADDER if f > min(scores_of(problem, start)))
    fast = raise_floor(problem, start, target, None, node_budget=1500)
    slow = raise_floor(problem, start, target, None, node_budget=1500, native=False)
    assert (fast.words, fast.nodes, fast.replaced) == (slow.words, slow.nodes, slow.replaced)
    before, after = scores_of(problem, start), scores_of(problem, fast.words)
    assert sum(1 for s in after if s < target) <= sum(1 for s in before if s < target)
    assert min(after) >= min(before)
    cells, _ = fill_from_words(problem, dict(enumerate(fast.words)))
    assert verify_fill(problem.grid, cells, problem.lexicon) == []


def test_the_ladder_comes_down_below_the_lowest_floor_only_once_every_slot_is_at_it():
    problem = problem_of({"CAT": 80, "COD": 80, "TAN": 80, "DEN": 80})
    order = {slot.id: s for s, slot in enumerate(problem.slots)}
    a, d1, d2, b = order["1A"], order["1D"], order["2D"], order["3A"]
    free, bottom = [0, 1, 2, 3], len(FLOOR_LADDER)
    # every slot at 50: arc consistency empties 1A, emptied by 1D: both go down a step
    assert _relaxed(problem, [0, 0, 0, 0], free, [a, d1], bottom) == [1 if s in (a, d1) else 0 for s in free]
    # 1A at 40 fails again, named with 2D (at 50): 2D comes to 40, 1A stays
    steps = [1 if s == a else 0 for s in free]
    assert _relaxed(problem, steps, free, [a, d2], bottom)[a] == 1
    assert _relaxed(problem, steps, free, [a, d2], bottom)[d2] == 1
    # 1A alone named: its crossings (1D, 2D) come to 40, not 3A
    relaxed = _relaxed(problem, steps, free, [a], bottom)
    assert (relaxed[a], relaxed[d1], relaxed[d2], relaxed[b]) == (1, 1, 1, 0)
    # a stage that failed: the slots above the lowest floor come down to it, none below
    assert _relaxed(problem, steps, free, [], bottom) == [1, 1, 1, 1]
    # ... and at one floor, every slot comes down a step
    assert _relaxed(problem, [1, 1, 1, 1], free, [], bottom) == [2, 2, 2, 2]
