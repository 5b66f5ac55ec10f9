"""Crossword files: Across Lite ``.puz``, ``.ipuz``, ``.xd``, and our grid text and JSON.

Every reader returns a :class:`Puzzle` (pattern with the given glyphs, the solution when the file
has one, clues by slot id, metadata); every writer takes one. The format is chosen by the file's
extension through one table, :data:`FILE_FORMATS`.

>>> from csp_crossword.core.grid import parse_grid
>>> puzzle = Puzzle(parse_grid("..\\n.."), solution=(("A", "B"), ("C", "D")), clues={"1A": "First"})
>>> [(slot.id, answer, clue) for slot, answer, clue in puzzle.entries()]
[('1A', 'AB', 'First'), ('3A', 'CD', ''), ('1D', 'AC', ''), ('2D', 'BD', '')]
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.grid import Cell, Grid, Slot

if TYPE_CHECKING:
    from ..words.lexicon import Lexicon

Cells = tuple[tuple[Cell, ...], ...]
Position = tuple[int, int]

#: The edges of a cell a bar can run along (``CellStyle.bars``).
EDGES = ("top", "right", "bottom", "left")


@dataclass(frozen=True)
class CellStyle:
    """How a cell is drawn beyond its glyph (ipuz ``style``, .puz GEXT, xd ``Special``).

    Attributes:
        circle: A circle drawn in the cell.
        shaded: The cell is shaded (grey unless ``color`` says otherwise).
        color: The shading colour as ``#rrggbb`` when the file gives one.
        bars: Edges of the cell with a thick bar (barred grids), from :data:`EDGES`.
    """

    circle: bool = False
    shaded: bool = False
    color: str = ""
    bars: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return self.circle or self.shaded or bool(self.color) or bool(self.bars)


@dataclass(frozen=True)
class LockedSolution:
    """A .puz solution scrambled by its author: kept as it is, never shown as an answer.

    Attributes:
        scrambled: The scrambled solution string of the file (one character a cell, ``.`` blocks).
        checksum: The file's checksum of the unscrambled solution (what unlocking checks).
    """

    scrambled: str
    checksum: int


@dataclass
class ClueGroup:
    """Clues listed under a heading the grid's slots do not carry (variety puzzles' ``Rows`` or
    ``Bands``, clues whose entry the block pattern does not have): kept for printing and for the
    writers that can carry them. ``clues`` are (label, text) pairs in the file's order."""

    heading: str
    clues: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Puzzle:
    """A crossword as the file formats hold it.

    Attributes:
        grid: The pattern: ``None`` blocks (and void cells), ``""`` open cells, given
            (pre-filled) glyphs.
        solution: The answer glyph of every open cell (``None`` for blocks), when known.
        clues: Clue text by slot id (``"1A"``, ``"12D"``).
        title, author, copyright, notes: Metadata, empty when absent.
        freeform: A freeform board: cells without a letter are empty space, not black squares.
        styles: Circles, shading and bars by cell.
        voids: Cells outside the puzzle (.puz ``:``, xd ``_``, ipuz ``null``): drawn as nothing,
            neither block nor open cell; ``None`` in ``grid``.
        diagramless: The solver is not shown where the blocks are.
        labels: Cell numbers as the file gives them, when they are not the standard numbering
            (a slot's clue is printed with the label of its first cell).
        locked: A scrambled .puz solution, kept as it is (``solution`` is then None).
        extra_clues: Clue groups the grid's slots do not carry (:class:`ClueGroup`).
        kind: What the puzzle is when it is not a plain crossword (``"diagramless"``, an ipuz
            kind such as ``"http://ipuz.org/crossword/jellyroll#1"``); empty for a crossword.
        warnings: What reading the file noticed and let pass (a wrong checksum, a variety puzzle
            read as a plain grid); front ends show them.
        locked_cells: Cells the constructor locked: a fill or a candidate leaves their glyphs as
            they are (the web constructor's locks; kept by ipuz and our JSON).
        filled_cells: Cells whose glyph an autofill placed, not the constructor: a new fill may
            change them (kept by ipuz and our JSON).
    """

    grid: Grid
    solution: Cells | None = None
    clues: dict[str, str] = field(default_factory=dict)
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""
    freeform: bool = False
    styles: dict[Position, CellStyle] = field(default_factory=dict)
    voids: frozenset[Position] = frozenset()
    diagramless: bool = False
    labels: dict[Position, str] = field(default_factory=dict)
    locked: LockedSolution | None = None
    extra_clues: list[ClueGroup] = field(default_factory=list)
    kind: str = ""
    warnings: list[str] = field(default_factory=list)
    locked_cells: frozenset[Position] = frozenset()
    filled_cells: frozenset[Position] = frozenset()

    def answer(self, slot: Slot) -> str | None:
        if self.solution is None:
            return None
        glyphs = [self.solution[r][c] or "" for r, c in slot.cells]
        return "".join(glyphs) if all(glyphs) else None

    def entries(self) -> list[tuple[Slot, str | None, str]]:
        """(slot, answer or None, clue or "") for every slot, across then down."""
        return [(slot, self.answer(slot), self.clues.get(slot.id, "")) for slot in self.grid.slots]

    def label(self, slot: Slot) -> str:
        """The number printed for ``slot``: the file's label of its first cell, else standard."""
        return self.labels.get(slot.cells[0], str(slot.number))

    def is_void(self, r: int, c: int) -> bool:
        return (r, c) in self.voids

    def style_counts(self) -> dict[str, int]:
        """How many cells are circled, shaded (grey or coloured) and barred."""
        styles = self.styles.values()
        return {
            "circles": sum(1 for style in styles if style.circle),
            "shaded": sum(1 for style in styles if style.shaded or style.color),
            "barred": sum(1 for style in styles if style.bars),
        }

    def clue_count(self) -> int:
        """Clues of the grid's entries plus those of the extra groups."""
        return len(self.clues) + sum(len(group.clues) for group in self.extra_clues)


@dataclass(frozen=True)
class FileFormat:
    """One crossword file format.

    Attributes:
        name: Short name (``puz``, ``ipuz``, ...).
        extension: The file extension that selects it.
        module: The module under ``csp_crossword.formats`` with its ``read`` and ``dumps``.
        reader, writer: Function names in that module.
        exchange: A format other programs exchange puzzles in (``fill --output`` writes a puzzle
            file with clues for these), as opposed to our own grid text and JSON result.
        description: For help texts.
        keeps_work: The format keeps the constructor's locks and which letters a fill placed
            (:attr:`Puzzle.locked_cells`, :attr:`Puzzle.filled_cells`).
    """

    name: str
    extension: str
    module: str
    reader: str
    writer: str
    exchange: bool
    description: str
    keeps_work: bool = False

    def read(self, path: str) -> Puzzle:
        function: Callable[[str], Puzzle] = getattr(importlib.import_module(f"{__name__}.{self.module}"), self.reader)
        return function(path)

    def dumps(self, puzzle: Puzzle) -> str | bytes:
        function: Callable[[Puzzle], str | bytes] = getattr(
            importlib.import_module(f"{__name__}.{self.module}"), self.writer
        )
        return function(puzzle)

    def losses(self, puzzle: Puzzle) -> list[str]:
        """What writing ``puzzle`` in this format leaves out, one sentence each (empty: nothing).
        Each format module's ``losses`` function says it; a module without one loses nothing."""
        module = importlib.import_module(f"{__name__}.{self.module}")
        function: Callable[[Puzzle], list[str]] | None = getattr(module, f"{self.writer}_losses", None)
        losses = [] if function is None else function(puzzle)
        if not self.keeps_work and (puzzle.locked_cells or puzzle.filled_cells):
            losses.append(
                f"the locks and which letters the fill placed left out: .{self.name} cannot keep them "
                "(.ipuz and .json do)"
            )
        return losses


#: Every crossword file format, by extension. The one table readers, writers, the CLI's help and
#: ``is_crossword_file`` use.
FILE_FORMATS: dict[str, FileFormat] = {
    f.extension: f
    for f in (
        FileFormat("puz", ".puz", "puzfile", "read", "dumps", True, "Across Lite"),
        FileFormat("ipuz", ".ipuz", "ipuz", "read", "dumps", True, "ipuz (JSON)", keeps_work=True),
        FileFormat("xd", ".xd", "xd", "read", "dumps", True, "xd (plain text)"),
        FileFormat("json", ".json", "native", "read_json", "dumps_json", False, "csp-crossword JSON result", True),
        FileFormat("txt", ".txt", "native", "read_text", "dumps_text", False, "grid text"),
    )
}

#: Extensions the readers and writers know.
EXTENSIONS = tuple(FILE_FORMATS)


def file_format(path: str | os.PathLike[str]) -> FileFormat:
    """The format of ``path`` by its extension (InputError naming the file when unknown)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in FILE_FORMATS:
        raise InputError(
            f"unknown file type {ext or '(none)'}: use one of {', '.join(sorted(FILE_FORMATS))}", os.fspath(path)
        )
    return FILE_FORMATS[ext]


def read_crossword(path: str | os.PathLike[str], *, rtl: bool = False) -> Puzzle:
    """Read a crossword file of any supported format, chosen by extension."""
    puzzle = file_format(path).read(os.fspath(path))
    if rtl and not puzzle.grid.rtl:
        puzzle.grid = Grid(puzzle.grid.cells, rtl=True, source=puzzle.grid.source, tokenized=puzzle.grid.tokenized)
    return puzzle


def write_crossword(path: str | os.PathLike[str], puzzle: Puzzle) -> list[str]:
    """Write ``puzzle`` atomically in the format of ``path``'s extension; returns what the format
    could not carry (:meth:`FileFormat.losses`), for the caller to announce."""
    from ..core.files import write_atomically

    fmt = file_format(path)
    write_atomically(os.fspath(path), fmt.dumps(puzzle))
    return fmt.losses(puzzle)


def is_crossword_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a file of one of the exchange formats (not our grid text or JSON)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    return ext in FILE_FORMATS and FILE_FORMATS[ext].exchange


def puzzle_from_fill(
    grid: Grid, cells: Cells, lexicon: Lexicon | None = None, title: str = "", *, givens: bool = False
) -> Puzzle:
    """A puzzle whose solution is a fill, with each entry's clue from ``lexicon`` when it has one.

    The letters ``grid`` holds (theme entries typed in, a corner filled by hand) are part of the
    solution, not shown to the solver: the puzzle's grid is the blank pattern, unless ``givens``
    (letters a puzzle file marked as given to the solver, which stay given)."""
    pattern = grid.cells if givens else tuple(tuple(None if v is None else "" for v in row) for row in grid.cells)
    solved = Grid(pattern, rtl=grid.rtl)
    puzzle = Puzzle(solved, solution=cells, title=title)
    if lexicon is not None:
        for slot, answer, _ in puzzle.entries():
            clue = lexicon.clue(answer) if answer else None
            if clue:
                puzzle.clues[slot.id] = clue
    return puzzle


__all__ = [
    "EDGES",
    "EXTENSIONS",
    "CellStyle",
    "ClueGroup",
    "LockedSolution",
    "FILE_FORMATS",
    "FileFormat",
    "Puzzle",
    "file_format",
    "is_crossword_file",
    "puzzle_from_fill",
    "read_crossword",
    "write_crossword",
]
