"""Crossword files: Across Lite ``.puz``, ``.ipuz``, ``.xd``, and our grid text and JSON.

Every reader returns a :class:`Puzzle` (pattern with the given glyphs, the solution when the file
has one, clues by slot id, metadata); every writer takes one. The format is chosen by the file's
extension (:data:`READERS`, :data:`WRITERS`).

>>> from csp_crossword.grid import parse_grid
>>> puzzle = Puzzle(parse_grid("..\\n.."), solution=(("A", "B"), ("C", "D")), clues={"1A": "First"})
>>> [(slot.id, answer, clue) for slot, answer, clue in puzzle.entries()]
[('1A', 'AB', 'First'), ('3A', 'CD', ''), ('1D', 'AC', ''), ('2D', 'BD', '')]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import InputError
from ..grid import Cell, Grid, Slot

Cells = tuple[tuple[Cell, ...], ...]


@dataclass
class Puzzle:
    """A crossword as the file formats hold it.

    Attributes:
        grid: The pattern: ``None`` blocks, ``""`` open cells, given (pre-filled) glyphs.
        solution: The answer glyph of every open cell (``None`` for blocks), when known.
        clues: Clue text by slot id (``"1A"``, ``"12D"``).
        title, author, copyright, notes: Metadata, empty when absent.
        freeform: A freeform board: cells without a letter are empty space, not black squares.
    """

    grid: Grid
    solution: Cells | None = None
    clues: dict[str, str] = field(default_factory=dict)
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""
    freeform: bool = False

    def answer(self, slot: Slot) -> str | None:
        if self.solution is None:
            return None
        glyphs = [self.solution[r][c] for r, c in slot.cells]
        return "".join(glyphs) if all(glyphs) else None

    def entries(self) -> list[tuple[Slot, str | None, str]]:
        """(slot, answer or None, clue or "") for every slot, across then down."""
        return [(slot, self.answer(slot), self.clues.get(slot.id, "")) for slot in self.grid.slots]


def _format_of(path: str, table: dict) -> str:
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in table:
        raise InputError(f"unknown file type {ext or '(none)'}: use one of {', '.join(sorted(table))}", os.fspath(path))
    return ext


def read_crossword(path, *, rtl: bool = False) -> Puzzle:
    """Read a crossword file of any supported format, chosen by extension."""
    from . import ipuz, native, puzfile, xd

    readers = {".puz": puzfile.read, ".ipuz": ipuz.read, ".xd": xd.read, ".json": native.read_json, ".txt": native.read_text}
    ext = _format_of(path, readers)
    puzzle = readers[ext](os.fspath(path))
    if rtl and not puzzle.grid.rtl:
        puzzle.grid = Grid(puzzle.grid.cells, rtl=True, source=puzzle.grid.source, tokenized=puzzle.grid.tokenized)
    return puzzle


def write_crossword(path, puzzle: Puzzle) -> None:
    """Write ``puzzle`` atomically in the format of ``path``'s extension."""
    from ..files import write_atomically
    from . import ipuz, native, puzfile, xd

    writers = {".puz": puzfile.dumps, ".ipuz": ipuz.dumps, ".xd": xd.dumps, ".json": native.dumps_json, ".txt": native.dumps_text}
    ext = _format_of(path, writers)
    write_atomically(os.fspath(path), writers[ext](puzzle))


#: Extensions the readers and writers know.
EXTENSIONS = (".puz", ".ipuz", ".xd", ".json", ".txt")


def is_crossword_file(path) -> bool:
    """Whether ``path`` is a file of one of the exchange formats (not our grid text)."""
    return os.path.splitext(os.fspath(path))[1].lower() in (".puz", ".ipuz", ".xd")


def puzzle_from_fill(grid: Grid, cells: Cells, lexicon=None, title: str = "") -> Puzzle:
    """A puzzle whose solution is a fill, with each entry's clue from ``lexicon`` when it has one."""
    solved = Grid(grid.cells, rtl=grid.rtl)
    puzzle = Puzzle(solved, solution=cells, title=title)
    if lexicon is not None:
        for slot, answer, _ in puzzle.entries():
            clue = lexicon.clue(answer) if answer else None
            if clue:
                puzzle.clues[slot.id] = clue
    return puzzle


__all__ = ["EXTENSIONS", "Puzzle", "is_crossword_file", "puzzle_from_fill", "read_crossword", "write_crossword"]
