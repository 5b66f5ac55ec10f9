"""Theme entries from the command line: --theme by position, typed letters kept as given, their
clues (--clue), the puzzle's title, author and copyright, and a puzzle file that gives nothing away."""

from __future__ import annotations

import pytest
from csp_crossword.api import read_puzzle
from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode

from conftest import GRIDS

#: am15-01 has two 15-letter downs, from row 1 columns 3 and 13.
AMERICAN = GRIDS / "american" / "am15-01.txt"
THEME = ["--theme", "1,3,D=BACKTRACKSEARCH", "--theme", "1,13,d=constraint solve"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def no_user_database(monkeypatch, tmp_path):
    monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(tmp_path / "absent" / "clues.sqlite"))


def test_theme_entries_the_list_lacks_are_kept_and_clued_and_not_shown(capsys, tmp_path):
    out = tmp_path / "theme.puz"
    code, _, err = run(
        capsys, "fill", AMERICAN, *THEME, "--seed", "0", "-o", out,
        "--clue", "backtrack search=Depth-first retreat", "--clue", "CONSTRAINTSOLVE=What a CSP engine does",
        "--title", "Search Party", "--author", "A. Constructor", "--copyright", "2026 A. Constructor",
    )  # fmt: skip
    assert code == ExitCode.OK, err
    assert "given: 3D BACKTRACKSEARCH, 11D CONSTRAINTSOLVE (not in the word list: kept as written)" in err
    puzzle = read_puzzle(out)
    assert (puzzle.title, puzzle.author, puzzle.copyright) == ("Search Party", "A. Constructor", "2026 A. Constructor")
    # the solver's grid is blank: no theme letter printed in it
    assert all(cell in (None, "") for row in puzzle.grid.cells for cell in row)
    clues = {answer: clue for _, answer, clue in puzzle.entries()}
    assert clues["BACKTRACKSEARCH"] == "Depth-first retreat"
    assert clues["CONSTRAINTSOLVE"] == "What a CSP engine does"
    # a puzzle file's fill uses clued entries only: every clue is there
    assert all(clues.values()), [a for a, c in clues.items() if not c]
    assert "empty" not in err


def test_allow_unclued_lets_the_fill_use_any_entry(capsys, tmp_path):
    out = tmp_path / "theme.puz"
    code, _, err = run(capsys, "fill", AMERICAN, *THEME, "--seed", "0", "-o", out, "--allow-unclued")
    assert code == ExitCode.OK, err
    assert "clues empty: " in err and "3D" in err  # the theme entries have no clue of any source


@pytest.mark.parametrize(
    "theme, message",
    [
        (
            "1,4,D=BACKTRACKSEARCH",
            "theme entry BACKTRACKSEARCH at row 1, column 4 down: 15 letters for a slot of 3 (4D)",
        ),
        ("1,3,X=BACKTRACKSEARCH", "the direction is across (A) or down (D), not 'X'"),
        ("3,BACK", "--theme '3,BACK': write ROW,COL,A|D=WORD"),
        ("99,1,A=CAT", "no open cell there (rows and columns count from 1)"),
    ],
)
def test_a_theme_entry_that_does_not_fit_is_refused_with_the_reason(capsys, theme, message):
    code, _, err = run(capsys, "fill", AMERICAN, "--theme", theme)
    assert code == ExitCode.BAD_INPUT and message in err


def test_a_clue_for_an_entry_the_puzzle_lacks_is_named(capsys, tmp_path):
    out = tmp_path / "p.puz"
    code, _, err = run(capsys, "fill", AMERICAN, *THEME, "--seed", "0", "-o", out, "--clue", "ZYZZYVA=Weevil")
    assert code == ExitCode.OK
    assert "--clue ZYZZYVA: the puzzle has no entry ZYZZYVA" in err
