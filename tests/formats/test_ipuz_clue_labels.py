"""ipuz clue labels other programs write: a range (``"2-3"``, as the spec's own example of the
first crossword labels its clues by the cells they run between), several numbers, a first part
that labels no cell, and a clue written as text with its number in front."""

from __future__ import annotations

import json

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.formats import ClueGroup, read_crossword

#: A diamond of void cells (null) numbered by the file, not in the standard order.
DIAMOND = [[None, None, 1, None, None], [None, 2, 0, 0, None], [3, 0, 0, 0, 0], [None, 0, 0, 0, None]]
DIAMOND.append([None, None, 0, None, None])
SOLUTION = [[None, None, "R", None, None], [None, "F", "U", "N", None], ["S", "A", "L", "E", "S"]]
SOLUTION += [[None, "T", "E", "A", None], [None, None, "D", None, None]]


def _ipuz(clues: dict, puzzle=None, solution=None) -> str:
    rows = puzzle or DIAMOND
    data = {
        "version": "http://ipuz.org/v1",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": len(rows[0]), "height": len(rows)},
        "puzzle": rows,
        "solution": solution or SOLUTION,
        "clues": clues,
    }
    return "ipuz(" + json.dumps(data) + ")"


def test_range_labels_attach_to_the_slot_of_their_first_number(write):
    clues = {
        "Across": [["2-4", "Amusement"], ["3-9", "Deals"]],
        "Down": [["1-32", "To govern"], "2 Old fish", ["F-7", "Part of your head"]],
    }
    puzzle = read_crossword(write("first.ipuz", _ipuz(clues)))
    slot_at = {(slot.start, slot.direction.letter): slot.id for slot in puzzle.grid.slots}
    assert puzzle.clues[slot_at[((1, 1), "A")]] == "Amusement"
    assert puzzle.clues[slot_at[((2, 0), "A")]] == "Deals"
    assert puzzle.clues[slot_at[((0, 2), "D")]] == "To govern"
    assert puzzle.clues[slot_at[((1, 1), "D")]] == "Old fish"
    assert puzzle.extra_clues == [ClueGroup("Down", [("F-7", "Part of your head")])]  # F labels no cell
    warning = next(w for w in puzzle.warnings if "range" in w)
    assert warning.startswith("4 clue(s) labelled with a range (2-4, 3-9, 1-32, ...)")


def test_a_standard_grid_takes_ranges_and_several_numbers(write):
    square = [[1, 2], [3, 0]]
    solution = [["A", "B"], ["C", "D"]]
    clues = {"Across": [["1-2", "First"], {"numbers": [3, 1], "clue": "Second"}], "Down": ["1. Left", "2 Right"]}
    puzzle = read_crossword(write("square.ipuz", _ipuz(clues, square, solution)))
    assert puzzle.clues == {"1A": "First", "3A": "Second", "1D": "Left", "2D": "Right"}
    assert not puzzle.extra_clues
    bad = {"Across": [["F-7", "No such cell"]], "Down": []}
    with pytest.raises(InputError, match=r"clues.Across\[0\] has no clue number"):
        read_crossword(write("bad.ipuz", _ipuz(bad, square, solution)))
