"""A required word the list lacks is the user's entry in its slot only, also with
``allow_duplicates``: no other slot may take it as if it were a word of the list. Counted against
brute force, and checked by the verifier."""

from __future__ import annotations

import csp_crossword as cc
import pytest
from csp_crossword.core.grid import parse_grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from bruteforce import runs, solutions

SQUARE = ["...", "...", "..."]
#: Lists of 3-letter words, each with a word it lacks that a slot is required to hold.
CASES = [
    ({"CAT", "ORE", "WED", "COW", "ARE", "TED", "TOT", "EWE", "AWE", "DEW", "ODE"}, ("1A", "TWO")),
    ({"AAA", "ABA", "BAB", "BBB", "ABB", "BBA"}, ("1D", "BAA")),
    ({"ONE", "NET", "ETA", "TEN", "ANT", "TAN", "NOT", "TON", "EON"}, ("4A", "ETE")),
]


def slot_cells(slot_id: str) -> list[tuple[int, int]]:
    grid = parse_grid("\n".join(SQUARE))
    return list(grid.slot(slot_id).cells)


def brute_count(words: set[str], slot_id: str, required: str) -> int:
    """Fills of SQUARE with ``required`` in ``slot_id`` (and in no other slot) and list words
    elsewhere, duplicates allowed."""
    cells = slot_cells(slot_id)
    rows = [list(row) for row in SQUARE]
    for (r, c), letter in zip(cells, required, strict=True):
        rows[r][c] = letter
    fixed = ["".join(row) for row in rows]
    total = 0
    for fill in solutions(fixed, words | {required}, allow_duplicates=True):
        entries = ["".join(fill[cell] for cell in run) for run in runs(SQUARE)]
        if entries.count(required) == 1:
            total += 1
    return total


@pytest.mark.parametrize("words, requirement", CASES)
def test_the_count_with_a_required_word_matches_brute_force(words, requirement):
    slot_id, required = requirement
    expected = brute_count(words, slot_id, required)
    counted = cc.count("\n".join(SQUARE), sorted(words), require={slot_id: required}, allow_duplicates=True)
    assert counted.count == expected


@pytest.mark.parametrize("words, requirement", CASES)
def test_a_fill_uses_the_required_word_in_its_slot_only(words, requirement):
    slot_id, required = requirement
    result = cc.fill("\n".join(SQUARE), sorted(words), require={slot_id: required}, allow_duplicates=True, seed=0)
    if result.status.value == "filled":
        answers = {e.id: e.answer for e in result.entries}
        assert answers[slot_id] == required
        assert [slot for slot, answer in answers.items() if answer == required] == [slot_id]


def test_the_verifier_refuses_a_required_word_the_list_lacks_in_a_second_slot():
    grid = parse_grid("...\n###\n...")
    cells = (("Z", "Z", "Z"), (None, None, None), ("Z", "Z", "Z"))
    lexicon = Lexicon.from_words(["ABC"])
    problems = verify_fill(grid, cells, lexicon, allow_duplicates=True, extra_words=["ZZZ"])
    assert problems == ["ZZZ is not in the word list and is given 1 time(s), used 2"]
    assert verify_fill(grid, cells, lexicon, allow_duplicates=True, extra_words=["ZZZ", "ZZZ"]) == []
