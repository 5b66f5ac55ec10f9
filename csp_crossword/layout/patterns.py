"""Random block patterns for grids whose blocks are not given.

A pattern has every run of open cells at least 2 and at most ``max_run`` long, is connected, and
can be 180-degree symmetric. Blocks go into over-long runs at positions that leave no single-cell
piece when possible; cells left in no slot become blocks.
"""

from __future__ import annotations

import random

from ..grid import Grid

#: Attempts at drawing one valid pattern.
PATTERN_TRIES = 200


def _long_runs(open_cells: list[list[bool]], max_run: int) -> list[list[tuple[int, int]]]:
    rows, cols = len(open_cells), len(open_cells[0])
    lines = [[(r, c) for c in range(cols)] for r in range(rows)] + [[(r, c) for r in range(rows)] for c in range(cols)]
    found = []
    for line in lines:
        run: list[tuple[int, int]] = []
        for cell in line + [None]:
            if cell is not None and open_cells[cell[0]][cell[1]]:
                run.append(cell)
                continue
            if len(run) > max_run:
                found.append(run)
            run = []
    return found


def random_pattern(
    rows: int, cols: int, rng: random.Random, max_run: int, symmetric: bool = False, rtl: bool = False
) -> Grid | None:
    """A random connected block pattern whose runs of open cells are at most ``max_run`` long.

    Blocks go into over-long runs at positions that leave no single-cell piece when possible;
    cells left in no slot become blocks. None when PATTERN_TRIES attempts all fail.
    """
    for _ in range(PATTERN_TRIES):
        open_cells = [[True] * cols for _ in range(rows)]
        while True:
            runs = _long_runs(open_cells, max_run)
            if not runs:
                break
            run = rng.choice(runs)
            good = [k for k in range(len(run)) if k != 1 and len(run) - 1 - k != 1]
            r, c = run[rng.choice(good or list(range(len(run))))]
            open_cells[r][c] = False
            if symmetric:
                open_cells[rows - 1 - r][cols - 1 - c] = False
        grid = Grid(tuple(tuple("" if v else None for v in row) for row in open_cells), rtl=rtl)
        in_slots = grid.slots_at
        lonely = [(r, c) for r in range(rows) for c in range(cols) if open_cells[r][c] and (r, c) not in in_slots]
        if lonely:
            for r, c in lonely:
                open_cells[r][c] = False
                if symmetric:
                    open_cells[rows - 1 - r][cols - 1 - c] = False
            grid = Grid(tuple(tuple("" if v else None for v in row) for row in open_cells), rtl=rtl)
        if grid.slots and grid.stats().connected and grid.stats().isolated_cells == 0:
            return grid
    return None
