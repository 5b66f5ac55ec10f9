"""American-style block patterns: the grids a newspaper prints.

The rules (those of the New York Times and most American outlets): the blocks are 180-degree
symmetric (or mirrored left to right), the open cells form one piece, every open cell is in an
across and a down entry (all cells checked), every entry has at least :data:`MIN_ENTRY` letters,
no solid 3x3 square of blocks, and at most a given number of entries (78 on a 15x15).

A pattern is drawn one symmetric block pair at a time. Every legal pair (one that keeps each run
of open cells 0 or at least MIN_ENTRY long, leaves no 3x3 of blocks and keeps the piece
connected) in a random sample of the open cells (:data:`MOVE_SAMPLE`) is weighed: pairs inside a
run longer than the longest entry allowed weigh more, and a pair that adds more or fewer entries
than its share of those still wanted costs a factor :data:`WORD_COST` per entry (a block at the
end of a run adds none, one inside a run adds one), so the word count ends near what newspapers
print. Drawing stops at the target number of blocks once no run is too long; an attempt that ends
with too many entries, or that has no legal pair left, is drawn again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..core.deadline import Deadline, StopSignal, expired

Cell = tuple[int, int]

#: Symmetries of the block pattern: ``rotational`` (180 degrees, the American rule) and
#: ``mirror`` (left to right).
SYMMETRIES = ("rotational", "mirror")
#: Shortest entry.
MIN_ENTRY = 3
#: Blocks per cell when no count is given: the 16 American 15x15 patterns of grids/american and
#: grids/american15 have 28-46 blocks, median 38 (17%); 16% (36 blocks) leaves room for the
#: longer entries a constructor likes.
BLOCK_SHARE = 0.16
#: Smallest side that takes blocks by default: on a 3x3 or 4x4 any block leaves a 1- or 2-letter
#: run; a 5x5 takes the 4 corner blocks of a newspaper mini.
SMALLEST_WITH_BLOCKS = 5
#: Entries per cell allowed when no count is given: the New York Times' 78 entries on a 15x15,
#: and its 140 on a 21x21 Sunday for grids larger than 15x15.
WORDS_PER_CELL = 78 / 225
WORDS_PER_CELL_LARGE = 140 / 441
#: Entries a pattern aims at, below its maximum: newspaper 15x15s have 72-78 (grids/american*).
WORD_SLACK = 3
#: Weight factor per entry a block pair adds above or below its share of the entries still to
#: add (the target's distance from the word count, over the pairs still to place).
WORD_COST = 1.0
#: Weight factor of a pair that breaks a run longer than the longest entry allowed.
LONG_RUN_BONUS = 25.0
#: Block pairs weighed per step (a random sample of the open cells): enough to find the
#: pairs a 15x15 needs, few enough that a 50x50 draws in well under a second per attempt.
MOVE_SAMPLE = 60
#: Largest side of an American-style grid (jumbo puzzles are 23x23 to 27x27; a larger board is
#: the open style's).
MAX_SIDE = 31
#: Longest entry when none is given (and the grid is wider): American grids seldom have longer
#: entries, and few word lists do.
MAX_ENTRY = 15
#: Attempts at drawing one pattern before giving up.
PATTERN_TRIES = 60


class LayoutRuleError(ValueError):
    """The asked-for pattern cannot exist: a size, block count, word count or theme entry that
    the rules rule out."""


@dataclass(frozen=True)
class PatternRules:
    """What an American-style pattern must satisfy (see the module docstring)."""

    rows: int
    cols: int
    blocks: int
    max_words: int
    max_run: int
    symmetry: str = "rotational"

    @classmethod
    def for_size(
        cls,
        rows: int,
        cols: int,
        *,
        blocks: int | None = None,
        max_words: int | None = None,
        max_run: int | None = None,
        symmetry: str = "rotational",
    ) -> PatternRules:
        """Rules with the newspaper defaults for what is not given; LayoutRuleError when impossible."""
        if rows < MIN_ENTRY or cols < MIN_ENTRY:
            raise LayoutRuleError(f"an American-style grid is at least {MIN_ENTRY}x{MIN_ENTRY}")
        if max(rows, cols) > MAX_SIDE:
            raise LayoutRuleError(
                f"an American-style grid is at most {MAX_SIDE}x{MAX_SIDE}; use the open style for larger boards"
            )
        if symmetry not in SYMMETRIES:
            raise LayoutRuleError(f"symmetry must be one of {', '.join(SYMMETRIES)}")
        cells = rows * cols
        if blocks is None:
            blocks = round(BLOCK_SHARE * cells) if min(rows, cols) >= SMALLEST_WITH_BLOCKS else 0
        if not 0 <= blocks <= cells // 3:
            raise LayoutRuleError(f"blocks must be between 0 and {cells // 3} (a third of the cells)")
        if max_words is None:
            share = WORDS_PER_CELL if cells <= 225 else WORDS_PER_CELL_LARGE
            max_words = max(rows + cols, round(share * cells))
        if max_words < rows + cols:
            raise LayoutRuleError(f"a {rows}x{cols} grid with all cells checked has at least {rows + cols} entries")
        max_words = min(max_words, cells)  # no grid has more entries than cells: a larger bound is none
        longest = max(rows, cols)
        max_run = min(longest, MAX_ENTRY) if max_run is None else max_run
        if max_run < MIN_ENTRY:
            raise LayoutRuleError(f"the longest entry must be at least {MIN_ENTRY}")
        return cls(rows, cols, blocks, max_words, min(max_run, longest), symmetry)


class Pattern:
    """Open cells being drawn, with the cells that must stay open (theme entries)."""

    def __init__(self, rules: PatternRules, keep_open: Iterable[Cell] = (), blocks: Iterable[Cell] = ()):
        self.rules = rules
        self.open = [[True] * rules.cols for _ in range(rules.rows)]
        self.keep_open = set(keep_open)
        #: Blocks that stay (the ends of theme entries), with their symmetric partners.
        self.fixed: set[Cell] = set()
        for r, c in blocks:
            self.set_block(r, c)
            self.fixed |= {(r, c), self.partner(r, c)}
        #: False when the fixed blocks leave a run of 1-2 cells that must stay open.
        self.feasible = self._settle_short_runs()

    def _settle_short_runs(self) -> bool:
        """Turn every run of fewer than MIN_ENTRY open cells into blocks (the fixed blocks of theme
        entries leave such runs); False when such a run must stay open."""
        changed = True
        while changed:
            changed = False
            for run in self._open_runs():
                if len(run) < MIN_ENTRY:
                    if any(cell in self.keep_open for cell in run):
                        return False
                    for r, c in run:
                        self.set_block(r, c)
                    changed = True
        return True

    def _open_runs(self) -> Iterator[list[Cell]]:
        """Every run of open cells, across then down, as its cells (read as the walk goes, so a
        caller may block a run it was given)."""
        for line in self._line_cells():
            run: list[Cell] = []
            for cell in [*line, None]:
                if cell is not None and self.open[cell[0]][cell[1]]:
                    run.append(cell)
                    continue
                if run:
                    yield run
                run = []

    def _line_cells(self) -> list[list[Cell]]:
        rows, cols = self.rules.rows, self.rules.cols
        return [[(r, c) for c in range(cols)] for r in range(rows)] + [
            [(r, c) for r in range(rows)] for c in range(cols)
        ]

    # ------------------------------------------------------------------ geometry

    def partner(self, r: int, c: int) -> Cell:
        if self.rules.symmetry == "mirror":
            return r, self.rules.cols - 1 - c
        return self.rules.rows - 1 - r, self.rules.cols - 1 - c

    def set_block(self, r: int, c: int) -> None:
        for cell in {(r, c), self.partner(r, c)}:
            self.open[cell[0]][cell[1]] = False

    def clear_block(self, r: int, c: int) -> None:
        for cell in {(r, c), self.partner(r, c)}:
            self.open[cell[0]][cell[1]] = True

    def block_count(self) -> int:
        return sum(not v for row in self.open for v in row)

    def runs(self, line: list[bool]) -> list[int]:
        """Lengths of the runs of open cells in a row or column."""
        found, run = [], 0
        for is_open in line:
            if is_open:
                run += 1
            elif run:
                found.append(run)
                run = 0
        if run:
            found.append(run)
        return found

    def row(self, r: int) -> list[bool]:
        return self.open[r]

    def column(self, c: int) -> list[bool]:
        return [row[c] for row in self.open]

    def lines(self) -> Iterable[list[bool]]:
        yield from self.open
        for c in range(self.rules.cols):
            yield self.column(c)

    def word_count(self) -> int:
        return sum(len(self.runs(line)) for line in self.lines())

    def longest_run(self) -> int:
        return max((max(self.runs(line), default=0) for line in self.lines()), default=0)

    # ------------------------------------------------------------------ rules

    def _lines_through(self, cells: set[Cell]) -> list[list[bool]]:
        return [self.row(r) for r in {r for r, _ in cells}] + [self.column(c) for c in {c for _, c in cells}]

    def _short_run(self, cells: set[Cell]) -> bool:
        return any(0 < n < MIN_ENTRY for line in self._lines_through(cells) for n in self.runs(line))

    def _solid_square(self, cells: set[Cell]) -> bool:
        """Whether a 3x3 square of blocks contains one of ``cells``."""
        rows, cols = self.rules.rows, self.rules.cols
        for r, c in cells:
            for top in range(max(0, r - 2), min(r, rows - 3) + 1):
                for left in range(max(0, c - 2), min(c, cols - 3) + 1):
                    if not any(self.open[top + i][left + j] for i in range(3) for j in range(3)):
                        return True
        return False

    def connected(self) -> bool:
        cells = [(r, c) for r, row in enumerate(self.open) for c, v in enumerate(row) if v]
        if not cells:
            return False
        seen, stack = {cells[0]}, [cells[0]]
        rows, cols = self.rules.rows, self.rules.cols
        while stack:
            r, c = stack.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nr < rows and 0 <= nc < cols and self.open[nr][nc] and (nr, nc) not in seen:
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        return len(seen) == len(cells)

    def valid(self) -> bool:
        """Every rule but the word count and the longest entry (those are the drawing's goals)."""
        every = {(r, c) for r in range(self.rules.rows) for c in range(self.rules.cols)}
        return not self._short_run(every) and not self._solid_square(every) and self.connected()

    def try_block(self, r: int, c: int) -> bool:
        """Place the pair at (r, c) when it keeps the rules (connectivity included); else leave
        the pattern as it was."""
        cells = {(r, c), self.partner(r, c)}
        if any(not self.open[i][j] or (i, j) in self.keep_open for i, j in cells):
            return False
        self.set_block(r, c)
        if self._short_run(cells) or self._solid_square(cells) or not self.connected():
            self.clear_block(r, c)
            return False
        return True

    # ------------------------------------------------------------------ drawing

    def _weights(self, rng: random.Random) -> list[tuple[Cell, float]]:
        """Up to MOVE_SAMPLE random pairs that keep the local rules (runs, squares), with their
        weights."""
        max_run = self.rules.max_run
        pairs_left = max(1.0, (self.rules.blocks - self.block_count()) / 2)
        wanted = max(0.0, (self.rules.max_words - WORD_SLACK - self.word_count()) / pairs_left)
        free = [
            (r, c)
            for r in range(self.rules.rows)
            for c in range(self.rules.cols)
            if self.open[r][c]
            and (r, c) <= self.partner(r, c)
            and (r, c) not in self.keep_open
            and self.partner(r, c) not in self.keep_open
        ]
        if self.block_count() >= self.rules.blocks:  # only over-long runs are left to break
            long_cells = self._cells_in_long_runs()
            free = [cell for cell in free if cell in long_cells or self.partner(*cell) in long_cells]
        moves = []
        for r, c in rng.sample(free, min(MOVE_SAMPLE, len(free))):
            cells = {(r, c), self.partner(r, c)}
            lines = self._lines_through(cells)
            runs_before = [self.runs(line) for line in lines]
            too_long = any(n > max_run for runs in runs_before for n in runs)
            self.set_block(r, c)
            if not self._short_run(cells) and not self._solid_square(cells):
                added = sum(len(self.runs(line)) for line in self._lines_through(cells)) - sum(map(len, runs_before))
                weight = math.exp(-WORD_COST * abs(added - wanted)) * (LONG_RUN_BONUS if too_long else 1.0)
                moves.append(((r, c), weight))
            self.clear_block(r, c)
        return moves

    def _cells_in_long_runs(self) -> set[Cell]:
        return {cell for run in self._open_runs() if len(run) > self.rules.max_run for cell in run}

    def done(self) -> bool:
        return self.block_count() >= self.rules.blocks and self.longest_run() <= self.rules.max_run

    def draw(self, rng: random.Random, deadline: Deadline = None, stop: StopSignal | None = None) -> bool:
        """Add block pairs until :meth:`done`; False when no legal pair is left first."""
        if not self.feasible:
            return False
        while not self.done():
            if expired(deadline, stop):
                return False
            moves = self._weights(rng)
            while moves:
                cells, weights = zip(*moves, strict=True)
                k = rng.choices(range(len(moves)), weights=weights)[0]
                if self.try_block(*cells[k]):
                    break
                moves.pop(k)  # it would cut the grid in two
            else:
                return False
        return True


def draw_pattern(
    rules: PatternRules,
    rng: random.Random,
    *,
    keep_open: Iterable[Cell] = (),
    blocks: Iterable[Cell] = (),
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> Pattern | None:
    """A pattern that keeps every rule, with ``blocks`` placed and ``keep_open`` left open (theme
    entries); None when PATTERN_TRIES attempts fail or the time is up first."""
    keep, fixed = list(keep_open), list(blocks)
    for _ in range(PATTERN_TRIES):
        if expired(deadline, stop):
            return None
        pattern = Pattern(rules, keep, fixed)
        if pattern.draw(rng, deadline, stop) and pattern.word_count() <= rules.max_words and pattern.valid():
            return pattern
    return None
