"""``optimize`` puts the weakest entry first: the highest weakest entry any fill has, then the
highest total among the fills that keep it; ``optimize_total`` the total alone. Checked against
brute force and the independent verifier."""

from __future__ import annotations

from csp_crossword import api
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings

from bruteforce import grid_of, runs, scored_puzzles, solutions

RING = "...\n.#.\n..."
# The ring's fills: a pair sharing its first letter (CAT+COD or PIT+POD) in 1A/1D, then D?N and
# T?N. PIT+POD scores most (109) but holds POD (10): the best total has a weakest entry of 10,
# the best weakest entry (50) comes with CAT+COD.
WORDS = {"CAT": 50, "COD": 50, "TAN": 60, "DEN": 60, "PIT": 99, "POD": 10, "TEN": 20, "DIN": 20}


def weakest(result) -> int:
    return min(e.score or 0 for e in result.entries)


def test_optimise_does_not_buy_total_score_with_a_worse_weakest_entry():
    lexicon = Lexicon.from_words(list(WORDS), scores=WORDS)
    everyday = api.fill(RING, lexicon)
    best = api.fill(RING, lexicon, backend="cpsat", optimize=True, time_limit=30)
    assert best.status == Status.OPTIMAL and best.floor == 50 and best.floor_proved
    assert weakest(best) == 50 >= weakest(everyday)
    assert best.total_score == best.objective == 220  # CAT, COD, TAN, DEN
    assert verify_fill(parse_grid(RING), best.cells, lexicon) == []


def test_optimize_total_maximises_the_total_alone_and_says_what_it_cost():
    lexicon = Lexicon.from_words(list(WORDS), scores=WORDS)
    best = api.fill(RING, lexicon, backend="cpsat", optimize_total=True, time_limit=30)
    assert best.status == Status.OPTIMAL and best.floor is None
    assert best.total_score == 229 and weakest(best) == 10  # PIT, POD, TAN, DEN
    assert "weakest entry (10) is below the everyday fill's (50)" in (best.reason or "")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_puzzles(max_height=3, cells="....#", max_words=20, min_score=1))
def test_the_optimum_is_brute_forces_weakest_entry_then_total(puzzle):
    rows, scores = puzzle
    grid = grid_of(rows)
    if grid is None:
        return
    slots = runs(rows)
    fills = [["".join(fill[c] for c in slot) for slot in slots] for fill in solutions(rows, set(scores))]
    if not fills:
        return
    best_min, best_total = max((min(scores[w] for w in f), sum(scores[w] for w in f)) for f in fills)
    lexicon = Lexicon.from_words(scores, scores=scores)
    everyday = api.fill(grid, lexicon, time_limit=30)
    best = api.fill(grid, lexicon, backend="cpsat", optimize=True, time_limit=30)
    assert best.status == Status.OPTIMAL, (rows, scores)
    assert verify_fill(grid, best.cells, lexicon) == []
    assert (weakest(best), best.total_score) == (best_min, best_total) == (best.floor, best.objective)
    assert weakest(best) >= weakest(everyday)


def test_optimise_proves_the_weakest_entry_of_a_small_grid_with_the_built_in_list():
    grid = parse_grid("#...\n....\n....\n...#")
    lexicon = api.load_words()
    everyday = api.fill(grid, lexicon, time_limit=30)
    best = api.fill(grid, lexicon, backend="cpsat", optimize=True, time_limit=60)
    assert best.floor_proved and best.floor == weakest(best) >= weakest(everyday)
    assert best.status == Status.OPTIMAL  # and its total under that floor
    assert verify_fill(grid, best.cells, lexicon) == []
