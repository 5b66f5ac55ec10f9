"""Freeform boards and their rules: where a word may go.

Rules: every word after the first crosses a placed word at an equal glyph; letters touch only at
crossings (nothing directly before or after a word, no parallel neighbours); a cell is used by at
most one across and one down word.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...core.errors import InputError
from ...core.grid import Direction
from ...words.word_index import glyph_count

ACROSS, DOWN = Direction.ACROSS, Direction.DOWN
#: Longest word a freeform board takes, in glyphs. Longer ones are refused up front: such a
#: "word" is nearly always a sentence or paragraph read as one entry, and every step of the
#: search costs time in a word's length (two crossing 1,000-letter words took 198 s and 632 MB
#: for a million-cell board). 64 is over twice the longest entries of real freeform puzzles.
MAX_FREEFORM_WORD_GLYPHS = 64
#: Largest side of a board that has no given size (the largest grid a ``.puz`` file holds):
#: the board's area bounds the time and memory of laying it out and writing it.
MAX_BOARD_SIDE = 255
#: Glyphs of an over-long word quoted in the error message.
QUOTED_GLYPHS = 24
#: Each direction's bit in a cell's owner mask; a crossing cell has both.
OWNER_BIT = {ACROSS: 1, DOWN: 2}
CROSSING = 3

Cell = tuple[int, int]
#: A board's extent: (first row, first column, last row, last column).
Bounds = tuple[int, int, int, int]


@dataclass(frozen=True)
class Placement:
    word: str
    row: int
    col: int
    direction: Direction
    pair: int = -1  # symmetric mode: placements with the same pair id are each other's rotated image


@dataclass
class Board:
    """Cells (row, col) -> glyph, and the placements; coordinates may be negative until cropped."""

    cells: dict[Cell, str] = field(default_factory=dict)
    owner: dict[Cell, int] = field(default_factory=dict)  # cell -> OWNER_BIT mask
    placements: list[Placement] = field(default_factory=list)

    def bounds(self) -> Bounds:
        rows = [r for r, _ in self.cells] or [0]
        cols = [c for _, c in self.cells] or [0]
        return min(rows), min(cols), max(rows), max(cols)

    def area(self) -> int:
        r0, c0, r1, c1 = self.bounds()
        return (r1 - r0 + 1) * (c1 - c0 + 1)

    def crossings(self) -> int:
        return sum(1 for mask in self.owner.values() if mask == CROSSING)

    def key(self) -> tuple[int, int, int]:
        """Better boards compare greater: most words, then most crossings, then smallest area."""
        return len(self.placements), self.crossings(), -self.area()


def check_word_lengths(words: Iterable[str]) -> None:
    """Refuse a word longer than MAX_FREEFORM_WORD_GLYPHS, naming it (InputError)."""
    for word in words:
        if len(word) <= MAX_FREEFORM_WORD_GLYPHS:  # never fewer characters than glyphs: no need to count
            continue
        n = glyph_count(word)
        if n > MAX_FREEFORM_WORD_GLYPHS:
            shown = word if len(word) <= QUOTED_GLYPHS else word[:QUOTED_GLYPHS] + "..."
            raise InputError(
                f"the word {shown} has {n:,} letters; freeform words have at most {MAX_FREEFORM_WORD_GLYPHS} "
                "(a sentence read as one word? put one word per line)"
            )


class BoardRules:
    """Where words may go on a board of at most ``rows`` x ``cols`` (at most ``max_side``, by
    default MAX_BOARD_SIDE, a side when None).

    Args:
        glyphs: Each word's glyphs.
        symmetric: Boards keep 180-degree rotational symmetry of their letter cells about the
            centre of their bounds: a symmetric board's extent is measured with both halves.
    """

    def __init__(
        self,
        glyphs: dict[str, tuple[str, ...]],
        rows: int | None,
        cols: int | None,
        symmetric: bool,
        max_side: int = MAX_BOARD_SIDE,
    ):
        self.glyphs = glyphs
        self.rows, self.cols = rows, cols
        self.max_rows = max_side if rows is None else rows
        self.max_cols = max_side if cols is None else cols
        self.symmetric = symmetric

    def end(self, word: str, row: int, col: int, direction: Direction) -> Cell:
        """The last cell of a placement."""
        n = len(self.glyphs[word]) - 1
        return (row, col + n) if direction is ACROSS else (row + n, col)

    def cells(self, word: str, row: int, col: int, direction: Direction) -> list[Cell]:
        if direction is ACROSS:
            return [(row, col + k) for k in range(len(self.glyphs[word]))]
        return [(row + k, col) for k in range(len(self.glyphs[word]))]

    def _extent(self, low: int, high: int, start: int, end: int) -> int:
        """Rows (or columns) from ``low``..``high`` once a placement covers ``start``..``end``."""
        if self.symmetric:  # the rotated partner grows the other side as far: the centre stays
            twice_centre = low + high
            first = min(low, start, twice_centre - end)
            return twice_centre - 2 * first + 1
        return max(high, end) - min(low, start) + 1

    def height(self, bounds: Bounds, row: int, end_row: int) -> int:
        """Rows the board needs with a placement from ``row`` to ``end_row``."""
        return self._extent(bounds[0], bounds[2], row, end_row)

    def width(self, bounds: Bounds, col: int, end_col: int) -> int:
        """Columns the board needs with a placement from ``col`` to ``end_col``."""
        return self._extent(bounds[1], bounds[3], col, end_col)

    def area(self, bounds: Bounds, row: int, col: int, end_row: int, end_col: int) -> int:
        """The board's area with a placement (and, when symmetric, its partner)."""
        return self.height(bounds, row, end_row) * self.width(bounds, col, end_col)

    def centred(self, board: Board) -> bool:
        """Whether ``board`` can be laid out on the rules' size keeping its symmetry: a symmetric
        board's letters are symmetric about the centre of their bounds, which must then be the
        centre of a given board size, so each given side and the letters' extent along it must
        leave an even margin (a 4-letter word alone cannot sit symmetric on a 7-wide board).
        Always true without symmetry or a size."""
        if not self.symmetric or not board.placements:
            return True
        r0, c0, r1, c1 = board.bounds()
        rows_ok = self.rows is None or (self.rows - (r1 - r0 + 1)) % 2 == 0
        return rows_ok and (self.cols is None or (self.cols - (c1 - c0 + 1)) % 2 == 0)

    def fits(self, bounds: Bounds, row: int, col: int, end_row: int, end_col: int) -> bool:
        """Whether the board with this placement still fits ``rows`` x ``cols``."""
        return self.height(bounds, row, end_row) <= self.max_rows and self.width(bounds, col, end_col) <= self.max_cols

    def check(self, board: Board, word: str, row: int, col: int, direction: Direction) -> int | None:
        """Crossings of a placement, or None when it breaks a rule (bounds are not checked)."""
        cells, owner = board.cells, board.owner
        glyphs = self.glyphs[word]
        n = len(glyphs)
        if direction is ACROSS:
            if (row, col - 1) in cells or (row, col + n) in cells:
                return None
            crossings = 0
            for k in range(n):
                cell = (row, col + k)
                have = cells.get(cell)
                if have is not None:
                    if have != glyphs[k] or owner[cell] & 1:
                        return None
                    crossings += 1
                elif (row - 1, col + k) in cells or (row + 1, col + k) in cells:
                    return None
            return crossings
        if (row - 1, col) in cells or (row + n, col) in cells:
            return None
        crossings = 0
        for k in range(n):
            cell = (row + k, col)
            have = cells.get(cell)
            if have is not None:
                if have != glyphs[k] or owner[cell] & 2:
                    return None
                crossings += 1
            elif (row + k, col - 1) in cells or (row + k, col + 1) in cells:
                return None
        return crossings

    def place(self, board: Board, placement: Placement) -> list[Cell]:
        """Put a placement on the board; returns its cells."""
        bit = OWNER_BIT[placement.direction]
        cells = self.cells(placement.word, placement.row, placement.col, placement.direction)
        for cell, glyph in zip(cells, self.glyphs[placement.word], strict=True):
            board.cells[cell] = glyph
            board.owner[cell] = board.owner.get(cell, 0) | bit
        board.placements.append(placement)
        return cells

    def unplace_last(self, board: Board) -> None:
        placement = board.placements.pop()
        bit = OWNER_BIT[placement.direction]
        for cell in self.cells(placement.word, placement.row, placement.col, placement.direction):
            mask = board.owner[cell] & ~bit
            if mask:
                board.owner[cell] = mask
            else:
                del board.owner[cell], board.cells[cell]

    def image(self, bounds: Bounds, word: str, row: int, col: int, direction: Direction) -> Cell:
        """Start of the placement turned 180 degrees about the centre of a symmetric board's
        ``bounds``: cell (r, c) goes to (r0 + r1 - r, c0 + c1 - c), and a word keeps its direction."""
        r0, c0, r1, c1 = bounds
        n = len(self.glyphs[word]) - 1
        if direction is ACROSS:
            return r0 + r1 - row, c0 + c1 - col - n
        return r0 + r1 - row - n, c0 + c1 - col
