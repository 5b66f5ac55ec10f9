"""Weak spots: the slots that force a fill's entries below 30 (or make --min-score unfillable),
each core checked here by brute force, independently of the solver."""

from __future__ import annotations

import time

import csp_crossword as cc
import pytest
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import WeakVerdict
from csp_crossword.strategies import quality

# A 3x3 ring (1A, 1D, 2D, 5A) beside a 4x4 ring (3A, 3D, 4D, 6A): two regions, two word lengths.
# The small ring's only fills put COD (10) in 1A or 1D: CAT, TAN and DEN start with three
# different letters, so 1A and 1D (which share their first cell) cannot both hold one of them.
GRID = "...#....\n.#.#.##.\n...#.##.\n####...."
STRONG = {"CAT": 80, "TAN": 80, "DEN": 80, "BEAR": 90, "BUSY": 90, "REST": 90, "YURT": 90}
WORDS = STRONG | {"COD": 10}


def brute_fillable(grid_text: str, words: dict[str, int], slot_ids: list[str], floor: int) -> bool:
    """Whether the slots ``slot_ids`` alone (every other slot free) can hold distinct words of
    ``words`` scored ``floor`` or more that agree on every shared cell: tried exhaustively."""
    grid = parse_grid(grid_text)
    slots = [grid.slot(slot_id) for slot_id in slot_ids]

    def place(k: int, letters: dict[tuple[int, int], str], used: set[str]) -> bool:
        if k == len(slots):
            return True
        for word, score in words.items():
            if score < floor or len(word) != slots[k].length or word in used:
                continue
            cells = list(zip(slots[k].cells, word))
            agrees = all(letters.get(cell, ch) == ch for cell, ch in cells)
            if agrees and place(k + 1, letters | dict(cells), used | {word}):
                return True
        return False

    return place(0, {}, set())


def assert_verified_core(grid_text: str, words: dict[str, int], core: list[str], floor: int) -> None:
    """The core cannot be filled at the floor, and every one of its slots is needed."""
    assert not brute_fillable(grid_text, words, core, floor)
    for dropped in core:
        assert brute_fillable(grid_text, words, [s for s in core if s != dropped], floor), dropped


def test_a_corner_that_needs_a_weak_word_is_named_and_its_core_verified():
    result = cc.fill(GRID, WORDS)
    assert result.status == cc.Status.FILLED
    weak = [e.id for e in result.entries if e.score < 30]
    assert len(weak) == 1 and weak[0] in ("1A", "1D")  # COD, in one of the two
    spots = result.weak_spots
    assert spots is not None and spots.floor == 30
    assert spots.entries == weak
    assert spots.verdict == WeakVerdict.UNFILLABLE
    assert spots.core == ["1A", "1D"] and spots.minimal
    assert_verified_core(GRID, WORDS, spots.core, 30)
    assert (
        spots.describe()
        == "slots 1A, 1D cannot all be filled with entries scored 30 or more (minimal: every one is needed)"
    )


def test_a_grid_that_fills_above_30_has_no_weak_spot():
    words = STRONG | {"COD": 60}
    result = cc.fill(GRID, words)
    assert result.status == cc.Status.FILLED
    assert min(e.score for e in result.entries) >= 30
    assert result.weak_spots is None


def test_a_fill_unsatisfiable_at_the_users_minimum_names_the_slots():
    result = cc.fill(GRID, WORDS, min_score=30)
    assert result.status == cc.Status.UNSATISFIABLE
    spots = result.weak_spots
    assert spots is not None and spots.floor == 30 and spots.entries == []
    assert spots.core == ["1A", "1D"] and spots.minimal
    assert_verified_core(GRID, WORDS, spots.core, 30)


def test_the_core_search_is_counted_in_nodes_so_the_answer_does_not_depend_on_the_clock():
    first = cc.fill(GRID, WORDS, time_limit=600)
    second = cc.fill(GRID, WORDS, time_limit=300)
    assert first.weak_spots == second.weak_spots
    assert [e.answer for e in first.entries] == [e.answer for e in second.entries]


# Eight separate 3-letter slots and seven words scored 60: one slot must take YAK (10). No
# crossing prunes anything, so proving it takes a search (a pigeonhole).
PIGEONS = "\n###\n".join(["..."] * 8)
PIGEON_WORDS = dict.fromkeys(["CAT", "DOG", "EEL", "FOX", "GNU", "HEN", "OWL"], 60) | {"YAK": 10}


def test_a_check_that_runs_out_of_its_budget_says_so_and_claims_no_core(monkeypatch):
    # stages and a floor check of a node or two cannot prove the pigeonhole
    monkeypatch.setattr(quality, "STAGE_NODES", 1)
    monkeypatch.setattr(quality, "FLOOR_CHECK_NODES", 1)
    result = cc.fill(PIGEONS, PIGEON_WORDS)
    assert result.status == cc.Status.FILLED
    spots = result.weak_spots
    assert spots is not None and spots.verdict == WeakVerdict.UNKNOWN
    assert len(spots.entries) == 1 and spots.core is None and not spots.minimal
    assert "inconclusive" in spots.describe()


def test_a_core_may_span_slots_that_do_not_cross():
    result = cc.fill(PIGEONS, PIGEON_WORDS)
    spots = result.weak_spots
    assert spots is not None and spots.verdict == WeakVerdict.UNFILLABLE
    assert spots.core is not None and len(spots.core) == 8 and spots.minimal  # every slot: 8 pigeons, 7 holes
    assert_verified_core(PIGEONS, PIGEON_WORDS, spots.core, 30)


def test_given_entries_are_no_weak_spot():
    # COD typed into the grid is the user's own entry: the rest fills at 30 or more
    result = cc.fill("COD#....\n.#.#.##.\n...#.##.\n####....", WORDS | {"CUT": 70, "DOT": 70})
    assert result.status == cc.Status.FILLED
    assert result.weak_spots is None


@pytest.mark.parametrize("seed", [0, 1])
def test_no_entry_below_30_is_kept_when_the_grid_fills_at_30_even_after_the_stages_ran_out(seed, monkeypatch):
    # stages of a node or two each: the fill comes from below the ladder, then is raised or checked
    monkeypatch.setattr(quality, "STAGE_NODES", 1)
    words = STRONG | {"COD": 10, "CAB": 40, "BAN": 40}  # CAT, CAB, TAN, BAN fill the small ring at 40
    started = time.monotonic()
    result = cc.fill(GRID, words, seed=seed)
    assert result.status == cc.Status.FILLED and time.monotonic() - started < 60  # a loose guard: no hang
    assert min(e.score for e in result.entries) >= 30
    assert result.weak_spots is None
