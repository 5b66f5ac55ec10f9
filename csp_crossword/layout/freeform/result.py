"""A finished freeform board as the caller sees it: the grid, its cells and the word lists."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...core.grid import Grid
from .board import CROSSING, Board, BoardRules


@dataclass
class FreeformResult:
    """A laid-out board.

    Attributes:
        grid: The board as a grid: ``None`` for cells without a letter, ``""`` for letter cells.
        cells: The same shape with the glyphs.
        placed: Words on the board, in placement order.
        failed: Listed words that are not on the board (including words too short or too long
            to be placed at all).
        isolated: Placed words that cross no other word (only with islands allowed).
        crossings: Cells shared by an across and a down word.
        boards: Boards built (greedy and improvement steps).
        seconds: Time spent.
        symmetric: Whether the board was kept 180-degree rotationally symmetric.
        interrupted: Whether Ctrl-C stopped the search (the board is the best found before).
        timed_out: Whether the time ran out before one full attempt: the word index or the
            first greedy board was cut short, so some words were never tried.
    """

    grid: Grid
    cells: tuple[tuple[str | None, ...], ...]
    placed: list[str]
    failed: list[str]
    isolated: list[str]
    crossings: int
    boards: int
    seconds: float
    symmetric: bool = False
    interrupted: bool = False
    timed_out: bool = False

    @property
    def letter_cells(self) -> int:
        return sum(1 for row in self.cells for v in row if v is not None)

    @property
    def fill(self) -> float:
        """Share of the board's cells that hold a letter."""
        return self.letter_cells / (self.grid.rows * self.grid.cols)


def board_result(
    board: Board,
    rules: BoardRules,
    listed: list[str],
    *,
    rtl: bool,
    boards: int,
    seconds: float,
    interrupted: bool = False,
    timed_out: bool = False,
) -> FreeformResult:
    """The result of ``board`` laid out from the ``listed`` words: cropped to its cells when the
    rules give no size, else centred on a board of that size (mirrored when ``rtl``)."""
    r0, c0, r1, c1 = board.bounds()
    height = rules.rows if rules.rows is not None else r1 - r0 + 1
    width = rules.cols if rules.cols is not None else c1 - c0 + 1
    top = (height - (r1 - r0 + 1)) // 2 - r0
    left = (width - (c1 - c0 + 1)) // 2 - c0
    cells: list[list[str | None]] = [[None] * width for _ in range(height)]
    for (r, c), glyph in board.cells.items():
        col = c + left
        cells[r + top][width - 1 - col if rtl else col] = glyph
    grid = Grid(tuple(tuple("" if v is not None else None for v in row) for row in cells), rtl=rtl)
    placed = [p.word for p in board.placements]
    unplaced = Counter(listed)
    unplaced.subtract(placed)
    failed = []
    for word in listed:
        if unplaced[word] > 0:
            unplaced[word] -= 1
            failed.append(word)
    cells_of = rules.cells
    isolated = [
        p.word
        for p in board.placements
        if all(board.owner[cell] != CROSSING for cell in cells_of(p.word, p.row, p.col, p.direction))
        and len(board.placements) > 1
    ]
    return FreeformResult(
        grid,
        tuple(tuple(row) for row in cells),
        placed,
        failed,
        isolated,
        board.crossings(),
        boards,
        seconds,
        rules.symmetric,
        interrupted,
        timed_out,
    )


__all__ = ["FreeformResult", "board_result"]
