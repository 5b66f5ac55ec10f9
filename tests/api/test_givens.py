"""Theme entries: letters typed in the grid are givens, and entries are placed by position."""

from __future__ import annotations

import csp_crossword as cc
import pytest
from csp_crossword.api.givens import Placement, parse_placement, place_entries
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid

#: A 3x3 square: 1A, 4A, 5A across and 1D, 2D, 3D down.
WORDS = {"CAT": 60, "ORE": 60, "WED": 60, "COW": 60, "ARE": 60, "TED": 60, "OWE": 60}


def test_a_typed_entry_the_list_lacks_is_kept_as_given_not_unsatisfiable():
    result = cc.fill("...\nQRE\n...", {**WORDS, "CQW": 50}, seed=0)
    assert result.status.value == "filled"
    assert result.given == [("4A", "QRE")]
    assert {e.id: e.answer for e in result.entries}["4A"] == "QRE"


def test_a_given_entry_does_not_hide_what_its_crossings_cannot_do():
    result = cc.fill("XYZ\n...\n...", WORDS, seed=0)
    assert result.status.value == "unsatisfiable"  # no down word starts with X, Y or Z
    assert "1A" not in (result.reason or "")


def test_a_banned_word_typed_in_stays_banned():
    result = cc.fill("...\nORE\n...", WORDS, seed=0, ban=["ORE"])
    assert result.status.value == "unsatisfiable"
    assert result.given == []


def test_a_placement_writes_the_word_from_its_start_cell():
    grid = parse_grid("...\n...\n...")
    placed = place_entries(grid, [Placement(0, 2, "down", "tED")])
    assert [placed.cells[r][2] for r in range(3)] == ["T", "E", "D"]
    result = cc.fill(grid, WORDS, seed=0, theme=[Placement(0, 0, "A", "COW")])
    assert {e.id: e.answer for e in result.entries}["1A"] == "COW"


@pytest.mark.parametrize(
    "placement, message",
    [
        (Placement(3, 0, "across", "CAT"), "no open cell there"),
        (
            Placement(1, 1, "across", "CAT"),
            "no across entry starts there (the across slot there, 4A, starts at row 2, column 1)",
        ),
        (Placement(0, 0, "across", "CATS"), "4 letters for a slot of 3 (1A)"),
        (Placement(0, 0, "sideways", "CAT"), "the direction is across (A) or down (D)"),
    ],
)
def test_a_placement_that_does_not_fit_is_an_input_error(placement, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        place_entries(parse_grid("...\n...\n..."), [placement])


def test_two_placements_that_clash_name_the_cell():
    with pytest.raises(InputError, match="clashes with C at row 1, column 1"):
        place_entries(parse_grid("...\n...\n..."), [Placement(0, 0, "A", "CAT"), Placement(0, 0, "D", "OWE")])


def test_the_command_line_form_counts_from_one():
    assert parse_placement("8,1,A=Backtrack search") == Placement(7, 0, "A", "Backtrack search")
    with pytest.raises(InputError, match="write ROW,COL,A\\|D=WORD"):
        parse_placement("8,A=WORD")
