""".xd files: every real file in ../shared/data/realfiles loads (or is refused with its line) and
round-trips; the sectioned layout with Puzzmo's Design and Start sections, comma Rebus headers,
Special circles and shading, and ``_`` voids."""

from __future__ import annotations

from pathlib import Path

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import CellStyle, ClueGroup, LockedSolution, Puzzle, read_crossword, write_crossword
from csp_crossword.formats.xd import dumps, dumps_losses

from conftest import REALFILES

REAL = sorted(REALFILES.glob("*.xd")) if REALFILES.is_dir() else []
needs_realfiles = pytest.mark.skipif(not REAL, reason=f"no real .xd files in {REALFILES} (set CSP_CROSSWORD_SHARED)")
#: Files broken on purpose: (name, line, what the message says).
BROKEN = {"puzzmo__bad_meta.xd": (3, "expected a 'Key: value' header line")}
FIELDS = ("solution", "clues", "styles", "voids", "title", "author", "copyright", "notes")


def round_trip(puzzle: Puzzle, tmp_path: Path) -> Puzzle:
    path = tmp_path / "back.xd"
    path.write_text(dumps(puzzle), encoding="utf-8")
    return read_crossword(path)


def assert_same(back: Puzzle, puzzle: Puzzle) -> None:
    assert back.grid.cells == puzzle.grid.cells
    for name in FIELDS:
        assert getattr(back, name) == getattr(puzzle, name), name


@needs_realfiles
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_real_xd_loads_and_round_trips_or_is_refused_with_its_line(path, tmp_path):
    if path.name in BROKEN:
        line, message = BROKEN[path.name]
        with pytest.raises(InputError, match=message) as caught:
            read_crossword(path)
        assert caught.value.line == line and caught.value.path == str(path)
        return
    puzzle = read_crossword(path)
    assert puzzle.solution is not None and puzzle.title
    assert_same(round_trip(puzzle, tmp_path), puzzle)


@needs_realfiles
def test_real_files_read_right():
    alpha = read_crossword(REALFILES / "puzzmo__alpha-bits.xd")  # sectioned, '.' blocks
    assert (alpha.grid.rows, alpha.grid.cols, len(alpha.clues)) == (15, 15, 88)
    assert alpha.clues["1A"] == "Captain of the Pequod" and alpha.grid.is_block(0, 4)
    assert alpha.answer(alpha.grid.slot("74A")) == "UWAVE" and alpha.copyright == "© 2021"
    twitch = read_crossword(REALFILES / "puzzmo__twitch-tv-with-pipes.xd")
    assert twitch.solution == (("T", "W", "I", "T", "C", "H", "DOT", "T", "V"),)
    nyt = read_crossword(REALFILES / "xdca__nyt1955-01-01.xd")  # Rebus: 1=HEART,2=DIAMOND,...
    assert nyt.solution[0][0] == "HEART" and nyt.solution[0][11] == "DIAMOND" and nyt.solution[11][11] == "CLUB"


def test_a_comma_separated_rebus_header(write):
    puzzle = read_crossword(write("r.xd", "Title: R\nRebus: 1=HEART, 2=CLUB\n\n\n1A\nB2\n\n\nA1. Love ~ HEARTA\n"))
    assert puzzle.solution == (("HEART", "A"), ("B", "CLUB")) and puzzle.clues == {"1A": "Love"}
    with pytest.raises(InputError, match="not symbol=ANSWER") as caught:
        read_crossword(write("bad.xd", "Title: R\nRebus: 1=HEART,XY\n\n\n1A\nBC\n"))
    assert caught.value.line == 2


SECTIONED = """## Metadata

title: Designed
author: Someone
rebus: 1=ONE

## Grid

CAT
O#W
W1B

## Clues

A1. Pet ~ CAT
A3. Number ~ WONEB
D1. Moo-er ~ COW
D2. Web-footed? ~ TWB

## Design

<style>
O { background: circle }
S { background: #ff8800; bar-left: true }
B { bar-top: true; bar-right: true }
</style>

O..
B..
..S

## Start

C..
...
...

## Notes

First line

Second paragraph
"""


def test_a_sectioned_file_with_design_start_and_notes(write, tmp_path):
    puzzle = read_crossword(write("s.xd", SECTIONED))
    assert puzzle.styles == {
        (0, 0): CellStyle(circle=True),
        (1, 0): CellStyle(bars=frozenset({"top", "right"})),
        (2, 2): CellStyle(shaded=True, color="#ff8800", bars=frozenset({"left"})),
    }
    assert puzzle.grid.cells[0][0] == "C" and puzzle.grid.cells[0][1] == ""  # the Start letter is given
    assert puzzle.solution[2][1] == "ONE" and puzzle.clues["2D"] == "Web-footed?"
    assert puzzle.notes == "First line\n\nSecond paragraph" and puzzle.title == "Designed"
    text = dumps(puzzle)
    assert "## Design" in text and "## Start" in text
    assert_same(round_trip(puzzle, tmp_path), puzzle)


def test_special_circles_and_shading_use_the_classic_header(tmp_path):
    grid = parse_grid("..\n..")
    solution = (("A", "B"), ("C", "D"))
    for special, style in (("circle", CellStyle(circle=True)), ("shaded", CellStyle(shaded=True))):
        puzzle = Puzzle(grid, solution=solution, styles={(0, 1): style, (1, 0): style}, title="S")
        text = dumps(puzzle)
        assert f"Special: {special}" in text and "\nAb\ncD\n" in text
        assert_same(round_trip(puzzle, tmp_path), puzzle)


def test_voids_are_underscores_and_a_design_error_names_its_line(write, tmp_path):
    puzzle = read_crossword(write("v.xd", "Title: V\n\n\n_AB\nCDE\n"))
    assert puzzle.voids == {(0, 0)} and puzzle.grid.cells[0][0] is None
    assert "\n_AB\n" in dumps(puzzle)
    assert_same(round_trip(puzzle, tmp_path), puzzle)
    bad = SECTIONED.replace("O..\nB..", "O..\nQ..")
    with pytest.raises(InputError, match="'Q' has no rule") as caught:
        read_crossword(write("d.xd", bad))
    assert caught.value.line == SECTIONED.split("\n").index("B..") + 1


def test_an_empty_classic_grid_keeps_its_dots_as_empty_cells(write):
    puzzle = read_crossword(write("e.xd", "Title: E\n\n\n...\n.#.\n"))
    assert puzzle.solution is None and puzzle.grid.cells == (("", "", ""), ("", None, ""))


def test_losses_name_what_xd_cannot_carry(tmp_path):
    grid = parse_grid("..\n..")
    puzzle = Puzzle(
        grid,
        labels={(0, 0): "7"},
        extra_clues=[ClueGroup("Bands", [("A", "x")])],
        diagramless=True,
        locked=LockedSolution("ABCD", 1),
    )
    losses = write_crossword(tmp_path / "l.xd", puzzle)
    assert len(losses) == 4 and any("locked" in loss for loss in losses)
    assert any("Bands" in loss for loss in losses) and any("diagramless" in loss for loss in losses)
    assert dumps_losses(Puzzle(grid, solution=(("A", "B"), ("C", "D")))) == []


def test_sections_given_twice_are_merged_with_a_warning_and_a_second_grid_is_refused(write):
    text = "## Metadata\nTitle: T\n## Grid\nCAT\n## Clues\nA1. Pet ~ CAT\n## Metadata\nAuthor: A\n"
    text += "## Notes\nfirst\n## Notes\nsecond\n"
    puzzle = read_crossword(write("twice.xd", text))
    assert (puzzle.title, puzzle.author, puzzle.clues, puzzle.notes) == ("T", "A", {"1A": "Pet"}, "first\nsecond")
    assert any("'## Metadata' section (line 7)" in warning for warning in puzzle.warnings)
    assert any("'## Notes' section (line 11)" in warning for warning in puzzle.warnings)
    with pytest.raises(InputError, match="a second '## Grid' section") as caught:
        read_crossword(write("grids.xd", "## Grid\nCAT\n## Clues\nA1. Pet ~ CAT\n## Grid\nDOG\n"))
    assert (caught.value.line, caught.value.column) == (5, 1)


def test_a_second_classic_header_block_is_part_of_the_header(write):
    puzzle = read_crossword(write("h.xd", "Title: T\n\nAuthor: A\nTitle: Again\n\n\nCAT\n\n\nA1. Pet ~ CAT\n"))
    assert (puzzle.title, puzzle.author, puzzle.clues) == ("Again", "A", {"1A": "Pet"})
    assert any("second block of header lines (line 3)" in warning for warning in puzzle.warnings)
    assert any("'Title' is given twice" in warning for warning in puzzle.warnings)
    with pytest.raises(InputError, match="no grid after the header"):
        read_crossword(write("none.xd", "Title: T\n\nAuthor: A\n"))


def test_empty_and_repeated_clue_lines_are_read_with_a_warning_naming_them(write):
    puzzle = read_crossword(write("c.xd", "Title: T\n\n\nCAT\nARE\n\n\nA1. ~ CAT\nA4.\nD1. Pet ~ CAA\nD1. Pen ~ CAA\n"))
    assert puzzle.clues == {"1D": "Pen"}
    assert "the clue lines 8, 9 (2) have no clue text: their entries have no clue" in puzzle.warnings
    assert "the clue line 11 has a clue for an entry clued before: the later clue is kept" in puzzle.warnings


def test_a_clue_holding_the_answer_separator_reads_whole(write):
    puzzle = read_crossword(write("t.xd", "Title: T\n\n\nCAT\n\n\nA1. Feline ~ pet ~ CAT\n"))
    assert puzzle.clues == {"1A": "Feline ~ pet"} and not puzzle.warnings


def test_a_sectioned_file_without_a_clues_section_reads_without_clues(write):
    puzzle = read_crossword(write("bare.xd", "## Metadata\n\ntitle: Bare\n\n## Grid\n\nCAT\n"))
    assert puzzle.solution == (("C", "A", "T"),) and puzzle.clues == {} and puzzle.title == "Bare"
