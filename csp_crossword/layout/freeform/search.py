"""The freeform search: greedy boards, then large neighbourhood search on the best one.

1. *Greedy boards.* A board starts from one of the longest words; the best-scored frontier
   placement (most crossings, as Helmig scores them, then the least growth of the board, ties at
   random) is taken until none is left (or ``target`` words are placed). Many randomised boards
   are built and the best kept: most words, then most crossings, then the smallest area. Lists of
   SPAN_WORDS words or more take their placements from spans drawn from a word index
   (``candidates.py``) instead of the exact frontier.
2. *Improvement.* A few words are taken off the best board (and any word left disconnected with
   them), the frontier is rebuilt and the board regrown greedily; the new board replaces the
   current one when it is at least as good, so the search walks plateaus and keeps the best board
   seen.

With ``symmetric``, the board's letter cells keep 180-degree rotational symmetry about its centre
(as a newspaper grid's blocks do). The first word is centred on the middle row or column (its own
image), and every later placement comes with a partner at the rotated cells: a word of the same
length that fits the letters there (the words of a length pair up, so the first word is one of a
length listed an odd number of times when there is one), or the placement alone when it is its
own image. Every ranked placement is tried for a partner before the board stops growing.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Callable

from ...core.deadline import Deadline, StopSignal, expired
from ...words.lexicon import Lexicon
from ...words.word_index import entry_glyphs
from ..defaults import FREEFORM_SECONDS
from .board import ACROSS, DOWN, MAX_BOARD_SIDE, Board, BoardRules, Cell, Placement, check_word_lengths
from .candidates import SPAN_WORDS, SpanFrontier, SpanIndex
from .frontier import CHECK_EVERY, Frontier, Ranked
from .neighbours import NeighbourMoves
from .result import FreeformResult, board_result
from .symmetry import PARTNER_TRIES, PairPlacement

#: Seconds a layout searches when no time limit is given.
DEFAULT_SECONDS = FREEFORM_SECONDS
#: The first word is drawn from this many longest words.
SEED_CHOICES = 3
#: Share of the budget spent building independent greedy boards; the rest improves the best one.
GREEDY_SHARE = 0.3
#: The search's budget: WORK_PER_SECOND units of work per second of the time limit, a greedy step
#: (one placement ranked and tried) costing as many units as the list has words (at most
#: SPAN_WORDS, past which placements come from the span index), SYMMETRIC_STEP_WEIGHT times that
#: in symmetric mode (each placement looks for a partner). Counted in steps, not seconds, so the
#: same list and seed make the same board at any machine load; the time limit stays the outer cap.
#: Measured on lists of 10 to 400 words (2 s, an idle core): some 50,000 units a second, 15,000
#: symmetric ones; WORK_PER_SECOND is half of it, so that a machine twice as busy still ends on
#: the budget, not the clock.
WORK_PER_SECOND = 25_000
SYMMETRIC_STEP_WEIGHT = 3.3
#: The search ends early once this many greedy steps have gone by without a better board: a short
#: list's budget is tens of thousands of steps (a step costs as many units as the list has
#: words), long after its boards stop improving. With 10 s on lists of 5 to 20 words, 5 seeds,
#: every board was the same as without it, and the 5-word lists took 1.1-2.4 s of processor time
#: instead of 3.3-3.9 s; at 6,000 two of 27 boards came out worse. Counted in steps, so it is the
#: same at any machine load.
STALL_STEPS = 20_000

#: Called after each board with (boards built, best board's placed words).
FreeformProgress = Callable[[int, int], None]


class Freeform(PairPlacement, NeighbourMoves):
    """Builds freeform boards from a list of words, within ``rows`` x ``cols`` when given, else
    at most ``max_side`` a side. A word listed twice may be placed twice."""

    def __init__(
        self,
        words: list[str],
        *,
        rows: int | None = None,
        cols: int | None = None,
        allow_islands: bool = False,
        symmetric: bool = False,
        rtl: bool = False,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        max_side: int = MAX_BOARD_SIDE,
    ):
        """Index the words (InputError for a word over MAX_FREEFORM_WORD_GLYPHS). The index stops at
        ``deadline`` or when ``stop`` is set: the words not indexed by then are not placed."""
        self.listed = list(words)
        self.counts = Counter(self.listed)
        check_word_lengths(self.counts)
        self.glyphs: dict[str, tuple[str, ...]] = {}
        self.rows, self.cols = rows, cols
        self.allow_islands = allow_islands
        self.symmetric = symmetric
        #: Greedy steps made (a placement ranked and tried): the unit of the search's budget.
        self.steps = 0
        self._step_end: float = math.inf
        self.rtl = rtl
        self.rules = BoardRules(self.glyphs, rows, cols, symmetric, max_side)
        self.uses: Counter[str] = Counter()
        # glyph -> [(word, position)]: the Google I/O index by glyph and position
        self.by_glyph: dict[str, list[tuple[str, int]]] = {}
        self.by_length: dict[int, list[str]] = {}
        self.indexed_all = False
        self._index(deadline, stop)
        # Large lists: words drawn per span from bitsets (candidates.py) instead of the exact
        # frontier, whose placements grow with the list (see SPAN_WORDS). Past the deadline
        # neither index is built: boards then hold their first word only.
        self.spans: SpanIndex | None = None
        if len(self.uses) >= SPAN_WORDS:
            if not expired(deadline, stop):
                self.spans = SpanIndex(self.glyphs, self.uses)
        else:
            for word in self.uses:
                for i, g in enumerate(self.glyphs[word]):
                    self.by_glyph.setdefault(g, []).append((word, i))
        self._seeds = self._seed_words()
        # When the running search must stop (set by run): boards stop growing then.
        self._end = math.inf
        self._stop: StopSignal | None = None
        self._target = math.inf  # boards stop growing at this many words (set by run)

    def _index(self, deadline: Deadline, stop: StopSignal | None) -> None:
        """Fill ``glyphs``, ``uses`` and ``by_length``, in list order; stop early at
        ``deadline`` (a list of hundreds of thousands of words takes seconds)."""
        longest = max(self.rows or 0, self.cols or 0) or None
        for k, (word, count) in enumerate(self.counts.items()):
            if k % CHECK_EVERY == 0 and expired(deadline, stop):
                return
            glyphs = self.glyphs[word] = entry_glyphs(word)
            n = len(glyphs)
            if n < 2 or (longest is not None and n > longest):
                continue
            self.uses[word] = count
            self.by_length.setdefault(n, []).append(word)
        self.indexed_all = True

    def _seed_words(self) -> list[str]:
        """The SEED_CHOICES longest words a board may start from. In symmetric mode the first
        word is the one without a partner: one of a length listed an odd number of times when
        there is one (the others of its length can then all pair up)."""
        words = list(self.uses)
        if self.symmetric:
            side = max(self.rows or 0, self.cols or 0) or None
            words = [w for w in words if side is None or len(self.glyphs[w]) <= side] or words
            # on a fixed size, first a word that can be centred on it (an equal margin each side)
            if side is not None:
                words = [w for w in words if any(self._centring(len(self.glyphs[w])))] or words
            listed = Counter({n: sum(self.uses[w] for w in group) for n, group in self.by_length.items()})
            words = [w for w in words if listed[len(self.glyphs[w])] % 2] or words
        return heapq.nsmallest(SEED_CHOICES, words, key=lambda w: (-len(self.glyphs[w]), w))

    # ------------------------------------------------------------------ growing a board

    def _grow(self, board: Board, remaining: Counter[str], rng: random.Random) -> bool:
        """Add words greedily until no remaining word has a valid placement (True), or the
        search's time is up (False; a board cut short is still valid: it grows by valid
        placements only)."""
        frontier: Frontier | SpanFrontier
        if self.spans is not None:
            frontier = SpanFrontier(self.rules, self.spans, rng, self._out_of_time)
        else:
            frontier = Frontier(self.rules, self.by_glyph, self._out_of_time)
        frontier.add(board, list(board.cells), remaining)
        while not self._out_of_time():
            self.steps += 1
            if len(board.placements) >= self._target:
                return True
            if isinstance(frontier, SpanFrontier):  # the best few only: spans are drawn lazily
                ranked = frontier.ranked(board, remaining, rng, PARTNER_TRIES if self.symmetric else 1)
            else:
                ranked = frontier.ranked(board, remaining, rng)
            new_cells = self._take(board, frontier, ranked, remaining, rng) if ranked else None
            if new_cells is None and self.allow_islands and not self.symmetric and not self._out_of_time():
                new_cells = self._island(board, remaining)
            if new_cells is None:
                return not self._out_of_time()
            frontier.update(board, new_cells, remaining)
        return False

    def _take(
        self,
        board: Board,
        frontier: Frontier | SpanFrontier,
        ranked: list[Ranked],
        remaining: Counter[str],
        rng: random.Random,
    ) -> list[Cell] | None:
        """Place the best ranked placement (in symmetric mode the best that has a partner)."""
        rules = self.rules
        if not self.symmetric:
            word, row, col, direction = ranked[0][3]
            remaining[word] -= 1
            return rules.place(board, Placement(word, row, col, direction))
        return self._take_pair(board, frontier, ranked, remaining, rng)

    def _island(self, board: Board, remaining: Counter[str]) -> list[Cell] | None:
        """Start a new piece with the longest remaining word that fits, touching nothing."""
        rules = self.rules
        bounds = board.bounds()
        r0, c0, r1, c1 = bounds
        tried: set[int] = set()
        for word in sorted((w for w in remaining if remaining[w]), key=lambda w: -len(self.glyphs[w])):
            n = len(self.glyphs[word]) - 1
            if n in tried:
                continue  # touching nothing, only the length counts: this one fits nowhere either
            tried.add(n)
            for row in range(r0, r1 + 3):
                if self._out_of_time():  # a row costs (width x word length) look-ups
                    return None
                for col in range(c0 - n, c1 + 2):
                    if not rules.fits(bounds, row, col, row, col + n):
                        continue
                    if rules.check(board, word, row, col, ACROSS) == 0:  # touches nothing
                        remaining[word] -= 1
                        return rules.place(board, Placement(word, row, col, ACROSS))
        return None

    def _seeded(self, rng: random.Random) -> tuple[Board, Counter[str]]:
        remaining = Counter(self.uses)
        first = rng.choice(self._seeds)
        board = Board()
        vertical = rng.random() < 0.5
        if self.symmetric:
            across, down = self._centring(len(self.glyphs[first]))
            vertical = vertical if across == down else down
        if vertical and self.rows is not None and len(self.glyphs[first]) > self.rows:
            vertical = False
        if not vertical and self.cols is not None and len(self.glyphs[first]) > self.cols:
            vertical = True
        self.rules.place(board, Placement(first, 0, 0, DOWN if vertical else ACROSS, 0))
        remaining[first] -= 1
        return board, remaining

    # ------------------------------------------------------------------ the search

    def _out_of_time(self) -> bool:
        return (
            self.steps >= self._step_end
            or time.monotonic() >= self._end
            or (self._stop is not None and self._stop.is_set())
        )

    def _step_budget(self, seconds: float) -> int:
        """Greedy steps the search may make for a time limit of ``seconds`` (WORK_PER_SECOND)."""
        cost = max(1, min(len(self.uses), SPAN_WORDS)) * (SYMMETRIC_STEP_WEIGHT if self.symmetric else 1.0)
        return max(1, int(seconds * WORK_PER_SECOND / cost))

    def run(
        self,
        time_limit: float | None = None,
        seed: int = 0,
        *,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        progress: FreeformProgress | None = None,
        target: int | None = None,
        budget_seconds: float | None = None,
    ) -> FreeformResult:
        """Build boards within the budget of ``budget_seconds`` (default ``time_limit``, else
        DEFAULT_SECONDS; :data:`WORK_PER_SECOND`), until ``time_limit`` seconds or ``deadline``,
        whichever is first, or until ``stop`` is set, and return the best. At least one board is
        always built. With ``target``, boards stop growing at that many words and the search
        stops at the first board that has them."""
        start = time.monotonic()
        if time_limit is None and deadline is not None:
            end = deadline
        else:
            end = start + (time_limit if time_limit is not None else DEFAULT_SECONDS)
            end = min(end, deadline) if deadline is not None else end
        self._end, self._stop = end, stop
        if budget_seconds is None:
            budget_seconds = time_limit if time_limit is not None else DEFAULT_SECONDS
        budget = self._step_budget(budget_seconds)
        self._step_end = math.inf  # the greedy phase ends at its share; the improvement at the budget
        self._target = math.inf if target is None else target
        rng = random.Random(seed)
        total = sum(self.uses.values())
        if not total:
            return self._result(Board(), 0, start, timed_out=not self.indexed_all)
        best: Board | None = None
        boards, interrupted, grown = 0, False, False
        greedy_steps = self.steps + GREEDY_SHARE * budget
        self._step_end = self.steps + budget

        gained_at = self.steps  # the step count when the best board last got better

        def going_on(until_step: float) -> bool:
            reached = best is not None and len(best.placements) >= self._target
            stalled = self.steps - gained_at >= STALL_STEPS
            return not reached and not stalled and self.steps < until_step and not self._out_of_time()

        try:
            while boards == 0 or going_on(greedy_steps):
                board, remaining = self._seeded(rng)
                grown = self._grow(board, remaining, rng) or grown
                boards += 1
                # a symmetric board of a given size must sit on its centre: see BoardRules.centred
                if self.rules.centred(board) and (best is None or board.key() > best.key()):
                    best, gained_at = board, self.steps
                if progress is not None:
                    progress(boards, len(best.placements) if best is not None else 0)
            current = best if best is not None else board  # the loop above builds at least one board
            while going_on(self._step_end):  # all placed: still more crossings, a smaller board
                candidate = self._neighbour(current, rng)
                if candidate is current:  # nothing to take off (one word or pair): no other board to try
                    break
                boards += 1
                if candidate.key() >= current.key():
                    current = candidate
                    if self.rules.centred(current) and (best is None or current.key() > best.key()):
                        best, gained_at = current, self.steps
                if progress is not None:
                    progress(boards, len(best.placements) if best is not None else 0)
        except KeyboardInterrupt:  # Ctrl-C: the best board so far (boards are never changed once kept)
            interrupted = True
        timed_out = not (self.indexed_all and grown) and not interrupted
        return self._result(best or Board(), boards, start, interrupted, timed_out)

    def _result(
        self, board: Board, boards: int, start: float, interrupted: bool = False, timed_out: bool = False
    ) -> FreeformResult:
        seconds = time.monotonic() - start
        return board_result(
            board,
            self.rules,
            self.listed,
            rtl=self.rtl,
            boards=boards,
            seconds=seconds,
            interrupted=interrupted,
            timed_out=timed_out,
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
    target: int | None = None,
) -> FreeformResult:
    """Lay out ``words`` (default: every entry of ``lexicon``, repeated as often as listed),
    stopping at ``target`` words when given.

    >>> lexicon = Lexicon.from_words(["CROSS", "WORD", "SOW"])
    >>> result = freeform(lexicon, time_limit=0.1)
    >>> sorted(result.placed), result.failed
    (['CROSS', 'SOW', 'WORD'], [])
    """
    if words is None:
        words = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    engine = Freeform(words, rows=rows, cols=cols, allow_islands=allow_islands, symmetric=symmetric, rtl=rtl)
    return engine.run(time_limit, seed, target=target)
