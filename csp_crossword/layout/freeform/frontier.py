"""The frontier of a freeform board: every valid placement of a remaining word that crosses it.

Found through an index glyph -> (word, position) (the Google I/O generator's index) and kept up
to date as words are placed: only placements within one cell of a new word are re-checked.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

from ...core.grid import Direction
from .board import ACROSS, CROSSING, DOWN, Board, BoardRules, Cell

#: A frontier placement: (word, row, column, direction).
Key = tuple[str, int, int, Direction]
#: A ranked placement: (crossings, -growth, random tie-break, key).
Ranked = tuple[int, int, float, Key]
#: Candidates examined between two checks of the time (each costs at most a word's length,
#: MAX_FREEFORM_WORD_GLYPHS cell look-ups: a few milliseconds for the lot).
CHECK_EVERY = 1024


class Frontier:
    """Valid crossing placements of the remaining words, with their crossing counts."""

    def __init__(
        self,
        rules: BoardRules,
        by_glyph: dict[str, list[tuple[str, int]]],
        out_of_time: Callable[[], bool] | None = None,
    ):
        self.rules = rules
        self.by_glyph = by_glyph
        self.placements: dict[Key, int] = {}
        # Asked every CHECK_EVERY candidates: with tens of thousands of words one pass over the
        # anchors' candidates can outlast the time limit. Once it says yes the frontier may be
        # incomplete or stale, and the board must not grow from it.
        self.out_of_time = out_of_time
        self._work = 0

    def _late(self) -> bool:
        """Count one candidate; every CHECK_EVERY, whether the time is up."""
        self._work += 1
        return self._work % CHECK_EVERY == 0 and self.out_of_time is not None and self.out_of_time()

    def add(self, board: Board, anchors: Iterable[Cell], remaining: Counter[str]) -> None:
        """Add every valid crossing placement through the ``anchors`` cells."""
        rules, frontier = self.rules, self.placements
        bounds = board.bounds()
        for r, c in anchors:
            mask = board.owner[(r, c)]
            if mask == CROSSING:
                continue
            direction = DOWN if mask == 1 else ACROSS
            for word, i in self.by_glyph.get(board.cells[(r, c)], ()):
                if self._late():
                    return
                if not remaining[word]:
                    continue
                key = (word, r, c - i, ACROSS) if direction is ACROSS else (word, r - i, c, DOWN)
                if key in frontier:
                    continue
                end_row, end_col = rules.end(*key)
                if not rules.fits(bounds, key[1], key[2], end_row, end_col):
                    continue  # the board only grows while this frontier lives: it never fits
                crossings = rules.check(board, *key)
                if crossings:
                    frontier[key] = crossings

    def update(self, board: Board, new_cells: list[Cell], remaining: Counter[str]) -> None:
        """Re-check the placements near the new cells, then add those through them."""
        rules, frontier = self.rules, self.placements
        nr0 = min(r for r, _ in new_cells) - 1
        nr1 = max(r for r, _ in new_cells) + 1
        nc0 = min(c for _, c in new_cells) - 1
        nc1 = max(c for _, c in new_cells) + 1
        for key in list(frontier):
            if self._late():
                return
            word, row, col, _direction = key
            if not remaining[word]:
                del frontier[key]
                continue
            end_row, end_col = rules.end(*key)
            if end_row < nr0 or row > nr1 or end_col < nc0 or col > nc1:
                continue
            crossings = rules.check(board, *key)
            if crossings:
                frontier[key] = crossings
            else:
                del frontier[key]
        self.add(board, new_cells, remaining)

    def ranked(self, board: Board, remaining: Counter[str], rng: random.Random) -> list[Ranked]:
        """Placements that fit, best first: most crossings, least growth, then random."""
        rules = self.rules
        bounds = board.bounds()
        scored: list[Ranked] = []
        for key, crossings in self.placements.items():
            if self._late():
                return []  # the board stops growing
            word, row, col, _direction = key
            if not remaining[word]:
                continue
            end_row, end_col = rules.end(*key)
            if not rules.fits(bounds, row, col, end_row, end_col):
                continue
            grow = rules.area(bounds, row, col, end_row, end_col)
            scored.append((crossings, -grow, rng.random(), key))
        scored.sort(reverse=True)
        return scored


__all__ = ["Frontier", "Key", "Ranked"]
