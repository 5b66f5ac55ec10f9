"""Grids: the block pattern, pre-filled glyphs, slots, numbering and statistics.

Text format (``docs/formats.md``): one line per row; ``#`` is a block, ``.`` an open cell, and any
other glyph a pre-filled cell. A row whose cells are separated by single spaces is read token by
token, so a cell may hold several glyphs (a rebus).

>>> grid = parse_grid("#..\\n...\\n..#")
>>> [slot.id for slot in grid.slots]
['1A', '3A', '4A', '1D', '2D', '3D']
>>> grid.slot("3A").cells
((1, 0), (1, 1), (1, 2))
>>> grid.stats().unchecked_cells
0
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import InputError
from .files import read_text_file
from .glyphs import normalize_glyph, refused_character, split_glyphs
from .limits import MAX_GRID_SIDE

BLOCK = "#"
EMPTY = "."


class Direction(StrEnum):
    """Which way an entry reads. A ``str``: ``Direction.ACROSS == "across"`` and JSON writes
    ``"across"``."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(row, column) step from one cell of an entry to the next (left to right for across;
        right-to-left grids reverse across entries themselves)."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def letter(self) -> str:
        """The letter of slot ids: ``A`` in ``12A``, ``D`` in ``12D``."""
        return "A" if self is Direction.ACROSS else "D"

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

#: A cell value: ``None`` for a block, ``""`` for an open empty cell, else the pre-filled glyph.
Cell = str | None


@dataclass(frozen=True)
class Slot:
    """A maximal run of two or more open cells in one direction: one entry of the puzzle.

    Attributes:
        id: ``"12A"`` or ``"12D"``.
        number: The clue number of its first cell.
        direction: :class:`Direction` (a ``str``: ``"across"`` or ``"down"``).
        cells: (row, column) of each cell in reading order of the entry (right to left for
            across entries of a right-to-left grid).
    """

    id: str
    number: int
    direction: Direction
    cells: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def start(self) -> tuple[int, int]:
        return self.cells[0]

    def to_dict(self) -> dict[str, Any]:
        """Id, number, direction, start row and column, length: how JSON outputs name a slot."""
        return {
            "id": self.id,
            "number": self.number,
            "direction": self.direction,
            "row": self.start[0],
            "col": self.start[1],
            "length": self.length,
        }


@dataclass(frozen=True)
class Crossing:
    """Two slots sharing a cell: ``across.cells[across_pos] == down.cells[down_pos] == cell``."""

    across: str
    down: str
    across_pos: int
    down_pos: int
    cell: tuple[int, int]


@dataclass(frozen=True)
class GridStats:
    rows: int
    cols: int
    blocks: int
    open_cells: int
    prefilled_cells: int
    slots: int
    across_slots: int
    down_slots: int
    length_histogram: dict[int, int]
    average_length: float
    unchecked_cells: int
    isolated_cells: int
    connected: bool
    components: int
    symmetric_180: bool
    symmetries: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["length_histogram"] = {str(k): v for k, v in sorted(self.length_histogram.items())}
        data["symmetries"] = list(self.symmetries)
        return data


@dataclass(frozen=True)
class Grid:
    """A crossword grid: blocks, open cells and pre-filled glyphs.

    Attributes:
        cells: Rows of cell values (``None`` block, ``""`` empty, else a glyph).
        rtl: Across entries run right to left and numbering starts at the top right.
        source: Where the grid was read from (for messages), if anywhere.
        tokenized: Whether any row was written token by token (cells separated by spaces); the
            text writer then keeps that form.
    """

    cells: tuple[tuple[Cell, ...], ...]
    rtl: bool = False
    source: str | None = None
    tokenized: bool = field(default=False, compare=False)

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def is_block(self, row: int, col: int) -> bool:
        return self.cells[row][col] is None

    def in_bounds(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def _open(self, row: int, col: int) -> bool:
        return self.in_bounds(row, col) and self.cells[row][col] is not None

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """All slots, across first then down, each in numbering order."""
        rows, cols = self.rows, self.cols
        # open cells with a border of blocks, so a neighbour is one lookup with no bounds test
        # (readers build the slots of every file they read: this loop is on their hot path)
        open_ = [[False] * (cols + 2)]
        open_ += [[False, *(cell is not None for cell in row), False] for row in self.cells]
        open_.append([False] * (cols + 2))
        step = -1 if self.rtl else 1
        col_order = range(cols - 1, -1, -1) if self.rtl else range(cols)
        across: list[Slot] = []
        down: list[Slot] = []
        number = 0
        for r in range(rows):
            above, here, below = open_[r], open_[r + 1], open_[r + 2]
            for c in col_order:
                x = c + 1  # the column in the bordered mask
                if not here[x]:
                    continue
                starts_across = not here[x - step] and here[x + step]
                starts_down = not above[x] and below[x]
                if not (starts_across or starts_down):
                    continue
                number += 1
                if starts_across:
                    end = x
                    while here[end]:
                        end += step
                    run = tuple((r, cc - 1) for cc in range(x, end, step))
                    across.append(Slot(f"{number}{ACROSS.letter}", number, ACROSS, run))
                if starts_down:
                    end = r + 1
                    while open_[end][x]:
                        end += 1
                    run = tuple((rr - 1, c) for rr in range(r + 1, end))
                    down.append(Slot(f"{number}{DOWN.letter}", number, DOWN, run))
        return tuple(across + down)

    @cached_property
    def _slot_by_id(self) -> dict[str, Slot]:
        return {slot.id: slot for slot in self.slots}

    def slot(self, slot_id: str) -> Slot:
        """The slot with this id (case-insensitive, e.g. ``"12a"``); KeyError if none."""
        return self._slot_by_id[slot_id.strip().upper()]

    @cached_property
    def slots_at(self) -> dict[tuple[int, int], tuple[tuple[Slot, int], ...]]:
        """For every open cell in a slot: the (slot, position) pairs that contain it."""
        where: dict[tuple[int, int], list[tuple[Slot, int]]] = {}
        for slot in self.slots:
            for pos, cell in enumerate(slot.cells):
                where.setdefault(cell, []).append((slot, pos))
        return {cell: tuple(pairs) for cell, pairs in where.items()}

    @cached_property
    def crossings(self) -> tuple[Crossing, ...]:
        result = []
        for cell, pairs in self.slots_at.items():
            if len(pairs) == 2:
                (a, ap), (d, dp) = pairs if pairs[0][0].direction == ACROSS else pairs[::-1]
                result.append(Crossing(a.id, d.id, ap, dp, cell))
        result.sort(key=lambda x: x.cell)
        return tuple(result)

    def pattern(self, slot: Slot, cells: tuple[tuple[Cell, ...], ...] | None = None) -> list[str]:
        """The slot's glyphs: the pre-filled glyph, or ``""`` for an empty cell."""
        source = cells if cells is not None else self.cells
        return [source[r][c] or "" for r, c in slot.cells]

    def pattern_text(self, slot: Slot) -> str:
        """The slot's pattern as text, ``?`` for an empty cell, e.g. ``C?T``."""
        return "".join(g or "?" for g in self.pattern(slot))

    @cached_property
    def pattern_texts(self) -> dict[str, str]:
        """Slot id -> :meth:`pattern_text` of every slot (made once per grid: the constraint graph
        of every problem built on the grid reads it)."""
        return {slot.id: self.pattern_text(slot) for slot in self.slots}

    def stats(self) -> GridStats:
        open_cells = [(r, c) for r in range(self.rows) for c in range(self.cols) if self._open(r, c)]
        prefilled = sum(1 for r, c in open_cells if self.cells[r][c])
        in_slots = self.slots_at
        unchecked = sum(1 for pairs in in_slots.values() if len(pairs) == 1)
        isolated = sum(1 for cell in open_cells if cell not in in_slots)
        lengths = Counter(slot.length for slot in self.slots)
        total = sum(slot.length for slot in self.slots)
        components = self._component_count(open_cells)
        symmetries = self.symmetries()
        return GridStats(
            rows=self.rows,
            cols=self.cols,
            blocks=self.rows * self.cols - len(open_cells),
            open_cells=len(open_cells),
            prefilled_cells=prefilled,
            slots=len(self.slots),
            across_slots=sum(1 for s in self.slots if s.direction == ACROSS),
            down_slots=sum(1 for s in self.slots if s.direction == DOWN),
            length_histogram=dict(sorted(lengths.items())),
            average_length=round(total / len(self.slots), 2) if self.slots else 0.0,
            unchecked_cells=unchecked,
            isolated_cells=isolated,
            connected=components <= 1,
            components=components,
            symmetric_180="rotational-180" in symmetries,
            symmetries=symmetries,
        )

    def _component_count(self, open_cells: list[tuple[int, int]]) -> int:
        seen: set[tuple[int, int]] = set()
        count = 0
        for start in open_cells:
            if start in seen:
                continue
            count += 1
            stack = [start]
            seen.add(start)
            while stack:
                r, c = stack.pop()
                for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if self._open(nr, nc) and (nr, nc) not in seen:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
        return count

    def symmetries(self) -> tuple[str, ...]:
        """The symmetries of the block pattern: rotational-180, mirror-lr, mirror-tb, diagonal."""
        R, C = self.rows, self.cols
        blocks = {(r, c) for r in range(R) for c in range(C) if self.cells[r][c] is None}
        kinds = []
        if all((R - 1 - r, C - 1 - c) in blocks for r, c in blocks):
            kinds.append("rotational-180")
        if all((r, C - 1 - c) in blocks for r, c in blocks):
            kinds.append("mirror-lr")
        if all((R - 1 - r, c) in blocks for r, c in blocks):
            kinds.append("mirror-tb")
        if R == C and all((c, r) in blocks for r, c in blocks):
            kinds.append("diagonal")
        return tuple(kinds)

    def with_cells(self, cells: list[list[Cell]] | tuple[tuple[Cell, ...], ...]) -> Grid:
        """A copy of this grid with other cell contents (same blocks expected)."""
        return Grid(tuple(tuple(row) for row in cells), self.rtl, self.source, self.tokenized)


def _row_cells(line: str, path: str | None, lineno: int) -> tuple[list[str], bool]:
    """Split one row into cell texts; the flag says whether it was written token by token."""
    if " " not in line:
        return split_glyphs(line), False
    tokens = line.split(" ")
    if any(token == "" for token in tokens):
        index = 0 if line.startswith(" ") else line.find("  ") + 1
        col = len(split_glyphs(line[:index])) + 1
        raise InputError("cells written token by token must be separated by single spaces", path, lineno, col)
    return tokens, True


def parse_grid(
    text: str,
    path: str | None = None,
    *,
    rtl: bool = False,
    block: str = BLOCK,
    empty: str = EMPTY,
    first_line: int = 1,
) -> Grid:
    """Parse grid text; raise :class:`InputError` naming line and column when it is malformed.

    Args:
        text: The rows, one per line. Trailing blank lines and trailing spaces are ignored.
        path: File name used in error messages.
        rtl: Right-to-left grid (across entries read from the right).
        block: The block symbol.
        empty: The open-cell symbol.
        first_line: Line number of the first row in the file (for messages).
    """
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    lines = [line.rstrip("\r").rstrip(" ") for line in lines]
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise InputError("the grid is empty", path)
    if len(lines) > MAX_GRID_SIDE:
        raise InputError(
            f"the grid has {len(lines):,} rows; the most a grid may have is {MAX_GRID_SIDE}",
            path,
            first_line + MAX_GRID_SIDE,
            1,
        )
    rows: list[tuple[Cell, ...]] = []
    width = None
    tokenized = False
    for offset, line in enumerate(lines):
        lineno = first_line + offset
        if line == "":
            raise InputError("blank line inside the grid", path, lineno, 1)
        bad = refused_character(line)
        if bad is not None:
            col, name = bad
            raise InputError(f"{name} is not allowed in a grid", path, lineno, col)
        texts, by_token = _row_cells(line, path, lineno)
        if len(texts) > MAX_GRID_SIDE:
            raise InputError(
                f"the row has {len(texts):,} cells; the most a grid may have is {MAX_GRID_SIDE}",
                path,
                lineno,
                MAX_GRID_SIDE + 1,
            )
        tokenized |= by_token
        row: list[Cell] = []
        for text_cell in texts:
            if text_cell == block:
                row.append(None)
            elif text_cell == empty:
                row.append("")
            else:
                row.append(normalize_glyph(text_cell))
        if width is None:
            width = len(row)
        elif len(row) != width:
            col = min(len(row), width) + 1
            raise InputError(f"ragged row: {len(row)} cells where the first row has {width}", path, lineno, col)
        rows.append(tuple(row))
    grid = Grid(tuple(rows), rtl=rtl, source=path, tokenized=tokenized)
    if not grid.slots:
        raise InputError("the grid has no slot (no run of two or more open cells)", path)
    return grid


def read_grid(path: str | os.PathLike[str], *, rtl: bool = False) -> Grid:
    """Read a grid file in the text format."""
    name = os.fspath(path)
    return parse_grid(read_text_file(name), name, rtl=rtl)


def format_grid(
    grid: Grid,
    cells: tuple[tuple[Cell, ...], ...] | None = None,
    *,
    block: str = BLOCK,
    empty: str = EMPTY,
) -> str:
    """Grid text in the input format (``#`` blocks, ``.`` empty cells), one row per line.

    Rows are written token by token (single spaces) when the grid was read that way or any cell
    holds more than one glyph.
    """
    source = cells if cells is not None else grid.cells
    texts = [[block if v is None else (v or empty) for v in row] for row in source]
    spaced = grid.tokenized or any(len(split_glyphs(t)) != 1 for row in texts for t in row)
    sep = " " if spaced else ""
    return "\n".join(sep.join(row) for row in texts) + "\n"
