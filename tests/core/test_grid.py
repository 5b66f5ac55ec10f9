import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import format_grid, parse_grid, read_grid

from conftest import GRIDS


def test_slots_and_standard_numbering():
    grid = parse_grid("..#\n...\n#..")
    ids = [s.id for s in grid.slots]
    assert ids == ["1A", "3A", "5A", "1D", "2D", "4D"]
    assert grid.slot("3A").cells == ((1, 0), (1, 1), (1, 2))
    assert grid.slot("4D").cells == ((1, 2), (2, 2))
    assert grid.slot("1d").length == 2


def test_runs_of_one_cell_are_not_slots():
    grid = parse_grid("..#.\n....")
    assert [s.id for s in grid.slots if s.direction == "across"] == ["1A", "4A"]
    stats = grid.stats()
    assert stats.isolated_cells == 0
    # (row 1, col 4) is only in 3D and (row 2, col 3) only in 4A
    assert stats.unchecked_cells == 2


def test_right_to_left_numbering_starts_top_right():
    grid = parse_grid("..#\n...", rtl=True)
    one_a = grid.slot("1A")
    assert one_a.cells == ((0, 1), (0, 0))
    assert grid.slot("3A").cells == ((1, 2), (1, 1), (1, 0))
    assert grid.slot("1D").cells == ((0, 1), (1, 1))


def test_prefilled_glyphs_are_normalised():
    grid = parse_grid("c.\n..")
    assert grid.cells[0][0] == "C"
    assert grid.pattern_text(grid.slot("1A")) == "C?"


def test_bangla_conjunct_is_one_cell():
    grid = parse_grid("ক্ষমা\n..")
    assert grid.cols == 2
    assert grid.cells[0] == ("ক্ষ", "মা")


def test_token_rows_hold_rebus_cells():
    grid = parse_grid("HEART . #\n. . .")
    assert grid.cells[0] == ("HEART", "", None)
    assert grid.tokenized
    assert format_grid(grid) == "HEART . #\n. . .\n"


def test_stats_of_symmetric_grid():
    stats = read_grid(GRIDS / "american" / "am15-01.txt").stats()
    assert stats.rows == stats.cols == 15
    assert stats.symmetric_180
    assert stats.unchecked_cells == 0
    assert stats.connected
    assert min(stats.length_histogram) >= 3
    assert 72 <= stats.slots <= 78
    assert stats.slots == sum(stats.length_histogram.values())


def test_disconnected_grid_has_components():
    stats = parse_grid("..#..\n..#..").stats()
    assert not stats.connected and stats.components == 2


@pytest.mark.parametrize(
    "text, line, col, words",
    [
        ("...\n..\n", 2, 3, "ragged"),
        ("...\n.\t.\n", 2, 2, "tab"),
        ("...\n\x07..\n", 2, 1, "control"),
        ("...\n.\x85.\n...\n", 2, 2, "control character U+0085"),
        ("...\n..\x9f\n...\n", 2, 3, "control character U+009F"),
        ("...\n.\u2028.\n...\n", 2, 2, "line separator U+2028"),
        ("..\n\n..\n", 2, 1, "blank line"),
        (". .  .\n", 1, 5, "single spaces"),
    ],
)
def test_bad_grid_names_line_and_column(write, text, line, col, words):
    path = write("bad.txt", text)
    with pytest.raises(InputError) as caught:
        read_grid(path)
    error = caught.value
    assert (error.path, error.line, error.column) == (path, line, col)
    assert words in error.message
    assert str(error).startswith(f"{path}:{line}:{col}: ")


def test_undecodable_bytes_are_located(write):
    path = write("bad.txt", b"...\n.\xff.\n")
    with pytest.raises(InputError) as caught:
        read_grid(path)
    assert (caught.value.line, caught.value.column) == (2, 2)
    assert "UTF-8" in caught.value.message


@pytest.mark.parametrize("text, words", [("", "empty"), ("\n\n", "empty"), ("#.#\n.#.\n", "no slot")])
def test_grid_without_slots_is_rejected(write, text, words):
    with pytest.raises(InputError, match=words):
        read_grid(write("g.txt", text))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_grid(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="directory"):
        read_grid(tmp_path)


def test_every_library_grid_parses():
    files = sorted(GRIDS.rglob("*.txt"))
    assert len(files) >= 72 + 6 + 5
    for path in files:
        assert read_grid(path).slots
