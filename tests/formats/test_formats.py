"""Crossword files: round trips of every format, validation errors, and the convert command."""

from __future__ import annotations

import json

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import Puzzle, read_crossword, write_crossword

from conftest import GRIDS

SOLUTION = (("C", "A", "T", None), ("A", "B", "L", "E"), (None, "B", "E", "D"))


def sample(**extra) -> Puzzle:
    grid = parse_grid("...#\n....\n#...")
    clues = {slot.id: f"Clue for {slot.id}, with ‘quotes’" for slot in grid.slots}
    return Puzzle(grid, solution=SOLUTION, clues=clues, title="Sample", author="Tester", copyright="CC0", **extra)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("ext", [".puz", ".ipuz", ".xd", ".json"])
def test_round_trip_keeps_solution_clues_and_metadata(tmp_path, ext):
    puzzle = sample()
    path = tmp_path / f"p{ext}"
    write_crossword(path, puzzle)
    back = read_crossword(path)
    assert back.solution == SOLUTION
    assert back.clues == puzzle.clues
    assert (back.title, back.author) == ("Sample", "Tester")
    assert [s.id for s in back.grid.slots] == [s.id for s in puzzle.grid.slots]
    assert all(v in (None, "") for row in back.grid.cells for v in row)  # the pattern, no givens


def test_text_round_trip_of_a_filled_grid(tmp_path):
    path = tmp_path / "p.txt"
    write_crossword(path, sample())
    assert read_crossword(path).solution == SOLUTION


@pytest.mark.parametrize("ext", [".puz", ".ipuz", ".xd", ".json"])
def test_rebus_and_unicode_cells_survive(tmp_path, ext):
    solution = (("HEART", "Á"), ("B", "ক্ষ"))
    puzzle = Puzzle(parse_grid("..\n.."), solution=solution, clues={"1A": "Amour…"})
    path = tmp_path / f"r{ext}"
    write_crossword(path, puzzle)
    back = read_crossword(path)
    assert back.solution == solution and back.clues == {"1A": "Amour…"}


def test_ipuz_keeps_givens_and_right_to_left(tmp_path):
    grid = parse_grid("ك..\n...", rtl=True)
    path = tmp_path / "g.ipuz"
    write_crossword(path, Puzzle(grid))
    back = read_crossword(path)
    assert back.grid.rtl and back.grid.cells[0][0] == "ك" and back.solution is None
    data = json.loads(path.read_text(encoding="utf-8"))
    for field in ("version", "kind", "dimensions", "puzzle"):
        assert field in data


def test_right_to_left_refused_by_formats_without_it(tmp_path):
    grid = parse_grid("..\n..", rtl=True)
    for ext in (".puz", ".xd"):
        with pytest.raises(InputError, match="right-to-left"):
            write_crossword(tmp_path / f"x{ext}", Puzzle(grid))


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"]}', "dimensions, puzzle"),
        (
            '{"version": "x", "kind": ["http://ipuz.org/sudoku#1"], "dimensions": {"width": 1, "height": 1}, "puzzle": [[0]]}',
            "not a crossword",
        ),
        (
            '{"version": "x", "kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 2, "height": 2}, "puzzle": [[0, 0]]}',
            "2 rows",
        ),
        (
            '{"version": "x", "kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 2, "height": 1}, "puzzle": [[0, 0, 0]]}',
            r"puzzle\[0\]",
        ),
        ('{"version": "x",\n "kind" ["x"]}', ":2:"),
    ],
)
def test_ipuz_errors_name_the_field_or_position(write, content, message):
    path = write("bad.ipuz", content)
    with pytest.raises(InputError, match=message) as caught:
        read_crossword(path)
    assert "bad.ipuz" in str(caught.value)


def test_xd_and_puz_errors(write):
    with pytest.raises(InputError, match=":2:1"):
        read_crossword(write("bad.xd", "Title: x\nnot a header\n\nAB\nCD\n"))
    with pytest.raises(InputError, match="no such entry"):
        read_crossword(write("bad2.xd", "Title: x\n\nAB\nCD\n\nA9. Nowhere ~ XY\n"))
    with pytest.raises(InputError, match=r"bad\.puz"):
        read_crossword(write("bad.puz", b"\x00\x01 not a puz file"))
    with pytest.raises(InputError, match="unknown file type"):
        read_crossword(write("x.docx", "hello"))


def test_convert_chain_and_fill_from_a_puzzle_file(capsys, tmp_path, write):
    first = tmp_path / "a.puz"
    write_crossword(first, sample())
    code, _, err = run(capsys, "convert", first, tmp_path / "b.ipuz")
    assert code == 0 and "3x4" in err
    assert run(capsys, "convert", tmp_path / "b.ipuz", tmp_path / "c.xd")[0] == 0
    assert run(capsys, "convert", tmp_path / "c.xd", tmp_path / "d.puz")[0] == 0
    back = read_crossword(tmp_path / "d.puz")
    assert back.solution == SOLUTION and back.clues == sample().clues
    assert run(capsys, "convert", first, tmp_path / "e.docx")[0] == 2
    # the pattern of a puzzle file can be filled; the word list's clues go into the .puz written
    words = write(
        "w.csv",
        "word,clue\n" + "".join(f"{w},Clue of {w}\n" for w in ("CAT", "ABLE", "BED", "CA", "ABB", "TLE", "ED", "DOG")),
    )
    code, _, _ = run(capsys, "fill", tmp_path / "b.ipuz", "--words", words, "--output", tmp_path / "f.puz", "-q")
    assert code == 0
    filled = read_crossword(tmp_path / "f.puz")
    assert filled.solution == SOLUTION
    assert filled.clues["1A"] == "Clue of CAT" and filled.clues["2D"] == "Clue of ABB"


def test_fill_keeps_the_givens_of_an_ipuz(capsys, tmp_path, quarter_lexicon):
    grid = parse_grid((GRIDS / "demo" / "blocks-7x7.txt").read_text())
    cells = [list(row) for row in grid.cells]
    cells[0][0] = "S"
    path = tmp_path / "g.ipuz"
    write_crossword(path, Puzzle(grid.with_cells(cells)))
    code, out, _ = run(capsys, "fill", path, "--format", "json", "-q")
    assert code == 0
    assert json.loads(out)["cells"][0][0] == "S"


def test_wordnet_clues_fill_the_gaps(capsys, tmp_path):
    from csp_crossword.clues.wordnet import wordnet_directory, wordnet_glosses

    if wordnet_directory() is None:
        pytest.skip("WordNet (Debian's wordnet-base) is not installed")
    glosses = wordnet_glosses({"DOG", "ICEAGE", "XQZV"})
    assert set(glosses) == {"DOG", "ICEAGE"}
    assert "canis" in glosses["DOG"].lower() and "dog" not in glosses["DOG"].lower().split()
    grid = parse_grid("...\n#..")
    solution = (("D", "O", "G"), (None, "N", "O"))  # DOG, NO; down ON, GO
    path = tmp_path / "p.ipuz"
    write_crossword(path, Puzzle(grid, solution=solution, clues={"1A": "Kept as given"}))
    code, _, err = run(capsys, "convert", path, tmp_path / "q.ipuz", "--clues", "wordnet")
    assert code == 0 and "from WordNet" in err
    clues = read_crossword(tmp_path / "q.ipuz").clues
    assert clues["1A"] == "Kept as given"
    assert len(clues) > 1
