"""``generate``: choose the blocks and fill the grid, given only a size and a word list.

Two methods, tried in this order by :func:`generate`:

* ``csp``: draw block patterns with :func:`random_pattern` (every run of open cells at most
  ``max_run`` long and at least 2, connected, optionally 180-degree symmetric) and fill each with
  the ``ac`` backend until one fills (the arc-consistency check rejects most unfillable patterns
  before any search);
* ``progressive``: the progressive search of ``backends/progressive.py`` for the time left.

The result says which method produced it; every fill is checked by ``verify_fill``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .backends.ac import ACBackend
from .backends.progressive import ProgressiveSearch
from .grid import Grid, Slot
from .lexicon import Lexicon
from .problem import FillOptions, build_problem
from .result import Entry, FillResult, SearchStats, Status
from .verify import verify_fill

#: Share of the time limit given to the CSP path before progressive search takes over.
CSP_SHARE = 0.6
#: Seconds of ``ac`` search per candidate pattern.
PATTERN_SECONDS = 1.0
#: Longest run of open cells when none is given: longer runs make most random patterns
#: unfillable (8x8 to 12x12 with the built-in list found no fillable pattern in 12 s at full
#: width, and one at the first try with 6 or 7).
DEFAULT_MAX_RUN = 6
#: Attempts at drawing one valid pattern.
PATTERN_TRIES = 200


@dataclass
class Generated:
    """A generated crossword: the layout, the fill result, and how it was made."""

    grid: Grid
    result: FillResult
    method: str
    patterns_tried: int = 0
    unknown: list[str] = field(default_factory=list)
    scrambled: list[str] = field(default_factory=list)


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


def random_pattern(rows: int, cols: int, rng: random.Random, max_run: int, symmetric: bool = False, rtl: bool = False) -> Grid | None:
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


def _csp_path(rows, cols, lexicon, options, rng, max_run, symmetric, deadline, rtl, seed):
    tried = 0
    while time.monotonic() < deadline:
        grid = random_pattern(rows, cols, rng, max_run, symmetric, rtl=rtl)
        if grid is None:
            return None, tried
        tried += 1
        problem = build_problem(grid, lexicon, options)
        if problem.unsatisfiable:
            continue
        budget = min(PATTERN_SECONDS, max(0.01, deadline - time.monotonic()))
        result = ACBackend(seed=seed + tried).solve(problem, time_limit=budget)
        if result.status.has_fill:
            return (grid, result), tried
    return None, tried


def _layout_result(search: ProgressiveSearch, layout, lexicon: Lexicon, steps: int, seconds: float, rtl: bool):
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in layout.cells), rtl=rtl)
    cells = tuple(tuple(row) for row in layout.cells)
    entries = []
    for slot in grid.slots:
        answer = "".join(cells[r][c] for r, c in slot.cells)
        if answer in lexicon:
            entries.append(_entry(slot, answer, lexicon))
    status = Status.FILLED if layout.cost == 0 else Status.TIMEOUT
    return grid, FillResult(status, "progressive", cells, entries, SearchStats(nodes=steps, seconds=seconds))


def _entry(slot: Slot, answer: str, lexicon: Lexicon) -> Entry:
    r, c = slot.start
    return Entry(slot.id, slot.number, slot.direction, r, c, slot.length, answer, lexicon.scores[answer], lexicon.clue(answer))


def generate(
    rows: int,
    cols: int,
    lexicon: Lexicon,
    *,
    max_run: int | None = None,
    symmetric: bool = False,
    time_limit: float = 10.0,
    seed: int = 0,
    method: str = "auto",
    rtl: bool = False,
    allow_duplicates: bool = False,
) -> Generated:
    """Generate a filled crossword of the given size (see the module docstring)."""
    if method not in ("auto", "csp", "progressive"):
        raise ValueError("method must be auto, csp or progressive")
    start = time.monotonic()
    longest = max((n for n in lexicon.by_length if n >= 2), default=0)
    max_run = min(max_run or DEFAULT_MAX_RUN, longest, max(rows, cols))
    rng = random.Random(seed)
    options = FillOptions(allow_duplicates=allow_duplicates)
    tried = 0
    if method in ("auto", "csp"):
        share = 1.0 if method == "csp" else CSP_SHARE
        found, tried = _csp_path(rows, cols, lexicon, options, rng, max_run, symmetric, start + share * time_limit, rtl, seed)
        if found is not None:
            grid, result = found
            result.stats.seconds = time.monotonic() - start
            return Generated(grid, result, "csp", tried)
        if method == "csp":
            return Generated(Grid(((None,) * cols,) * rows, rtl=rtl), FillResult(Status.TIMEOUT, "ac"), "csp", tried)
    search = ProgressiveSearch(rows, cols, lexicon, max_run=max_run, rtl=rtl, allow_duplicates=allow_duplicates, seed=seed)
    left = max(0.05, time_limit - (time.monotonic() - start))
    layout, steps = search.run(time_limit=left)
    grid, result = _layout_result(search, layout, lexicon, steps, time.monotonic() - start, rtl)
    if result.status == Status.FILLED and verify_fill(grid, result.cells, lexicon, allow_duplicates=allow_duplicates):
        result.status = Status.TIMEOUT  # the verifier has the last word
    return Generated(grid, result, "progressive", tried, layout.unknown, layout.scrambled)
