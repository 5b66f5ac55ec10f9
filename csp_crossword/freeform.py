"""Freeform puzzles: lay out a word-and-clue list on a board, crossing words at equal glyphs.

Rules: every word after the first crosses a placed word at an equal glyph; letters touch only at
crossings (nothing directly before or after a word, no parallel neighbours); one connected piece
unless islands are allowed (then a word that crosses nothing may start a new piece).

Search (after Helmig's generator and the Google I/O crossword generator): the words are indexed by
glyph and position; a board starts from one of the longest words; the candidate placements of all
remaining words are scored by their crossings (then by how little they grow the board), and the
best is taken, ties broken at random; many randomised boards are built within the time budget and
the best kept (most words, then most crossings, then the smallest area). With ``symmetric``, every
placement is mirrored across the horizontal axis.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .grid import Grid
from .lexicon import Lexicon, entry_glyphs

ACROSS, DOWN = 0, 1

#: Seconds spent building boards when no time limit is given.
DEFAULT_SECONDS = 1.0
#: The first word is drawn from this many longest words.
SEED_CHOICES = 3


@dataclass
class Placement:
    word: str
    row: int
    col: int
    direction: int
    crossings: int = 0


@dataclass
class Board:
    """Cells (row, col) -> glyph, and the placements; coordinates may be negative until cropped."""

    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    owner: dict[tuple[int, int], int] = field(default_factory=dict)  # cell -> direction bitmask
    placements: list[Placement] = field(default_factory=list)

    def bounds(self) -> tuple[int, int, int, int]:
        rows = [r for r, _ in self.cells] or [0]
        cols = [c for _, c in self.cells] or [0]
        return min(rows), min(cols), max(rows), max(cols)

    def area(self) -> int:
        r0, c0, r1, c1 = self.bounds()
        return (r1 - r0 + 1) * (c1 - c0 + 1)

    def crossings(self) -> int:
        return sum(1 for mask in self.owner.values() if mask == 3)


@dataclass
class FreeformResult:
    grid: Grid
    cells: tuple[tuple[str | None, ...], ...]
    placed: list[str]
    failed: list[str]
    isolated: list[str]
    crossings: int
    boards: int
    seconds: float


class Freeform:
    """Builds freeform boards from a list of words (glyph tuples), within ``rows`` x ``cols``
    when given, else unbounded."""

    def __init__(self, words: list[str], *, rows: int | None = None, cols: int | None = None, allow_islands: bool = False, rtl: bool = False):
        self.words = [w for w in words if len(entry_glyphs(w)) >= 2]
        self.glyphs = {w: entry_glyphs(w) for w in self.words}
        self.rows, self.cols = rows, cols
        self.allow_islands = allow_islands
        self.rtl = rtl
        # (glyph) -> [(word, position)] : the Google I/O index by position and glyph
        self.by_glyph: dict[str, list[tuple[str, int]]] = {}
        for word in self.words:
            for i, g in enumerate(self.glyphs[word]):
                self.by_glyph.setdefault(g, []).append((word, i))

    # ------------------------------------------------------------------ placement rules

    def _cells(self, word: str, row: int, col: int, direction: int):
        dr, dc = (0, 1) if direction == ACROSS else (1, 0)
        return [(row + dr * k, col + dc * k) for k in range(len(self.glyphs[word]))]

    def _fits_bounds(self, board: Board, cells) -> bool:
        if self.rows is None:
            return True
        r0, c0, r1, c1 = board.bounds() if board.cells else (cells[0][0], cells[0][1], cells[0][0], cells[0][1])
        rows = [r for r, _ in cells] + [r0, r1]
        cols = [c for _, c in cells] + [c0, c1]
        return max(rows) - min(rows) < self.rows and max(cols) - min(cols) < self.cols

    def check(self, board: Board, word: str, row: int, col: int, direction: int) -> int | None:
        """Crossings of a placement, or None when it breaks a rule."""
        cells = self._cells(word, row, col, direction)
        dr, dc = (0, 1) if direction == ACROSS else (1, 0)
        before = (row - dr, col - dc)
        after = (cells[-1][0] + dr, cells[-1][1] + dc)
        if before in board.cells or after in board.cells:
            return None
        bit = 1 << direction
        crossings = 0
        for (r, c), glyph in zip(cells, self.glyphs[word]):
            have = board.cells.get((r, c))
            if have is not None:
                if have != glyph or board.owner[(r, c)] & bit:
                    return None
                crossings += 1
                continue
            side = [(r + dc, c + dr), (r - dc, c - dr)]  # the perpendicular neighbours
            if any(cell in board.cells for cell in side):
                return None
        if not self._fits_bounds(board, cells):
            return None
        return crossings

    def place(self, board: Board, word: str, row: int, col: int, direction: int, crossings: int) -> None:
        bit = 1 << direction
        for cell, glyph in zip(self._cells(word, row, col, direction), self.glyphs[word]):
            board.cells[cell] = glyph
            board.owner[cell] = board.owner.get(cell, 0) | bit
        board.placements.append(Placement(word, row, col, direction, crossings))

    def placements(self, board: Board, remaining: set[str]):
        """Every valid placement of a remaining word that crosses the board, found through the
        glyph index: (word, crossings, row, col, direction)."""
        found = []
        seen = set()
        for (r, c), glyph in board.cells.items():
            mask = board.owner[(r, c)]
            if mask == 3:
                continue
            direction = DOWN if mask == 1 << ACROSS else ACROSS
            for word, i in self.by_glyph.get(glyph, ()):
                if word not in remaining:
                    continue
                row, col = (r, c - i) if direction == ACROSS else (r - i, c)
                key = (word, row, col, direction)
                if key in seen:
                    continue
                seen.add(key)
                crossings = self.check(board, word, row, col, direction)
                if crossings:
                    found.append((word, crossings, row, col, direction))
        return found

    # ------------------------------------------------------------------ boards

    def build(self, rng: random.Random, order: list[str]) -> Board:
        board = Board()
        longest = sorted(order, key=lambda w: -len(self.glyphs[w]))[:SEED_CHOICES]
        first = rng.choice(longest)
        self.place(board, first, 0, 0, rng.choice((ACROSS, DOWN)) if self.rows is None else ACROSS, 0)
        remaining = [w for w in order if w != first]
        while remaining:
            best = None
            r0, c0, r1, c1 = board.bounds()
            for word, crossings, row, col, direction in self.placements(board, set(remaining)):
                end_r, end_c = self._cells(word, row, col, direction)[-1]
                grow = (max(r1, end_r) - min(r0, row) + 1) * (max(c1, end_c) - min(c0, col) + 1)
                key = (crossings, -grow, rng.random())
                if best is None or key > best[0]:
                    best = (key, word, row, col, direction, crossings)
            if best is None:
                if not self.allow_islands:
                    break
                island = self._island(board, remaining, rng)
                if island is None:
                    break
                remaining.remove(island)
                continue
            _, word, row, col, direction, crossings = best
            self.place(board, word, row, col, direction, crossings)
            remaining.remove(word)
        return board

    def _island(self, board: Board, remaining: list[str], rng: random.Random) -> str | None:
        r0, c0, r1, c1 = board.bounds()
        for word in sorted(remaining, key=lambda w: -len(self.glyphs[w])):
            for row in range(r0, r1 + 3):
                for col in range(c0 - 1, c1 + 2):
                    if self.check(board, word, row, col, ACROSS) == 0:  # 0 crossings: touches nothing
                        self.place(board, word, row, col, ACROSS, 0)
                        return word
        return None

    def run(self, time_limit: float | None = None, seed: int = 0) -> FreeformResult:
        start = time.monotonic()
        deadline = start + (time_limit if time_limit is not None else DEFAULT_SECONDS)
        rng = random.Random(seed)
        best, best_key, boards = None, None, 0
        while boards == 0 or time.monotonic() < deadline:
            order = self.words[:]
            rng.shuffle(order)
            board = self.build(rng, order)
            boards += 1
            key = (len(board.placements), board.crossings(), -board.area())
            if best_key is None or key > best_key:
                best, best_key = board, key
            if len(board.placements) == len(self.words) and time.monotonic() > start + 0.25 * (deadline - start):
                break
        return self._result(best, boards, time.monotonic() - start)

    def _result(self, board: Board, boards: int, seconds: float) -> FreeformResult:
        r0, c0, r1, c1 = board.bounds()
        height = self.rows if self.rows is not None else r1 - r0 + 1
        width = self.cols if self.cols is not None else c1 - c0 + 1
        cells = [[None] * width for _ in range(height)]
        for (r, c), glyph in board.cells.items():
            cells[r - r0][c - c0] = glyph
        grid = Grid(tuple(tuple("" if v is not None else None for v in row) for row in cells), rtl=self.rtl)
        placed = [p.word for p in board.placements]
        counts = {}
        for w in placed:
            counts[w] = counts.get(w, 0) + 1
        failed = []
        for w in self.words:
            if counts.get(w, 0):
                counts[w] -= 1
            else:
                failed.append(w)
        isolated = [p.word for p in board.placements if p.crossings == 0 and not self._crossed(board, p)]
        return FreeformResult(grid, tuple(tuple(row) for row in cells), placed, failed, isolated, board.crossings(), boards, seconds)

    def _crossed(self, board: Board, placement: Placement) -> bool:
        return any(board.owner[cell] == 3 for cell in self._cells(placement.word, placement.row, placement.col, placement.direction))


def freeform(lexicon: Lexicon, *, words: list[str] | None = None, rows=None, cols=None, allow_islands=False, time_limit=None, seed=0, rtl=False) -> FreeformResult:
    """Lay out ``words`` (default: every entry of ``lexicon``, repeated as often as listed)."""
    if words is None:
        words = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    return Freeform(words, rows=rows, cols=cols, allow_islands=allow_islands, rtl=rtl).run(time_limit, seed)
