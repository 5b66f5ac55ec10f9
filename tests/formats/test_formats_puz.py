""".puz files: every real file of ../shared/data/realfiles read, checked against puzpy as an
independent reader, written and read back; broken files refused with a message naming the problem;
circles, shading, voids, givens, locked and diagramless puzzles through our writer."""

from __future__ import annotations

import puz
import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import CellStyle, LockedSolution, Puzzle
from csp_crossword.formats.puzfile import dumps, dumps_losses, read

from conftest import REALFILES

REAL = REALFILES
FILES = sorted(REAL.glob("*.puz")) if REAL.is_dir() else []
NO_FILES = pytest.mark.skip(reason=f"the real puzzle files are not present in {REAL} (set CSP_CROSSWORD_SHARED)")

#: Files broken by their own fault, and what the error must say.
BROKEN = {
    "puzpy__ONE_bad.puz": "ACROSS&DOWN header is missing",
    # 35 entries, 34 clues: one is missing (the clue count in the header is byte-swapped too)
    "puzzmo__truncated-strings.puz": "it has 35 entries, the header says 8704 clues (34 if read byte-swapped)",
}
#: Warnings some files must bring (others: at most the solver's progress left out).
WARNINGS = {
    "crosshare__nyt_with_shape.puz": ["the global checksum does not match", "the masked checksum does not match"],
    "puzzmo__plus-symbol-rebus.puz": [
        "the header says 1536 clues (6 if read byte-swapped) but the grid has 6 entries; read 6 clues",
        "the header has no version number; read as version 1.3 (Windows-1252 text)",
        "the file has no checksums (all zero)",
        "unknown puzzle type 0x0000; read as a plain crossword",
    ],
    "puzpy__nyt_sun_rebus.puz": ["the rebus answers of the locked solution (12 cells) are not kept"],
}
#: Files puzpy itself cannot load (it parses the zero version number as an int).
PUZPY_CANNOT = {"puzzmo__plus-symbol-rebus.puz"}


def real_files(*, broken: bool) -> list[object]:
    chosen = [path for path in FILES if (path.name in BROKEN) == broken]
    return [pytest.param(path, id=path.name) for path in chosen] or [pytest.param(None, marks=NO_FILES)]


def windows1252(text: str) -> str:
    """puzpy reads version 1.x text as Latin-1; Across Lite writes Windows-1252."""
    return "".join(bytes([ord(ch)]).decode("cp1252", "ignore") or ch if "\x80" <= ch <= "\x9f" else ch for ch in text)


def puzpy_load(data: bytes) -> puz.Puzzle:
    """puzpy's reading, past its checksum checks (it has filled every field when it raises them)."""
    theirs = puz.Puzzle()
    try:
        theirs.load(data)
    except puz.PuzzleFormatError as error:
        assert "checksum" in error.message
    return theirs


def assert_same(back: Puzzle, puzzle: Puzzle) -> None:
    assert back.grid.cells == puzzle.grid.cells
    assert (back.solution, back.locked, back.clues) == (puzzle.solution, puzzle.locked, puzzle.clues)
    assert (back.styles, back.voids, back.diagramless, back.kind) == (
        puzzle.styles,
        puzzle.voids,
        puzzle.diagramless,
        puzzle.kind,
    )
    assert (back.title, back.author, back.copyright, back.notes) == (
        puzzle.title,
        puzzle.author,
        puzzle.copyright,
        puzzle.notes,
    )


@pytest.mark.parametrize("path", real_files(broken=False))
def test_real_file_reads_like_puzpy_and_round_trips(path, tmp_path):
    puzzle = read(str(path))
    expected = WARNINGS.get(path.name, [])
    assert [w for w in puzzle.warnings if "solver's entries" not in w] == expected
    grid = puzzle.grid
    if path.name not in PUZPY_CANNOT:
        theirs = puzpy_load(path.read_bytes())
        assert (theirs.height, theirs.width) == (grid.rows, grid.cols)
        text = windows1252 if theirs.version_tuple() < (2, 0) else str
        assert (puzzle.title, puzzle.author, puzzle.notes) == (
            text(theirs.title),
            text(theirs.author),
            text(theirs.notes),
        )
        numbering = theirs.clue_numbering()
        their_clues = {
            f"{e['num']}{d}": text(e["clue"]) for d, es in (("A", numbering.across), ("D", numbering.down)) for e in es
        }
        assert puzzle.clues == {k: v for k, v in their_clues.items() if v}
        assert len(grid.slots) == len(theirs.clues)
        circled = theirs.markup().get_markup_squares(puz.GridMarkup.Circled) if theirs.has_markup() else []
        assert sorted(divmod(k, grid.cols) for k in circled) == sorted(puzzle.styles)
        assert all(style == CellStyle(circle=True) for style in puzzle.styles.values())
        assert puzzle.diagramless == (theirs.puzzletype == puz.PuzzleType.Diagramless)
        for k, ch in enumerate(theirs.solution):
            r, c = divmod(k, grid.cols)
            assert (grid.cells[r][c] is None) == (ch in ".:")
            assert puzzle.is_void(r, c) == (ch == ":" and not puzzle.diagramless)
        if theirs.solution_state == puz.SolutionState.Locked:
            assert puzzle.solution is None
            assert puzzle.locked == LockedSolution(theirs.solution, theirs.scrambled_cksum)
        elif theirs.solution_state == puz.SolutionState.NotProvided:
            assert puzzle.solution is None and puzzle.locked is None
        else:
            rebus = theirs.rebus() if theirs.has_rebus() else None
            answers = [
                (rebus.get_rebus_solution(k) if rebus and rebus.is_rebus_square(k) else ch)
                for k, ch in enumerate(theirs.solution)
            ]
            ours = [v for row in puzzle.solution or () for v in row]
            assert ours == [None if ch in ".:" else ch for ch in answers]
    data = dumps(puzzle)
    written = tmp_path / path.name
    written.write_bytes(data)
    back = read(str(written))
    assert_same(back, puzzle)
    # what we write passes puzpy's checksum checks
    again = puz.load(data)
    assert (again.width, again.height, len(again.clues)) == (grid.cols, grid.rows, len(grid.slots))


@pytest.mark.parametrize("path", real_files(broken=True))
def test_broken_real_file_is_refused_with_its_problem(path):
    with pytest.raises(InputError) as caught:
        read(str(path))
    message = str(caught.value)
    assert BROKEN[path.name] in message and path.name in message
    assert "invalid literal" not in message and "Error" not in message


@pytest.mark.skipif(not FILES, reason=f"the real puzzle files are not present in {REAL}")
def test_what_the_real_files_hold():
    def load(name: str) -> Puzzle:
        return read(str(REAL / name))

    assert len(load("puzzmo__alpha-bits.puz").styles) == 26
    assert len(load("puzpy__nyt_v1_4.puz").styles) == 55
    diagramless = load("puzpy__diagramless.puz")
    assert diagramless.diagramless and len(diagramless.clues) == 80 and not diagramless.voids
    shaped = load("crosshare__Its_All_Wrong.puz")
    assert len(shaped.voids) == 87 and not shaped.diagramless and shaped.solution is not None
    assert not any("::" in (shaped.answer(slot) or "") for slot in shaped.grid.slots)
    assert load("kotwords__test-iso-8859-1.puz").copyright == "© 2018 Jeff Davidson"
    assert load("kotwords__test.puz").clues["1A"] == "First across clue with special characters αβγδε"
    unicode = load("puzpy__unicode.puz")
    assert unicode.title == "⚔️" and unicode.clues["2D"] == "φ"
    assert "puzzle’s theme" in load("puzpy__nyt_diagramless.puz").notes  # Windows-1252 0x92
    rebus = load("puzpy__nyt_rebus_with_notes_and_shape.puz")
    assert rebus.solution is not None and rebus.solution[1][7] == "STAR"
    plus = load("puzzmo__plus-symbol-rebus.puz")
    assert plus.solution == (("C", "A", "B"), ("A", "+", "E"), ("B", "4", "E")) and len(plus.clues) == 6
    assert load("kotwords__test-no-solution.puz").solution is None
    partly = load("puzpy__nyt_partlyfilled.puz")  # the solver's letters are not givens
    assert all(v in (None, "") for row in partly.grid.cells for v in row)
    assert any("solver's entries in 10 cells" in w for w in partly.warnings)
    locked = load("crosshare__nyt_locked.puz")
    assert locked.solution is None and locked.locked is not None and locked.locked.checksum


def sample(**extra) -> Puzzle:
    grid = parse_grid("...#\n....\n#...")
    solution = (("C", "A", "T", None), ("A", "B", "L", "E"), (None, "B", "E", "D"))
    extra.setdefault("clues", {slot.id: f"Clue {slot.id} “quoted”" for slot in grid.slots})
    return Puzzle(grid, solution=solution, title="Sample", author="Tester", **extra)


def round_trip(tmp_path, puzzle: Puzzle) -> tuple[Puzzle, puz.Puzzle]:
    data = dumps(puzzle)
    path = tmp_path / "p.puz"
    path.write_bytes(data)
    return read(str(path)), puz.load(data)


def test_circles_and_shading(tmp_path):
    styles = {
        (0, 0): CellStyle(circle=True),
        (1, 1): CellStyle(shaded=True),
        (1, 2): CellStyle(circle=True, shaded=True),
    }
    puzzle = sample(styles=styles)
    back, theirs = round_trip(tmp_path, puzzle)
    assert back.styles == {cell: CellStyle(circle=True) for cell in styles}  # .puz has circles only
    assert back.solution == puzzle.solution and back.clues == puzzle.clues and not back.warnings
    assert sorted(theirs.markup().get_markup_squares(puz.GridMarkup.Circled)) == [0, 5, 6]
    losses = dumps_losses(puzzle)
    assert any("1 shaded cells are written as circles" in loss for loss in losses)
    assert any("1 cells both circled and shaded" in loss for loss in losses)
    assert dumps_losses(sample(styles={(0, 0): CellStyle(circle=True)})) == []


def test_voids_givens_and_no_solution(tmp_path):
    grid = parse_grid("#..\nA..\n...")
    cells = [list(row) for row in grid.cells]
    cells[0][0] = None
    puzzle = Puzzle(grid.with_cells(cells), voids=frozenset({(0, 0)}), clues={"1D": "Down"})
    back, theirs = round_trip(tmp_path, puzzle)
    assert back.voids == {(0, 0)} and back.grid.cells[1][0] == "A" and back.solution is None
    assert back.clues == {"1D": "Down"}
    assert theirs.solution_state == puz.SolutionState.NotProvided
    assert theirs.fill[0] == ":" and theirs.fill[3] == "A" and "-" in theirs.fill
    assert dumps_losses(puzzle) == ["no solution: the .puz holds X placeholders and says it has no solution"]


def test_diagramless_and_locked(tmp_path):
    puzzle = sample(diagramless=True, kind="diagramless")
    back, theirs = round_trip(tmp_path, puzzle)
    assert back.diagramless and back.solution == puzzle.solution and not back.voids
    assert theirs.puzzletype == puz.PuzzleType.Diagramless and theirs.solution.count(":") == 2
    locked = Puzzle(puzzle.grid, clues=puzzle.clues, locked=LockedSolution("XQZ.DKWM.PLO", 1234))
    back, theirs = round_trip(tmp_path, locked)
    assert back.locked == locked.locked and back.solution is None and dumps_losses(locked) == []
    assert theirs.is_solution_locked() and theirs.scrambled_cksum == 1234


def test_rebus_givens_and_utf8(tmp_path):
    grid = parse_grid("..\n..")
    puzzle = Puzzle(
        grid.with_cells([["HEART", ""], ["", ""]]), solution=(("HEART", "Ω"), ("B", "C")), clues={"1A": "Cœur"}
    )
    back, theirs = round_trip(tmp_path, puzzle)
    assert back.grid.cells[0][0] == "HEART" and back.solution == puzzle.solution and back.clues == puzzle.clues
    assert theirs.version == b"2.0" and theirs.rebus().get_rebus_solution(1) == "Ω"


@pytest.mark.parametrize(
    "cut, message",
    [(30, "ends inside its header"), (60, "ends inside the grid"), (-150, "the file ends after 3 of its 7 clues")],
)
def test_cut_files_are_refused(tmp_path, cut, message):
    data = dumps(sample(clues={slot.id: "x" * 40 for slot in sample().grid.slots}))
    path = tmp_path / "cut.puz"
    path.write_bytes(data[:cut])
    with pytest.raises(InputError, match=message):
        read(str(path))


def test_a_wrong_checksum_is_read_with_a_warning(tmp_path):
    data = bytearray(dumps(sample()))
    data[0] ^= 0xFF
    path = tmp_path / "bad.puz"
    path.write_bytes(bytes(data))
    puzzle = read(str(path))
    assert puzzle.warnings == ["the global checksum does not match"] and puzzle.solution == sample().solution


def test_the_compiled_checksum_matches_the_python_reference(monkeypatch):
    import random

    from csp_crossword.formats import puz_extras

    if puz_extras._compiled_checksum is None:
        pytest.skip("the _checksum extension is not built (no C compiler)")
    rng = random.Random(7)
    for _ in range(2000):
        data, value = rng.randbytes(rng.randrange(300)), rng.randrange(1 << 16)
        assert puz_extras.checksum(data, value) == puz_extras.python_checksum(data, value)
    # a file written with the Python loop alone has the same bytes, checksums included
    board = Puzzle(parse_grid("CAT\nA.O\nTOE"), solution=(("C", "A", "T"), ("A", None, "O"), ("T", "O", "E")))
    board.clues.update({"1A": "Pet", "1D": "Feline", "3D": "Also", "4A": "Digit"})
    compiled = dumps(board)
    monkeypatch.setattr(puz_extras, "_compiled_checksum", None)
    assert dumps(board) == compiled
