"""Symmetric freeform boards: placements in pairs, 180-degree rotations of each other.

A symmetric board's letter cells turn into themselves about the centre of its bounds. The first
word is centred (its own image); every later placement comes with a partner at the turned cells:
a remaining word of the same length that fits the letters there. The rules of where a word may go
depend on the board's shape only, which is symmetric, so the partner's place is valid when the
placement's is, but for its letters (and, near the centre, the placement beside it). The
:class:`PairPlacement` methods are :class:`~.search.Freeform`'s.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ...core.grid import Direction
from .board import ACROSS, Board, BoardRules, Cell, Placement
from .candidates import SpanFrontier
from .frontier import CHECK_EVERY, Frontier, Ranked

#: Symmetric mode, large lists: best spans drawn per step when looking for a partner (each a
#: bitset draw; small lists try every frontier placement).
PARTNER_TRIES = 64
#: Symmetric mode: placements tried for a partner between two checks of the time.
PAIRS_PER_CHECK = 64
#: Symmetric mode: share of steps that try the placements in random order, not best first. A
#: partner must fit the letters at the rotated cells, so few placements have one, and boards
#: grown best first all end alike (24 animal names: 15 placed on every seed). On five lists of
#: 24 words (2 s, 5 seeds): best first 18.8 placed on average, 0.25 of steps at random 20.6,
#: 0.5 20.1, all 20.7; a half keeps some of the best-first boards' density.
SHUFFLE_SHARE = 0.5


class PairPlacement:
    """Placing words in symmetric pairs (a mixin of :class:`~.search.Freeform`)."""

    rules: BoardRules
    glyphs: dict[str, tuple[str, ...]]
    by_length: dict[int, list[str]]
    rows: int | None
    cols: int | None
    _out_of_time: Callable[[], bool]

    def _take_pair(
        self,
        board: Board,
        frontier: Frontier | SpanFrontier,
        ranked: list[Ranked],
        remaining: Counter[str],
        rng: random.Random,
    ) -> list[Cell] | None:
        """Place the best ranked placement that has a partner, with it (or alone when it is its
        own image); None when none has."""
        rules = self.rules
        pair = len(board.placements)
        bounds = board.bounds()  # symmetric between two steps: its centre is the rotation's
        if rng.random() < SHUFFLE_SHARE:
            ranked = list(ranked)
            rng.shuffle(ranked)
        # image span -> the words that fit its letters, kept for this step: far from the
        # placement, what fits there does not depend on the placement's word
        fitting: dict[tuple[Cell, Direction, int], list[str]] = {}
        for k, (*_, (word, row, col, direction)) in enumerate(ranked):
            if k % PAIRS_PER_CHECK == PAIRS_PER_CHECK - 1 and self._out_of_time():
                return None
            image = rules.image(bounds, word, row, col, direction)
            if image == (row, col):  # centred on the middle row (across) or column (down)
                remaining[word] -= 1
                return rules.place(board, Placement(word, row, col, direction, pair))
            n = len(self.glyphs[word])
            options: list[str] | None = None
            if isinstance(frontier, Frontier) and not self._near(row, col, image, direction, n):
                key = (image, direction, n)
                if key not in fitting:
                    fitting[key] = self._fitting(board, image, direction, n)
                options = [w for w in fitting[key] if remaining[w] > (w == word)]
                if not options:
                    continue
            cells = rules.place(board, Placement(word, row, col, direction, pair))
            remaining[word] -= 1
            partner = self._partner(board, frontier, image, direction, n, remaining, rng, options)
            if partner is not None:
                remaining[partner] -= 1
                return cells + rules.place(board, Placement(partner, *image, direction, pair))
            remaining[word] += 1
            rules.unplace_last(board)
        return None

    @staticmethod
    def _near(row: int, col: int, image: Cell, direction: Direction, length: int) -> bool:
        """Whether a placement and its image overlap or touch (near the board's centre)."""
        span_r, span_c = (0, length - 1) if direction is ACROSS else (length - 1, 0)
        return abs(row - image[0]) <= span_r + 1 and abs(col - image[1]) <= span_c + 1

    def _fitting(self, board: Board, start: Cell, direction: Direction, length: int) -> list[str]:
        """The listed words of ``length`` with the board's letters where they would go."""
        letters = board.cells
        found = []
        for word in self.by_length.get(length, ()):
            where = self.rules.cells(word, *start, direction)
            if all(letters.get(cell, g) == g for cell, g in zip(where, self.glyphs[word], strict=True)):
                found.append(word)
        return found

    def _partner(
        self,
        board: Board,
        frontier: Frontier | SpanFrontier,
        start: Cell,
        direction: Direction,
        length: int,
        remaining: Counter[str],
        rng: random.Random,
        options: list[str] | None = None,
    ) -> str | None:
        """A remaining word of ``length`` that may go at ``start``: drawn from the span index by
        the letters already there (large lists), else the first that passes of ``options`` (by
        default the length's words), shuffled."""
        check = self.rules.check
        if isinstance(frontier, SpanFrontier):
            if length not in frontier.index.indexes:
                return None
            row, col = start
            cells = [(row, col + k) if direction is ACROSS else (row + k, col) for k in range(length)]
            pattern = tuple((k, board.cells[cell]) for k, cell in enumerate(cells) if cell in board.cells)
            word = frontier.draw(length, pattern, remaining, rng)
            return word if word is not None and check(board, word, *start, direction) is not None else None
        words = [w for w in (self.by_length.get(length, ()) if options is None else options) if remaining[w]]
        rng.shuffle(words)
        for k, word in enumerate(words):
            if k % CHECK_EVERY == CHECK_EVERY - 1 and self._out_of_time():
                return None
            if check(board, word, *start, direction) is not None:
                return word
        return None

    def _centring(self, length: int) -> tuple[bool, bool]:
        """Whether a symmetric board's first word of ``length`` glyphs, centred, leaves a
        fixed-size board an equal margin on every side when it lies (across, down): across
        needs an odd number of rows and columns of the word's parity, down the other way round."""

        def even(side: int | None, used: int) -> bool:
            return side is None or (side - used) % 2 == 0

        return even(self.rows, 1) and even(self.cols, length), even(self.cols, 1) and even(self.rows, length)


__all__ = ["PAIRS_PER_CHECK", "PARTNER_TRIES", "SHUFFLE_SHARE", "PairPlacement"]
