"""Candidate placements for large word lists, drawn from a (length, position, glyph) index.

The exact frontier (``frontier.py``) keeps every valid placement of every remaining word: with
tens of thousands of words that is millions of placements, and one board outlasts any time limit.
Here the board is read the other way round, as the Google I/O crossword generator and Crosshare's
autofill do: each line (row or column) with a letter a word could cross is cut into *spans*, runs
of cells one word could fill (crossing that line's letters, touching nothing else), and a span's
words come from the bitsets of :class:`~csp_crossword.words.lexicon.WordIndex`: the words of the span's
length with its glyphs at its positions, less the words used up. Work per step is bounded by the
lines a new word touches, not by the list.

Spans are ranked statically, best first, in a heap: most crossings, then least board area, then
most new cells among the few shortest spans from each start (see ENDS_PER_CROSSING: short fills
near the board, as long as they can be), ties at random. They are looked up
lazily, when they reach the top: a span with no word left is dropped for good (the available
words only shrink while a board grows), a span on a line changed since is dropped (the line's new
spans are in the heap).
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Iterable

from ...core.grid import Direction
from ...words.word_index import DEFAULT_SCORE, WordIndex
from .board import ACROSS, DOWN, OWNER_BIT, Board, BoardRules, Cell
from .frontier import Key, Ranked

#: Lists with at least this many distinct placeable words use spans; smaller ones keep the exact
#: frontier, which sees every placement: better on small lists (15x15 with 20 to 100 words: up to
#: 1 word more and fill up to 0.04 higher; 21x21 with 50: 2.7 words more), worse on larger ones
#: (15x15 with 200 words: 28.7 placed with the frontier, 31.7 with spans; 21x21 with 1,000: 57
#: against 68; 1 s, 3 seeds). The frontier's work also grows with the list: one board of 5,000
#: words on 21x21 took 5.5 s with it.
SPAN_WORDS = 200
#: Spans kept per start cell and number of crossings: the shortest few, of which the ranking
#: takes the longest first. Short spans (words ending soon after their crossings) keep the board
#: dense; among them the longer fill more cells. On words.txt, 30x30, 5 s (3 seeds): 3 gave 222
#: words at fill 0.64, 6 gave 209 at 0.63 (1: fill 0.40 from greedy boards alone); taking the
#: shortest of 3 first gave 262 words at fill 0.56, nearly all of 2 and 3 letters. Also bounds a
#: line's spans to about starts x crossings x this.
ENDS_PER_CROSSING = 3
#: Lines enumerated between two checks of the time (a line costs at most a few hundred spans).
LINES_PER_CHECK = 8

#: A line of the board: (ACROSS, row) or (DOWN, column).
Line = tuple[Direction, int]
#: A span's glyphs: (position in the span, glyph) for each cell already on the board.
Pattern = tuple[tuple[int, str], ...]
#: A heap entry: (-crossings, board area with it, -new cells, tie-break, line, line version,
#: first cell along the line, length, pattern).
Entry = tuple[int, int, int, float, Line, int, int, int, Pattern]

# Cell states along a line.
_OPEN, _CROSS, _BLOCKED, _TOUCHING = 0, 1, 2, 3


class SpanIndex:
    """The words by length, each length a :class:`WordIndex` (bitsets per position and glyph)."""

    def __init__(self, glyphs: dict[str, tuple[str, ...]], words: Iterable[str]):
        by_length: dict[int, list[str]] = {}
        alphabet: dict[str, int] = {}
        for word in words:
            for glyph in glyphs[word]:
                alphabet.setdefault(glyph, len(alphabet))
            by_length.setdefault(len(glyphs[word]), []).append(word)
        self.alphabet = alphabet
        self.indexes = {
            n: WordIndex(n, listed, [DEFAULT_SCORE] * len(listed), alphabet) for n, listed in by_length.items()
        }
        self.longest = max(self.indexes, default=0)


class SpanFrontier:
    """The ranked spans of a growing board; the same calls as :class:`Frontier`."""

    def __init__(
        self,
        rules: BoardRules,
        index: SpanIndex,
        rng: random.Random,
        out_of_time: Callable[[], bool] | None = None,
    ):
        self.rules = rules
        self.index = index
        self.rng = rng
        self.out_of_time = out_of_time
        self.heap: list[Entry] = []
        self.version: dict[Line, int] = {}
        # length -> bitset of the words not yet seen used up; cleared lazily as draws find them
        self.available = {n: idx.full for n, idx in index.indexes.items()}

    # ------------------------------------------------------------------ keeping the spans

    def add(self, board: Board, anchors: Iterable[Cell], remaining: Counter[str]) -> None:
        """Enumerate the spans of every line through the ``anchors`` cells."""
        lines: set[Line] = set()
        for r, c in anchors:
            lines.update(((ACROSS, r), (DOWN, c)))
        self._refresh(board, lines)

    def update(self, board: Board, new_cells: list[Cell], remaining: Counter[str]) -> None:
        """Re-enumerate the lines a new word changed: its own, and those beside its cells (their
        cells now touch a letter)."""
        lines: set[Line] = set()
        for r, c in new_cells:
            for k in (-1, 0, 1):
                lines.update(((ACROSS, r + k), (DOWN, c + k)))
        self._refresh(board, lines)

    def _refresh(self, board: Board, lines: set[Line]) -> None:
        bounds = board.bounds()
        for k, line in enumerate(sorted(lines)):
            if k % LINES_PER_CHECK == LINES_PER_CHECK - 1 and self.out_of_time is not None and self.out_of_time():
                return  # the board stops growing: spans left stale are never used
            version = self.version[line] = self.version.get(line, 0) + 1
            for entry in self._spans(board, bounds, line, version):
                heapq.heappush(self.heap, entry)

    def _spans(self, board: Board, bounds: tuple[int, int, int, int], line: Line, version: int) -> list[Entry]:
        """The spans of one line that fit the board: runs of open and crossable cells holding at
        least one crossing, with no letter just before or after."""
        direction, fixed = line
        cells, owner = board.cells, board.owner
        bit = OWNER_BIT[direction]
        across = direction is ACROSS
        r0, c0, r1, c1 = bounds
        lo, hi = (c0, c1) if across else (r0, r1)
        letters = [p for p in range(lo, hi + 1) if ((fixed, p) if across else (p, fixed)) in cells]
        if not letters:
            return []
        longest = self.index.longest
        first, last = letters[0] - longest, letters[-1] + longest  # cells first and last: boundaries only
        state: list[int] = []
        glyph_at: list[str] = []
        for p in range(first, last + 1):
            cell = (fixed, p) if across else (p, fixed)
            glyph = cells.get(cell)
            if glyph is not None:
                state.append(_BLOCKED if owner[cell] & bit else _CROSS)
                glyph_at.append(glyph)
                continue
            side = ((fixed - 1, p), (fixed + 1, p)) if across else ((p, fixed - 1), (p, fixed + 1))
            state.append(_TOUCHING if side[0] in cells or side[1] in cells else _OPEN)
            glyph_at.append("")
        rules, lengths, rng = self.rules, self.index.indexes, self.rng
        spans: list[Entry] = []
        n = len(state)
        last_letter = letters[-1] - first
        for s in range(1, last_letter + 1):
            if state[s] > _CROSS or state[s - 1] in (_CROSS, _BLOCKED):
                continue  # not fillable, or a letter just before
            crossings, pattern, kept = 0, [], 0
            for e in range(s, min(n - 1, s + longest)):
                if state[e] > _CROSS:
                    break
                if state[e] == _CROSS:
                    crossings += 1
                    pattern.append((e - s, glyph_at[e]))
                    kept = 0
                length = e - s + 1
                if not crossings or length < 2 or length not in lengths or state[e + 1] in (_CROSS, _BLOCKED):
                    continue
                if kept >= ENDS_PER_CROSSING:
                    continue
                start, end = first + s, first + e
                row, col, end_row, end_col = (fixed, start, fixed, end) if across else (start, fixed, end, fixed)
                if not rules.fits(bounds, row, col, end_row, end_col):
                    continue  # the board only grows while these spans live: it never fits
                kept += 1
                area = rules.area(bounds, row, col, end_row, end_col)
                # the area is the board's when the line was read: it only grows, so older spans
                # rank a little ahead of equal newer ones (they were nearer the board's middle)
                new = length - crossings
                spans.append((-crossings, area, -new, rng.random(), line, version, start, length, tuple(pattern)))
        return spans

    # ------------------------------------------------------------------ choosing

    def ranked(self, board: Board, remaining: Counter[str], rng: random.Random, best: int = 1) -> list[Ranked]:
        """Up to ``best`` placements from the best spans that still fit and have a word left."""
        rules, heap = self.rules, self.heap
        bounds = board.bounds()
        found: list[Ranked] = []
        kept: list[Entry] = []
        while heap and len(found) < best:
            if self.out_of_time is not None and self.out_of_time():
                return []  # the board stops growing
            entry = heapq.heappop(heap)
            neg_crossings, _area, _new, tie, line, version, start, length, pattern = entry
            if self.version.get(line) != version:
                continue  # its line changed: the line's spans were enumerated again
            direction, fixed = line
            row, col = (fixed, start) if direction is ACROSS else (start, fixed)
            end_row, end_col = (row, col + length - 1) if direction is ACROSS else (row + length - 1, col)
            if not rules.fits(bounds, row, col, end_row, end_col):
                continue
            word = self.draw(length, pattern, remaining, rng)
            if word is None:
                continue  # no word left for it, and none will come back
            key: Key = (word, row, col, direction)
            if rules.check(board, *key) != -neg_crossings:
                continue  # never expected: the span's cells say it is valid
            kept.append(entry)
            grow = rules.area(bounds, row, col, end_row, end_col)
            found.append((-neg_crossings, -grow, tie, key))
        for entry in kept:  # still valid spans: another word may go there later
            heapq.heappush(heap, entry)
        return found

    def draw(self, length: int, pattern: Pattern, remaining: Counter[str], rng: random.Random) -> str | None:
        """A random remaining word of ``length`` with the pattern's glyphs, or None."""
        index = self.index.indexes[length]
        bits = self.available[length]
        for pos, glyph in pattern:
            gid = index.alphabet.get(glyph)
            if gid is None:
                return None
            bits &= index.bits[pos][gid]
            if not bits:
                return None
        while bits:
            # the first word at or after a random id: random enough, and no count of the bits
            shift = rng.randrange(bits.bit_length())
            above = bits >> shift  # never 0: the highest bit is at or above the shift
            word_id = shift + (above & -above).bit_length() - 1
            word = index.words[word_id]
            if remaining[word] > 0:
                return word
            self.available[length] &= ~(1 << word_id)  # used up for the rest of this board
            bits &= ~(1 << word_id)
        return None


__all__ = ["SPAN_WORDS", "SpanFrontier", "SpanIndex"]
