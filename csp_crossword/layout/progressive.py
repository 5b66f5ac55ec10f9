"""``progressive``: progressive search for unconstrained grids (the blocks are not given).

Faithful to Darwish, "Crossword generation using progressive search": a solution is a grid whose
rows hold lexicon words (so every across entry is valid), separated by blocks; its cost is the
total length of the down runs (two or more letters) that are not words, plus SCRAMBLED_WEIGHT
times the total length of the down runs that are anagrams of a word. Cost 0 means every down run
is a word. Then better than the seed: a repeated entry also costs its length (no entry twice
unless allowed), and column costs are updated incrementally after each mutation.

Search: an initial solution by Fill_1 or Fill_2, then a bounded priority queue (QMAXSIZE) of
solutions by cost; the best is dequeued, NBSIZE neighbours are made by replacing one across word
with a random word of the same length, and those whose cost is within THRESHOLD of their parent's
are queued (:class:`ProgressiveOptions` sets these). It stops at cost 0, after a given number of
steps (a budget that does not depend on the machine's load) or at the time limit, and reports the
best solution with its unknown and scrambled down runs. Single-letter runs follow the
seed: allowed, drawn from frequent letters.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields

from ..core.deadline import Deadline, StopSignal
from ..core.errors import InputError
from ..words.lexicon import Lexicon
from ..words.word_index import entry_glyphs

#: Weight of a down run that is an anagram of a word (the seed's 0.2).
SCRAMBLED_WEIGHT = 0.2
#: Solutions kept in the priority queue (QMAXSIZE).
QMAXSIZE = 64
#: Neighbours made from each dequeued solution (NBSIZE).
NBSIZE = 24
#: A neighbour is queued when its cost is at most its parent's plus this (the threshold).
THRESHOLD = 2.0
#: Letters drawn for single-letter across segments, most frequent first (the seed's choice).
FREQUENT_GLYPHS = 8
#: Seconds searched when no time limit is given.
DEFAULT_SECONDS = 10.0
#: The initial-solution methods: Fill_1 (random word lengths row by row) and Fill_2 (random
#: blocks down each column first, then words in the rows' runs).
STARTS = ("fill1", "fill2")
#: Bounds of the tunable options (:class:`ProgressiveOptions`): beyond them a step costs too much
#: memory or time (a queue of 4096 15x15 solutions is a few MB) or the option means nothing.
MAX_QUEUE_SIZE = 4096
MAX_NEIGHBOURS = 1024
MAX_THRESHOLD = 100.0

#: A solution's rows: a glyph per cell, None for a block.
Cells = list[list[str | None]]


@dataclass
class Layout:
    """A progressive-search solution: ``cells[r][c]`` is a glyph or None for a block."""

    cells: Cells
    cost: float
    unknown: list[str] = field(default_factory=list)
    scrambled: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProgressiveOptions:
    """The progressive search's knobs (the paper's names in brackets), checked by :meth:`check`.

    ``start``: the initial solution, ``"fill1"`` or ``"fill2"`` (Fill_1 / Fill_2);
    ``queue_size``: solutions kept in the priority queue, 1 to MAX_QUEUE_SIZE (QMAXSIZE);
    ``neighbours``: neighbours made from each dequeued solution, 1 to MAX_NEIGHBOURS (NBSIZE);
    ``threshold``: a neighbour is queued when its cost is at most its parent's plus this, 0 to
    MAX_THRESHOLD; ``scrambled_weight``: the cost per glyph of a down run that is an anagram of a
    word, 0 to 1 (1: no better than any other non-word).
    """

    start: str = "fill1"
    queue_size: int = QMAXSIZE
    neighbours: int = NBSIZE
    threshold: float = THRESHOLD
    scrambled_weight: float = SCRAMBLED_WEIGHT

    def check(self) -> ProgressiveOptions:
        """Itself; ValueError naming the option when one is out of its bounds."""
        if self.start not in STARTS:
            raise ValueError(f"progressive start must be one of {', '.join(STARTS)}")
        for name, value, low, high in (
            ("queue_size", self.queue_size, 1, MAX_QUEUE_SIZE),
            ("neighbours", self.neighbours, 1, MAX_NEIGHBOURS),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"progressive {name} must be a whole number from {low} to {high}")
        for name, number, top in (
            ("threshold", self.threshold, MAX_THRESHOLD),
            ("scrambled_weight", self.scrambled_weight, 1.0),
        ):
            if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number <= top:
                raise ValueError(f"progressive {name} must be a number from 0 to {top:g}")
        return self

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


class ProgressiveSearch:
    """Progressive search over ``rows`` x ``cols`` with words of ``lexicon``.

    Args:
        max_run: Longest down run allowed (and longest across word).
        fill: ``"fill1"`` or ``"fill2"``, the initial-solution method (when no ``options``).
        rtl: Across words run right to left.
        allow_duplicates: Do not charge repeated entries.
        options: The search's knobs (:class:`ProgressiveOptions`); its ``start`` wins over ``fill``.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        lexicon: Lexicon,
        *,
        max_run: int | None = None,
        fill: str = "fill1",
        rtl: bool = False,
        allow_duplicates: bool = False,
        seed: int = 0,
        options: ProgressiveOptions | None = None,
    ):
        if options is None:
            if fill not in STARTS:
                raise ValueError("fill must be 'fill1' or 'fill2'")
            options = ProgressiveOptions(start=fill)
        self.options = options.check()
        fill = options.start
        self.rows, self.cols = rows, cols
        self.rng = random.Random(seed)
        self.rtl = rtl
        self.allow_duplicates = allow_duplicates
        self.fill = fill
        self.max_run = max_run or max(rows, cols)
        self.words = {n: [entry_glyphs(w) for w in ws] for n, ws in lexicon.by_length.items() if 2 <= n <= self.max_run}
        # Every down run is 2 to max_run glyphs long (the initial fills keep it so and mutations
        # change letters only), so only those lengths are ever looked up: a large list's longer
        # words would cost time and memory for nothing.
        self.entries = {"".join(w) for ws in self.words.values() for w in ws}
        self.anagrams = {"".join(sorted(w)) for ws in self.words.values() for w in ws}
        letters = Counter(g for ws in self.words.values() for w in ws[:2000] for g in w)
        self.frequent = [g for g, _ in letters.most_common(FREQUENT_GLYPHS)] or ["A"]
        self.lengths = sorted(self.words)
        if not self.lengths:
            raise InputError(f"the word list has no word of 2 to {self.max_run} letters (after --min-score and bans)")

    # ------------------------------------------------------------------ initial solutions

    def _word(self, length: int) -> tuple[str, ...]:
        if length == 1:
            return (self.rng.choice(self.frequent),)
        return self.rng.choice(self.words[length])

    def _place_row(self, cells: Cells, r: int, segments: list[tuple[int, int]]) -> None:
        for start, length in segments:
            word = self._word(length)
            if self.rtl:
                word = word[::-1]
            for k, glyph in enumerate(word):
                cells[r][start + k] = glyph

    def _fill1(self) -> Cells:
        cells: Cells = [[None] * self.cols for _ in range(self.rows)]
        run = [0] * self.cols
        usable = [0] + [n for n in range(1, self.max_run + 1) if n == 1 or n in self.words]
        for r in range(self.rows):
            c = 0
            segments = []
            while c < self.cols:
                length = self.rng.choice(usable)
                room = 0
                while c + room < self.cols and room < length and run[c + room] < self.max_run:
                    room += 1
                if length == 0 or room == 0:
                    run[c] = 0
                    c += 1
                    continue
                while room > 1 and room not in self.words:
                    room -= 1
                segments.append((c, room))
                for k in range(room):
                    run[c + k] += 1
                c += room
                if c < self.cols:
                    run[c] = 0
                    c += 1
            self._place_row(cells, r, segments)
        return cells

    def _fill2(self) -> Cells:
        blocks = [[False] * self.cols for _ in range(self.rows)]
        for c in range(self.cols):
            r = self.rng.randint(1, self.max_run)
            while r < self.rows:
                blocks[r][c] = True
                r += 1 + self.rng.randint(1, self.max_run)
        cells: Cells = [[None] * self.cols for _ in range(self.rows)]
        for r in range(self.rows):
            segments = []
            c = 0
            while c < self.cols:
                if blocks[r][c]:
                    c += 1
                    continue
                start = c
                while c < self.cols and not blocks[r][c]:
                    c += 1
                pos = start
                while pos < c:  # a run with no word of its length gets an extra block
                    length = c - pos
                    while length > 1 and length not in self.words:
                        length -= 1
                    segments.append((pos, length))
                    pos += length + 1
            self._place_row(cells, r, segments)
        return cells

    # ------------------------------------------------------------------ cost

    def _column_runs(self, cells: Cells, c: int) -> Iterator[tuple[int, str]]:
        r = 0
        while r < self.rows:
            if cells[r][c] is None:
                r += 1
                continue
            start = r
            while r < self.rows and cells[r][c] is not None:
                r += 1
            if r - start >= 2:
                yield start, "".join(cells[k][c] or "" for k in range(start, r))

    def _scrambled(self, word: str) -> bool:
        """Whether a run that is not a word is an anagram of one."""
        return "".join(sorted(entry_glyphs(word))) in self.anagrams

    def _column_cost(self, cells: Cells, c: int) -> float:
        cost = 0.0
        for _, word in self._column_runs(cells, c):
            if word not in self.entries:
                length = len(entry_glyphs(word))
                cost += self.options.scrambled_weight * length if self._scrambled(word) else length
        return cost

    def _across(self, cells: Cells) -> list[tuple[int, int, int]]:
        """(row, start col, length) of every across segment (single letters included)."""
        found = []
        for r in range(self.rows):
            c = 0
            while c < self.cols:
                if cells[r][c] is None:
                    c += 1
                    continue
                start = c
                while c < self.cols and cells[r][c] is not None:
                    c += 1
                found.append((r, start, c - start))
        return found

    def _entries(self, cells: Cells) -> list[str]:
        words = []
        for r, start, length in self._across(cells):
            if length >= 2:
                glyphs = [g or "" for g in cells[r][start : start + length]]
                words.append("".join(glyphs[::-1] if self.rtl else glyphs))
        for c in range(self.cols):
            words.extend(word for _, word in self._column_runs(cells, c))
        return words

    def _repeat_cost(self, cells: Cells) -> float:
        if self.allow_duplicates:
            return 0.0
        counts = Counter(self._entries(cells))
        return float(sum(len(entry_glyphs(w)) * (n - 1) for w, n in counts.items() if n > 1))

    def cost(self, cells: Cells, columns: list[float] | None = None) -> float:
        columns = columns if columns is not None else [self._column_cost(cells, c) for c in range(self.cols)]
        return sum(columns) + self._repeat_cost(cells)

    # ------------------------------------------------------------------ search

    def _mutate(
        self, cells: Cells, columns: list[float], segments: list[tuple[int, int, int]]
    ) -> tuple[Cells, list[float]]:
        """A neighbour: one across segment (of ``segments``, the same for every solution of a
        run since mutations never move blocks) gets a random word of its length."""
        r, start, length = self.rng.choice(segments)
        child = [row[:] for row in cells]
        word = self._word(length)
        if self.rtl:
            word = word[::-1]
        for k, glyph in enumerate(word):
            child[r][start + k] = glyph
        child_columns = columns[:]
        for c in range(start, start + length):
            child_columns[c] = self._column_cost(child, c)
        return child, child_columns

    def run(
        self,
        time_limit: float | None = None,
        on_progress: Callable[[int, float], None] | None = None,
        *,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        step_limit: int | None = None,
    ) -> tuple[Layout, int]:
        """Search until cost 0, ``step_limit`` steps (neighbours made), the time limit or
        ``deadline``, whichever is first, or until ``stop`` is set; returns the best layout and
        the step count. Without a time limit or ``deadline`` the clock stops it after
        DEFAULT_SECONDS."""
        if time_limit is None and deadline is not None:
            end = deadline
        else:
            end = min(
                deadline if deadline is not None else math.inf,
                time.monotonic() + (time_limit if time_limit is not None else DEFAULT_SECONDS),
            )
        last_step = math.inf if step_limit is None else step_limit
        start_cells = self._fill1() if self.fill == "fill1" else self._fill2()
        columns = [self._column_cost(start_cells, c) for c in range(self.cols)]
        segments = self._across(start_cells)
        best_cost = self.cost(start_cells, columns)
        best = start_cells
        tie = 0
        queue = [(best_cost, tie, start_cells, columns)]
        steps = 0

        def out_of_time() -> bool:
            return steps >= last_step or time.monotonic() >= end or (stop is not None and stop.is_set())

        try:
            while queue and best_cost > 0 and not out_of_time():
                parent_cost, _, parent, parent_columns = heapq.heappop(queue)
                for _ in range(self.options.neighbours):
                    if out_of_time():  # a child costs a pass over the grid: check each one
                        break
                    child, child_columns = self._mutate(parent, parent_columns, segments)
                    steps += 1
                    child_cost = self.cost(child, child_columns)
                    if child_cost < best_cost:
                        best, best_cost = child, child_cost
                        if best_cost == 0:
                            break
                    if child_cost <= parent_cost + self.options.threshold:
                        tie += 1
                        heapq.heappush(queue, (child_cost, tie, child, child_columns))
                if len(queue) > self.options.queue_size:
                    queue = heapq.nsmallest(self.options.queue_size, queue)
                if not queue:
                    heapq.heappush(
                        queue, (best_cost, tie, best, [self._column_cost(best, c) for c in range(self.cols)])
                    )
                if on_progress is not None:
                    on_progress(steps, best_cost)
        except KeyboardInterrupt:
            pass
        return self.describe(best), steps

    def describe(self, cells: Cells) -> Layout:
        unknown: list[str] = []
        scrambled: list[str] = []
        for c in range(self.cols):
            for _, word in self._column_runs(cells, c):
                if word not in self.entries:
                    (scrambled if self._scrambled(word) else unknown).append(word)
        return Layout(cells, self.cost(cells), unknown, scrambled)
