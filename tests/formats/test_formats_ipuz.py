"""ipuz files: every real file in ../shared/data/realfiles loads faithfully and round-trips, our
output passes the ``ipuz`` package's validator, and styles, voids, labels, variety clue groups,
diagramless and JSONP-wrapped files are kept."""

from __future__ import annotations

import json
from pathlib import Path

import ipuz as ipuz_package
import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import CellStyle, ClueGroup, LockedSolution, Puzzle, read_crossword, write_crossword
from csp_crossword.formats.ipuz import dumps, dumps_losses
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REALFILES

REAL = sorted(REALFILES.glob("*.ipuz")) if REALFILES.is_dir() else []
needs_realfiles = pytest.mark.skipif(not REAL, reason=f"no real .ipuz files in {REALFILES} (set CSP_CROSSWORD_SHARED)")
FIELDS = ("solution", "clues", "styles", "voids", "labels", "title", "author", "copyright", "notes")
FIELDS += ("extra_clues", "kind", "diagramless")


def real(name: str) -> Puzzle:
    return read_crossword(REALFILES / name)


def round_trip(puzzle: Puzzle, tmp_path: Path) -> Puzzle:
    text = dumps(puzzle)
    ipuz_package.read(text)  # an independent reader's validation: raises IPUZException when invalid
    path = tmp_path / "back.ipuz"
    path.write_text(text, encoding="utf-8")
    return read_crossword(path)


def assert_same(back: Puzzle, puzzle: Puzzle) -> None:
    assert back.grid.cells == puzzle.grid.cells and back.grid.rtl == puzzle.grid.rtl
    for name in FIELDS:
        assert getattr(back, name) == getattr(puzzle, name), name


@needs_realfiles
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_real_ipuz_loads_and_round_trips_through_a_valid_file(path, tmp_path):
    puzzle = read_crossword(path)
    assert puzzle.grid.rows > 0 and (puzzle.clues or puzzle.extra_clues)
    assert_same(round_trip(puzzle, tmp_path), puzzle)


@needs_realfiles
def test_gaps_keeps_the_files_numbering_and_the_clue_no_slot_has():
    puzzle = real("kotwords__gaps.ipuz")
    assert puzzle.labels[(2, 0)] == "5" and puzzle.labels[(1, 0)] == ""  # standard would number 8 and 4
    assert puzzle.clues["8A"] == "See 1- and 6-Across"  # the file's 5 Across, found by its cells
    assert [s for s in puzzle.grid.slots if s.id == "8A"][0].cells[0] == (2, 0)
    assert puzzle.label(puzzle.grid.slot("8A")) == "5"
    assert puzzle.extra_clues == [ClueGroup("Down", [("7", "Will be removed")])]
    assert any("variety" in w for w in puzzle.warnings)


@needs_realfiles
@pytest.mark.parametrize(
    "name, headings",
    [
        ("kotwords__marching-bands.ipuz", ["Bands", "Rows"]),
        ("kotwords__jelly-roll.ipuz", ["Jelly Rolls", "Light Squares", "Dark Squares"]),
        ("kotwords__two-tone.ipuz", ["All Squares", "Odd Squares", "Even Squares"]),
        ("kotwords__annotations.ipuz", ["Track 1", "Other tracks"]),
    ],
)
def test_variety_puzzles_keep_their_clue_groups_with_a_warning(name, headings):
    puzzle = real(name)
    assert [group.heading for group in puzzle.extra_clues] == headings
    assert puzzle.kind == "variety" and not puzzle.clues
    assert any("variety puzzle" in w for w in puzzle.warnings)


@needs_realfiles
def test_bars_shading_and_circles_of_real_files():
    jelly = real("kotwords__jelly-roll.ipuz")
    assert jelly.styles[(0, 0)].bars == frozenset({"bottom"}) and jelly.styles[(1, 2)].bars == frozenset({"left"})
    assert jelly.styles[(0, 1)] == CellStyle(shaded=True, color="#c0c0c0", bars=frozenset({"bottom"}))
    assert any("bars" in w for w in jelly.warnings)
    annotations = real("kotwords__annotations.ipuz")
    assert annotations.styles[(1, 3)].bars == frozenset({"top", "left"})  # "T, L"
    sink = real("puzzmo__kitchen-sink.ipuz")
    assert sink.styles == {(1, 1): CellStyle(circle=True)}
    assert sink.grid.cells[2][2] == "N" and sink.solution is not None and sink.solution[0][0] == "GO"
    bands = real("kotwords__marching-bands.ipuz")
    assert any("mark" in w for w in bands.warnings)  # corner letters are not kept, and it says so


@needs_realfiles
def test_diagramless_no_solution_zero_indexed_and_empty_clue_files():
    assert real("kotwords__test-diagramless.ipuz").diagramless
    assert real("kotwords__test-no-solution.ipuz").solution is None
    plain = real("kotwords__test.ipuz")
    assert real("kotwords__test-zero-indexed.ipuz").clues == plain.clues == real("kotwords__test-diagonal.ipuz").clues
    assert plain.clues["1A"].startswith("First across clue") and plain.solution[2][2] == "XYZ"
    assert "1A" not in real("kotwords__test-empty-clue.ipuz").clues
    assert real("kotwords__test-diagonal.ipuz").extra_clues == [
        ClueGroup("Diagonal:Southeast", [("A", "Diagonal clue")])
    ]


def styled_puzzle() -> Puzzle:
    grid = parse_grid("...\n.#.\n...")
    solution = (("C", "A", "T"), ("O", None, "W"), ("W", "E", "B"))
    styles = {
        (0, 0): CellStyle(circle=True),
        (0, 2): CellStyle(shaded=True),
        (2, 2): CellStyle(shaded=True, color="#ff8800", circle=True),
        (1, 0): CellStyle(bars=frozenset({"top", "right"})),
        (1, 1): CellStyle(bars=frozenset({"bottom"})),  # a styled block
    }
    return Puzzle(grid, solution=solution, clues={"1A": "Pet", "1D": "Moo-er"}, styles=styles, title="Styled")


def test_circles_shading_and_bars_round_trip(tmp_path):
    puzzle = styled_puzzle()
    data = json.loads(dumps(puzzle))
    assert data["puzzle"][0][0] == {"cell": 1, "style": {"shapebg": "circle"}}
    assert data["puzzle"][0][2]["style"] == {"highlight": True}
    assert data["puzzle"][2][2]["style"] == {"shapebg": "circle", "color": "FF8800"}
    assert data["puzzle"][1][0] == {"cell": 0, "style": {"barred": "TR"}}
    assert data["puzzle"][1][1] == {"cell": "#", "style": {"barred": "B"}}
    assert_same(round_trip(puzzle, tmp_path), puzzle)


def test_voids_labels_extra_groups_and_diagramless_round_trip(tmp_path):
    grid = parse_grid("..#\n...\n#..")
    puzzle = Puzzle(
        grid,
        clues={"1A": "One", "3A": "Three"},
        voids=frozenset({(0, 2)}),
        labels={(0, 0): "A", (1, 0): ""},
        extra_clues=[ClueGroup("Bands", [("A", "A band"), ("", "Unlabelled")]), ClueGroup("Across", [("9", "x")])],
        diagramless=True,
        kind="variety",
    )
    data = json.loads(dumps(puzzle))
    assert data["puzzle"][0][2] is None and data["puzzle"][0][0] == "A"
    assert data["kind"] == ["http://ipuz.org/crossword/diagramless#1"]
    assert "Clues:Bands" in data["clues"] and "Clues:Across" in data["clues"]
    back = round_trip(puzzle, tmp_path)
    assert_same(back, puzzle)
    assert back.voids == {(0, 2)} and back.solution is None and back.label(grid.slot("1A")) == "A"


def test_a_jsonp_wrapped_file_loads_and_its_errors_keep_their_lines(write):
    text = dumps(styled_puzzle())
    assert read_crossword(write("w.ipuz", f"ipuz({text});\n")).clues == {"1A": "Pet", "1D": "Moo-er"}
    with pytest.raises(InputError, match=r"w2\.ipuz:3:"):
        read_crossword(write("w2.ipuz", 'ipuz({\n "version": "x",\n "kind" ["x"]})'))


def test_named_styles_notes_and_enumerations_are_read(write):
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 2, "height": 2},
        "styles": {"ring": {"shapebg": "circle"}},
        "puzzle": [[{"cell": 1, "style": "ring"}, 2], [3, 0]],
        "clues": {"Across": [{"number": 1, "clue": "Top", "enumeration": "2"}], "Down": [[2, "Right (2)"]]},
        "intro": "Read me first",
        "notes": "A note",
    }
    puzzle = read_crossword(write("n.ipuz", json.dumps(data)))
    assert puzzle.styles == {(0, 0): CellStyle(circle=True)}
    assert puzzle.clues == {"1A": "Top (2)", "2D": "Right (2)"}
    assert puzzle.notes == "Read me first\n\nA note"


def test_a_clue_the_standard_grid_has_no_entry_for_is_still_an_error(write):
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 2, "height": 2},
        "puzzle": [[1, 2], [3, 0]],
        "clues": {"Across": [[7, "Nowhere"]]},
    }
    with pytest.raises(InputError, match=r"clues.Across\[0\]: the grid has no 7 across"):
        read_crossword(write("bad.ipuz", json.dumps(data)))


def test_losses_name_what_ipuz_cannot_carry(tmp_path):
    puzzle = styled_puzzle()
    assert dumps_losses(puzzle) == []
    locked = Puzzle(puzzle.grid, locked=LockedSolution("CATO.WWEB", 1234))
    losses = write_crossword(tmp_path / "l.ipuz", locked)
    assert any("locked" in loss for loss in losses)
    assert read_crossword(tmp_path / "l.ipuz").solution is None


CELL_VALUES = st.one_of(
    st.sampled_from([0, "0", None, "#", "", 1, 2.0, True]),
    st.integers(-5, 100_000),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=24),
    st.fixed_dictionaries({"cell": st.one_of(st.integers(0, 99), st.text(max_size=20))}),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(CELL_VALUES, min_size=3, max_size=3), min_size=3, max_size=3))
def test_what_the_ipuz_reader_takes_our_own_formats_write_and_read_back(tmp_path_factory, cells):
    """Any ipuz file the reader accepts is written as our JSON and as ipuz, and both read back
    to the same puzzle: no field the reader lets in is one a writer or reader of ours refuses."""
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 3, "height": 3},
        "puzzle": cells,
        "clues": {"Across": [], "Down": []},
    }
    folder = tmp_path_factory.mktemp("labels")
    source = folder / "in.ipuz"
    source.write_text(json.dumps(data))
    try:
        puzzle = read_crossword(source)
    except InputError:
        return  # refused with a reason: nothing to write
    for name in ("back.json", "back.ipuz"):
        write_crossword(folder / name, puzzle)
        back = read_crossword(folder / name)
        assert back.grid.cells == puzzle.grid.cells
        assert back.labels == puzzle.labels and back.voids == puzzle.voids


@pytest.mark.parametrize("extension", [".ipuz", ".json"])
def test_the_constructors_locks_and_fill_letters_round_trip(tmp_path, extension):
    grid = parse_grid("CA#\n...\n#..")
    puzzle = Puzzle(grid, locked_cells=frozenset({(0, 0), (0, 1)}), filled_cells=frozenset({(0, 1)}))
    path = tmp_path / f"work{extension}"
    assert write_crossword(path, puzzle) == []
    back = read_crossword(path)
    assert back.locked_cells == {(0, 0), (0, 1)} and back.filled_cells == {(0, 1)}
    assert back.grid.cells == grid.cells


def test_a_lock_outside_the_grid_is_named(tmp_path):
    path = tmp_path / "bad.ipuz"
    data = json.loads(dumps(Puzzle(parse_grid("CA#\n...\n#.."))))
    data["org.csp-crossword:locked-cells"] = [[0, 9]]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=r"locked-cells\[0\]"):
        read_crossword(path)
