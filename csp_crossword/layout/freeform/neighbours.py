"""The improvement moves of the freeform search (``search.py``, step 2): take a few words off a
board, keep one connected piece, put the rest back by valid steps, and regrow it greedily. The
:class:`NeighbourMoves` methods are :class:`~.search.Freeform`'s."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from .board import Board, BoardRules, Cell, Placement

#: At most this many words (or symmetric pairs) are taken off per improvement step.
DESTROY_MAX = 3


class NeighbourMoves:
    """A board's neighbours in the improvement (a mixin of :class:`~.search.Freeform`)."""

    rules: BoardRules
    uses: Counter[str]
    symmetric: bool
    allow_islands: bool
    _out_of_time: Callable[[], bool]
    _grow: Callable[[Board, Counter[str], random.Random], bool]

    def _rebuilt(self, placements: list[Placement]) -> tuple[Board, Counter[str]]:
        """A board of the placements that still obey the rules once others are gone.

        Taking a word off can break the rules: when every cell of an across word was a crossing,
        the down words' letters stay side by side and read as a non-word. So the placements are
        put back one by one, in their order, each only if it passes ``check`` (crossing a word
        already back, unless islands are allowed; a symmetric pair both or neither), with more
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
        while groups and progress and not self._out_of_time():  # late: a smaller (valid) board
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
        rules = self.rules
        for done, placement in enumerate(group):
            crossings = rules.check(board, placement.word, placement.row, placement.col, placement.direction)
            if crossings is None or not (crossings or not board.cells or self.allow_islands):
                for _ in range(done):
                    rules.unplace_last(board)
                return False
            rules.place(board, placement)
        return True

    def _connected_part(self, placements: list[Placement]) -> list[Placement]:
        """The placements of the largest connected piece (the seed's piece in symmetric mode)."""
        cells_of = self.rules.cells
        where: dict[Cell, list[int]] = {}
        for i, p in enumerate(placements):
            for cell in cells_of(p.word, p.row, p.col, p.direction):
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
                for cell in cells_of(p.word, p.row, p.col, p.direction):
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
