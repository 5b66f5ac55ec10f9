"""Freeform puzzles: lay out a word-and-clue list on a board, crossing words at equal glyphs.

Rules: every word after the first crosses a placed word at an equal glyph; letters touch only at
crossings (nothing directly before or after a word, no parallel neighbours); one connected piece
unless islands are allowed (then a word that crosses nothing may start a new piece).

Search (after Helmig's generator, the Google I/O crossword generator and Mr. Crossworder):

1. *Greedy boards.* The words are indexed by glyph and position (Google I/O). A board starts
   from one of the longest words; the frontier is every valid placement of a remaining word that
   crosses the board, kept up to date as words are placed (only placements near the new word are
   re-checked). The best-scored placement is taken (most crossings, as Helmig scores them, then
   the least growth of the board, ties at random). Many randomised boards are built and the best
   kept: most words, then most crossings, then the smallest area.
2. *Improvement* (large neighbourhood search): a few words are taken off the best board (and any
   word left disconnected with them), the frontier is rebuilt and the board regrown greedily;
   the new board replaces the current one when it is at least as good, so the search walks
   plateaus and keeps the best board seen.

With ``symmetric``, the first word lies across the mirror axis and every later placement comes
with its mirror image across that horizontal axis (Google I/O): a different word of the same
length at the mirrored cells, or the same placement when it is its own mirror.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .grid import Grid
from .lexicon import Lexicon, entry_glyphs

ACROSS, DOWN = 0, 1

#: Seconds spent when no time limit is given.
DEFAULT_SECONDS = 1.0
#: The first word is drawn from this many longest words.
SEED_CHOICES = 3
#: Share of the time spent building independent greedy boards; the rest improves the best one.
GREEDY_SHARE = 0.3
#: At most this many words (or mirrored pairs) are taken off per improvement step.
DESTROY_MAX = 3
#: Symmetric mode: best frontier placements tried per step when looking for a mirrored partner.
PARTNER_TRIES = 16


@dataclass(frozen=True)
class Placement:
    word: str
    row: int
    col: int
    direction: int
    pair: int = -1  # symmetric mode: placements with the same pair id are mirror images


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

    def key(self) -> tuple[int, int, int]:
        """Better boards compare greater: most words, then most crossings, then smallest area."""
        return len(self.placements), self.crossings(), -self.area()


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
        symmetric: Whether the layout was made mirror-symmetric.
        interrupted: Whether Ctrl-C stopped the search (the board is the best found before).
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

    @property
    def letter_cells(self) -> int:
        return sum(1 for row in self.cells for v in row if v is not None)

    @property
    def fill(self) -> float:
        """Share of the board's cells that hold a letter."""
        return self.letter_cells / (self.grid.rows * self.grid.cols)


class Freeform:
    """Builds freeform boards from a list of words, within ``rows`` x ``cols`` when given, else
    unbounded. A word listed twice may be placed twice."""

    def __init__(
        self,
        words: list[str],
        *,
        rows: int | None = None,
        cols: int | None = None,
        allow_islands: bool = False,
        symmetric: bool = False,
        rtl: bool = False,
    ):
        self.listed = list(words)
        self.glyphs = {w: entry_glyphs(w) for w in set(self.listed)}
        self.rows, self.cols = rows, cols
        self.allow_islands = allow_islands
        self.symmetric = symmetric
        self.rtl = rtl
        longest = max(rows or 0, cols or 0) or None
        self.uses = Counter(w for w in self.listed if len(self.glyphs[w]) >= 2 and (longest is None or len(self.glyphs[w]) <= longest))
        # glyph -> [(word, position)]: the Google I/O index by glyph and position
        self.by_glyph: dict[str, list[tuple[str, int]]] = {}
        for word in self.uses:
            for i, g in enumerate(self.glyphs[word]):
                self.by_glyph.setdefault(g, []).append((word, i))
        self.by_length: dict[int, list[str]] = {}
        for word in self.uses:
            self.by_length.setdefault(len(self.glyphs[word]), []).append(word)

    # ------------------------------------------------------------------ placement rules

    def _cells(self, word: str, row: int, col: int, direction: int) -> list[tuple[int, int]]:
        if direction == ACROSS:
            return [(row, col + k) for k in range(len(self.glyphs[word]))]
        return [(row + k, col) for k in range(len(self.glyphs[word]))]

    def _fits(self, bounds, row: int, col: int, end_row: int, end_col: int) -> bool:
        """Whether the board with this placement still fits ``rows`` x ``cols``."""
        if self.rows is None:
            return True
        r0, c0, r1, c1 = bounds
        if self.symmetric:  # the mirror images keep the board symmetric about row 0
            height = 2 * max(-r0, r1, -row, end_row) + 1
        else:
            height = max(r1, end_row) - min(r0, row) + 1
        return height <= self.rows and max(c1, end_col) - min(c0, col) + 1 <= self.cols

    def check(self, board: Board, word: str, row: int, col: int, direction: int) -> int | None:
        """Crossings of a placement, or None when it breaks a rule (bounds are not checked)."""
        cells, owner = board.cells, board.owner
        glyphs = self.glyphs[word]
        n = len(glyphs)
        if direction == ACROSS:
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

    def _place(self, board: Board, placement: Placement) -> list[tuple[int, int]]:
        """Put a placement on the board; returns its cells."""
        bit = 1 << placement.direction
        cells = self._cells(placement.word, placement.row, placement.col, placement.direction)
        for cell, glyph in zip(cells, self.glyphs[placement.word]):
            board.cells[cell] = glyph
            board.owner[cell] = board.owner.get(cell, 0) | bit
        board.placements.append(placement)
        return cells

    def _unplace_last(self, board: Board) -> None:
        placement = board.placements.pop()
        bit = 1 << placement.direction
        for cell in self._cells(placement.word, placement.row, placement.col, placement.direction):
            mask = board.owner[cell] & ~bit
            if mask:
                board.owner[cell] = mask
            else:
                del board.owner[cell], board.cells[cell]

    def _mirror(self, word: str, row: int, col: int, direction: int) -> tuple[int, int]:
        """Start of the placement mirrored across row 0."""
        if direction == ACROSS:
            return -row, col
        return -(row + len(self.glyphs[word]) - 1), col

    # ------------------------------------------------------------------ the frontier

    def _add_frontier(self, board: Board, anchors, remaining: Counter, frontier: dict) -> None:
        """Add every valid crossing placement through the ``anchors`` cells to ``frontier``."""
        bounds = board.bounds()
        for r, c in anchors:
            mask = board.owner[(r, c)]
            if mask == 3:
                continue
            direction = DOWN if mask == 1 else ACROSS
            for word, i in self.by_glyph.get(board.cells[(r, c)], ()):
                if not remaining[word]:
                    continue
                key = (word, r, c - i, ACROSS) if direction == ACROSS else (word, r - i, c, DOWN)
                if key in frontier:
                    continue
                n = len(self.glyphs[word]) - 1
                end_row, end_col = (key[1], key[2] + n) if direction == ACROSS else (key[1] + n, key[2])
                if not self._fits(bounds, key[1], key[2], end_row, end_col):
                    continue  # the board only grows while this frontier lives: it never fits
                crossings = self.check(board, *key)
                if crossings:
                    frontier[key] = crossings

    def _update_frontier(self, board: Board, new_cells, remaining: Counter, frontier: dict) -> None:
        """Re-check the placements near the new cells, then add those through them."""
        nr0 = min(r for r, _ in new_cells) - 1
        nr1 = max(r for r, _ in new_cells) + 1
        nc0 = min(c for _, c in new_cells) - 1
        nc1 = max(c for _, c in new_cells) + 1
        for key in list(frontier):
            word, row, col, direction = key
            if not remaining[word]:
                del frontier[key]
                continue
            n = len(self.glyphs[word]) - 1
            end_row, end_col = (row, col + n) if direction == ACROSS else (row + n, col)
            if end_row < nr0 or row > nr1 or end_col < nc0 or col > nc1:
                continue
            crossings = self.check(board, *key)
            if crossings:
                frontier[key] = crossings
            else:
                del frontier[key]
        self._add_frontier(board, new_cells, remaining, frontier)

    def _ranked(self, board: Board, frontier: dict, remaining: Counter, rng: random.Random):
        """Frontier placements that fit, best first: most crossings, least growth, random."""
        bounds = board.bounds()
        r0, c0, r1, c1 = bounds
        scored = []
        for (word, row, col, direction), crossings in frontier.items():
            if not remaining[word]:
                continue
            n = len(self.glyphs[word]) - 1
            end_row, end_col = (row, col + n) if direction == ACROSS else (row + n, col)
            if not self._fits(bounds, row, col, end_row, end_col):
                continue
            if self.symmetric:
                height = 2 * max(-r0, r1, -row, end_row) + 1
            else:
                height = max(r1, end_row) - min(r0, row) + 1
            grow = height * (max(c1, end_col) - min(c0, col) + 1)
            scored.append((crossings, -grow, rng.random(), (word, row, col, direction)))
        scored.sort(reverse=True)
        return scored

    # ------------------------------------------------------------------ growing a board

    def _grow(self, board: Board, remaining: Counter, rng: random.Random) -> None:
        """Add words greedily until no remaining word has a valid placement."""
        frontier: dict = {}
        self._add_frontier(board, list(board.cells), remaining, frontier)
        while True:
            ranked = self._ranked(board, frontier, remaining, rng)
            new_cells = self._take(board, ranked, remaining, rng) if ranked else None
            if new_cells is None and self.allow_islands and not self.symmetric:
                new_cells = self._island(board, remaining)
            if new_cells is None:
                return
            self._update_frontier(board, new_cells, remaining, frontier)

    def _take(self, board: Board, ranked, remaining: Counter, rng: random.Random):
        """Place the best ranked placement (with its mirror image in symmetric mode)."""
        if not self.symmetric:
            word, row, col, direction = ranked[0][3]
            remaining[word] -= 1
            return self._place(board, Placement(word, row, col, direction))
        pair = len(board.placements)
        for *_, (word, row, col, direction) in ranked[:PARTNER_TRIES]:
            mirror = self._mirror(word, row, col, direction)
            if mirror == (row, col):  # across on the axis row, or down centred on it
                remaining[word] -= 1
                return self._place(board, Placement(word, row, col, direction, pair))
            cells = self._place(board, Placement(word, row, col, direction, pair))
            remaining[word] -= 1
            partner = self._partner(board, mirror, direction, len(cells), remaining, rng)
            if partner is not None:
                remaining[partner] -= 1
                return cells + self._place(board, Placement(partner, *mirror, direction, pair))
            remaining[word] += 1
            self._unplace_last(board)
        return None

    def _partner(self, board: Board, start, direction: int, length: int, remaining: Counter, rng: random.Random):
        words = [w for w in self.by_length.get(length, ()) if remaining[w]]
        rng.shuffle(words)
        for word in words:
            if self.check(board, word, *start, direction) is not None:
                return word
        return None

    def _island(self, board: Board, remaining: Counter):
        """Start a new piece with the longest remaining word that fits, touching nothing."""
        bounds = board.bounds()
        r0, c0, r1, c1 = bounds
        for word in sorted((w for w in remaining if remaining[w]), key=lambda w: -len(self.glyphs[w])):
            n = len(self.glyphs[word]) - 1
            for row in range(r0, r1 + 3):
                for col in range(c0 - n, c1 + 2):
                    if not self._fits(bounds, row, col, row, col + n):
                        continue
                    if self.check(board, word, row, col, ACROSS) == 0:  # touches nothing
                        remaining[word] -= 1
                        return self._place(board, Placement(word, row, col, ACROSS))
        return None

    def _seeded(self, rng: random.Random) -> tuple[Board, Counter]:
        remaining = Counter(self.uses)
        words = [w for w in remaining if not self.symmetric or self.cols is None or len(self.glyphs[w]) <= self.cols]
        longest = sorted(words or list(remaining), key=lambda w: (-len(self.glyphs[w]), w))[:SEED_CHOICES]
        first = rng.choice(longest)
        board = Board()
        vertical = not self.symmetric and rng.random() < 0.5
        if vertical and self.rows is not None and len(self.glyphs[first]) > self.rows:
            vertical = False
        if not vertical and self.cols is not None and len(self.glyphs[first]) > self.cols:
            vertical = True
        self._place(board, Placement(first, 0, 0, DOWN if vertical else ACROSS, 0))
        remaining[first] -= 1
        return board, remaining

    # ------------------------------------------------------------------ improvement

    def _rebuilt(self, placements: list[Placement]) -> tuple[Board, Counter]:
        """A board of the placements that still obey the rules once others are gone.

        Taking a word off can break the rules: when every cell of an across word was a crossing,
        the down words' letters stay side by side and read as a non-word. So the placements are
        put back one by one, in their order, each only if it passes ``check`` (crossing a word
        already back, unless islands are allowed; a mirrored pair both or neither), with more
        passes while any comes back. Every board thus grows by valid steps only.
        """
        board = Board()
        remaining = Counter(self.uses)
        groups: list[list[Placement]] = []
        for placement in placements:
            if self.symmetric and groups and groups[-1][0].pair == placement.pair:
                groups[-1].append(placement)
            else:
                groups.append([placement])
        progress = True
        while groups and progress:
            progress, waiting = False, []
            for group in groups:
                if self._put_back(board, group):
                    progress = True
                    for placement in group:
                        remaining[placement.word] -= 1
                else:
                    waiting.append(group)
            groups = waiting
        return board, remaining

    def _put_back(self, board: Board, group: list[Placement]) -> bool:
        for done, placement in enumerate(group):
            crossings = self.check(board, placement.word, placement.row, placement.col, placement.direction)
            if crossings is None or not (crossings or not board.cells or self.allow_islands):
                for _ in range(done):
                    self._unplace_last(board)
                return False
            self._place(board, placement)
        return True

    def _connected_part(self, placements: list[Placement]) -> list[Placement]:
        """The placements of the largest connected piece (the seed's piece in symmetric mode)."""
        where: dict[tuple[int, int], list[int]] = {}
        for i, p in enumerate(placements):
            for cell in self._cells(p.word, p.row, p.col, p.direction):
                where.setdefault(cell, []).append(i)
        seen: set[int] = set()
        best: list[int] = []
        starts = [0] if self.symmetric else range(len(placements))
        for start in starts:
            if start in seen:
                continue
            piece, stack = [], [start]
            seen.add(start)
            while stack:
                i = stack.pop()
                piece.append(i)
                p = placements[i]
                for cell in self._cells(p.word, p.row, p.col, p.direction):
                    for j in where[cell]:
                        if j not in seen:
                            seen.add(j)
                            stack.append(j)
            if len(piece) > len(best):
                best = piece
        return [placements[i] for i in sorted(best)]

    def _neighbour(self, board: Board, rng: random.Random) -> Board:
        """Take a few words off (keeping one connected piece) and regrow greedily."""
        placements = board.placements
        if self.symmetric:
            pairs = sorted({p.pair for p in placements} - {placements[0].pair})
            if not pairs:
                return board
            victims = set(rng.sample(pairs, min(len(pairs), rng.randint(1, DESTROY_MAX))))
            kept = [p for p in placements if p.pair not in victims]
        else:
            if len(placements) < 2:
                return board
            victims = set(rng.sample(range(len(placements)), min(len(placements) - 1, rng.randint(1, DESTROY_MAX))))
            kept = [p for i, p in enumerate(placements) if i not in victims]
        if not self.allow_islands:
            kept = self._connected_part(kept)
        new, remaining = self._rebuilt(kept)
        self._grow(new, remaining, rng)
        return new

    # ------------------------------------------------------------------ the search

    def run(self, time_limit: float | None = None, seed: int = 0) -> FreeformResult:
        """Build boards for ``time_limit`` seconds (default DEFAULT_SECONDS) and return the best."""
        start = time.monotonic()
        budget = time_limit if time_limit is not None else DEFAULT_SECONDS
        deadline = start + budget
        rng = random.Random(seed)
        total = sum(self.uses.values())
        if not total:
            return self._result(Board(), 0, time.monotonic() - start)
        best, boards, interrupted = None, 0, False
        greedy_until = start + GREEDY_SHARE * budget
        try:
            while boards == 0 or time.monotonic() < greedy_until:
                board, remaining = self._seeded(rng)
                self._grow(board, remaining, rng)
                boards += 1
                if best is None or board.key() > best.key():
                    best = board
            current = best
            while time.monotonic() < deadline:  # all placed: still more crossings, a smaller board
                candidate = self._neighbour(current, rng)
                boards += 1
                if candidate.key() >= current.key():
                    current = candidate
                    if current.key() > best.key():
                        best = current
        except KeyboardInterrupt:  # Ctrl-C: the best board so far (boards are never changed once kept)
            interrupted = True
        return self._result(best or Board(), boards, time.monotonic() - start, interrupted)

    def _result(self, board: Board, boards: int, seconds: float, interrupted: bool = False) -> FreeformResult:
        r0, c0, r1, c1 = board.bounds()
        height = self.rows if self.rows is not None else r1 - r0 + 1
        width = self.cols if self.cols is not None else c1 - c0 + 1
        top = (height - (r1 - r0 + 1)) // 2 - r0
        left = (width - (c1 - c0 + 1)) // 2 - c0
        cells: list[list[str | None]] = [[None] * width for _ in range(height)]
        for (r, c), glyph in board.cells.items():
            col = c + left
            cells[r + top][width - 1 - col if self.rtl else col] = glyph
        grid = Grid(tuple(tuple("" if v is not None else None for v in row) for row in cells), rtl=self.rtl)
        placed = [p.word for p in board.placements]
        unplaced = Counter(self.listed) - Counter(placed)
        failed = []
        for word in self.listed:
            if unplaced[word]:
                unplaced[word] -= 1
                failed.append(word)
        isolated = [
            p.word
            for p in board.placements
            if all(board.owner[cell] != 3 for cell in self._cells(p.word, p.row, p.col, p.direction))
            and len(board.placements) > 1
        ]
        return FreeformResult(
            grid, tuple(tuple(row) for row in cells), placed, failed, isolated, board.crossings(), boards, seconds,
            self.symmetric, interrupted,
        )


def freeform(
    lexicon: Lexicon,
    *,
    words: list[str] | None = None,
    rows: int | None = None,
    cols: int | None = None,
    allow_islands: bool = False,
    symmetric: bool = False,
    time_limit: float | None = None,
    seed: int = 0,
    rtl: bool = False,
) -> FreeformResult:
    """Lay out ``words`` (default: every entry of ``lexicon``, repeated as often as listed).

    >>> lexicon = Lexicon.from_words(["CROSS", "WORD", "SOW"])
    >>> result = freeform(lexicon, time_limit=0.1)
    >>> sorted(result.placed), result.failed
    (['CROSS', 'SOW', 'WORD'], [])
    """
    if words is None:
        words = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    engine = Freeform(words, rows=rows, cols=cols, allow_islands=allow_islands, symmetric=symmetric, rtl=rtl)
    return engine.run(time_limit, seed)
