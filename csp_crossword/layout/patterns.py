"""Random block patterns for grids whose blocks are not given.

A pattern has every run of open cells at least 2 and at most ``max_run`` long, is connected, and
can be 180-degree symmetric. Blocks go into over-long runs at positions that leave no single-cell
piece when possible; cells left in no slot become blocks.

Drawing is incremental: the over-long runs of each row and column are kept, and only the lines
through a new block are scanned again, so a pattern costs about (blocks x side) steps rather than
(blocks x cells). The job's deadline is checked between blocks and between attempts.
"""

from __future__ import annotations

import random

from ..core.deadline import Deadline, StopSignal, expired
from ..core.grid import Grid

#: Attempts at drawing one valid pattern.
PATTERN_TRIES = 200
#: Blocks placed between two looks at the clock (a block costs two line scans: on a 50x50 grid
#: 16 blocks take about a millisecond).
CHECK_EVERY = 16

Cell = tuple[int, int]
#: ``open_cells[r][c]``: whether the cell is open (not a block).
OpenCells = list[list[bool]]


class _Runs:
    """The runs longer than ``max_run`` in every line: rows first, then columns (the order the
    random choice draws from, so a seed gives the same pattern as a full rescan would)."""

    def __init__(self, open_cells: OpenCells, max_run: int):
        self.open_cells = open_cells
        self.rows, self.cols = len(open_cells), len(open_cells[0])
        self.max_run = max_run
        self.lines: list[list[Cell]] = [[(r, c) for c in range(self.cols)] for r in range(self.rows)]
        self.lines += [[(r, c) for r in range(self.rows)] for c in range(self.cols)]
        self.long = [self._scan(line) for line in self.lines]

    def _scan(self, line: list[Cell]) -> list[list[Cell]]:
        found = []
        run: list[Cell] = []
        for r, c in line:
            if self.open_cells[r][c]:
                run.append((r, c))
                continue
            if len(run) > self.max_run:
                found.append(run)
            run = []
        if len(run) > self.max_run:
            found.append(run)
        return found

    def all(self) -> list[list[Cell]]:
        return [run for runs in self.long for run in runs]

    def block(self, r: int, c: int) -> None:
        """Make (r, c) a block and rescan its row and column."""
        self.open_cells[r][c] = False
        for index in (r, self.rows + c):
            self.long[index] = self._scan(self.lines[index])


def _draw_blocks(
    rows: int, cols: int, rng: random.Random, max_run: int, symmetric: bool, deadline: Deadline, stop: StopSignal | None
) -> OpenCells | None:
    """Open cells with a block in every over-long run; None when the time is up."""
    open_cells = [[True] * cols for _ in range(rows)]
    runs = _Runs(open_cells, max_run)
    placed = 0
    while True:
        long_runs = runs.all()
        if not long_runs:
            return open_cells
        placed += 1
        if placed % CHECK_EVERY == 0 and expired(deadline, stop):
            return None
        run = rng.choice(long_runs)
        good = [k for k in range(len(run)) if k != 1 and len(run) - 1 - k != 1]
        r, c = run[rng.choice(good or list(range(len(run))))]
        runs.block(r, c)
        if symmetric:
            runs.block(rows - 1 - r, cols - 1 - c)


def _in_slot(open_cells: OpenCells, r: int, c: int) -> bool:
    """Whether an open cell has an open neighbour in its row or column (so it is in a slot)."""
    rows, cols = len(open_cells), len(open_cells[0])
    return (
        (c > 0 and open_cells[r][c - 1])
        or (c + 1 < cols and open_cells[r][c + 1])
        or (r > 0 and open_cells[r - 1][c])
        or (r + 1 < rows and open_cells[r + 1][c])
    )


def _lonely(open_cells: OpenCells) -> list[Cell]:
    """Open cells in no slot."""
    return [
        (r, c)
        for r, row in enumerate(open_cells)
        for c, is_open in enumerate(row)
        if is_open and not _in_slot(open_cells, r, c)
    ]


def _connected(open_cells: OpenCells) -> bool:
    """Whether the open cells form one piece (orthogonal neighbours)."""
    rows, cols = len(open_cells), len(open_cells[0])
    cells = [(r, c) for r in range(rows) for c in range(cols) if open_cells[r][c]]
    if not cells:
        return True
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and open_cells[nr][nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                stack.append((nr, nc))
    return len(seen) == len(cells)


def random_pattern(
    rows: int,
    cols: int,
    rng: random.Random,
    max_run: int,
    symmetric: bool = False,
    rtl: bool = False,
    *,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> Grid | None:
    """A random connected block pattern whose runs of open cells are at most ``max_run`` long.

    Blocks go into over-long runs at positions that leave no single-cell piece when possible;
    cells left in no slot become blocks. None when PATTERN_TRIES attempts all fail, or when
    ``deadline`` passes or ``stop`` is set first.
    """
    for _ in range(PATTERN_TRIES):
        if expired(deadline, stop):
            return None
        open_cells = _draw_blocks(rows, cols, rng, max_run, symmetric, deadline, stop)
        if open_cells is None:
            return None
        for r, c in _lonely(open_cells):
            open_cells[r][c] = False
            if symmetric:
                open_cells[rows - 1 - r][cols - 1 - c] = False
        has_slot = any(
            is_open and _in_slot(open_cells, r, c) for r, row in enumerate(open_cells) for c, is_open in enumerate(row)
        )
        if has_slot and not _lonely(open_cells) and _connected(open_cells):
            return Grid(tuple(tuple("" if v else None for v in row) for row in open_cells), rtl=rtl)
    return None
