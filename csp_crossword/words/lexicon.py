"""Word lists: normalisation, scores and the bitset word index (loading: ``wordlists.py``).

A :class:`Lexicon` maps entries (normalised words such as ``ICEAGE``) to a score, a display form
and a clue. Its :class:`WordIndex` for one length holds the words sorted best first and one bitset
(a Python int) per (position, glyph): bit ``i`` is set when word ``i`` has that glyph there. A
pattern is the AND of the bitsets of its filled positions, and a candidate count is a popcount.

>>> lex = Lexicon.from_words(["cat", "cot", "cut", "dog"], scores={"CAT": 90})
>>> index = lex.index(3)
>>> index.words
('CAT', 'COT', 'CUT', 'DOG')
>>> [index.words[i] for i in WordIndex.iter_ids(index.match(["C", "", "T"]))]
['CAT', 'COT', 'CUT']
>>> index.match(["D", "", ""]).bit_count()
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from ..core.glyphs import normalize_entry, split_glyphs

if TYPE_CHECKING:
    pass

from .ready_index import ReadyIndex
from .word_index import (
    DEFAULT_SCORE,
    WordIndex,
    _valid_entry,
    checked_score,
    glyph_count,
)

# Names this module held before the word index and the ready index had modules of their own:
# ``from csp_crossword.lexicon import entry_glyphs`` (the earlier path) keeps working.
from .word_index import SMALL_INDEX as SMALL_INDEX
from .word_index import STORED_BITS_RATIO as STORED_BITS_RATIO
from .word_index import entry_glyphs as entry_glyphs


class Lexicon:
    """A normalised word list: entry -> score, display form and clue, with lazy indexes.

    Build one with :meth:`from_words`, :func:`load_word_lists` or
    :func:`csp_crossword.words.builtin.builtin_lexicon`.
    """

    def __init__(
        self,
        scores: dict[str, int] | None,
        display: Mapping[str, str] | None = None,
        clues: MutableMapping[str, str] | None = None,
        name: str = "lexicon",
        multiplicity: dict[str, int] | None = None,
        *,
        ready: ReadyIndex | None = None,
        order: Callable[[], Iterable[str]] | None = None,
    ):
        """``scores`` may be None when ``ready`` (the cached lists) holds the entries: the entry
        -> score table is then made only if something asks for all of it, in the order ``order``
        gives (a list file's own order) when it gives every entry once, else the index's."""
        if scores is None and ready is None:
            raise ValueError("a lexicon needs its scores or a ready index")
        self._scores = scores
        self._order = order
        self.multiplicity = multiplicity or {}
        # not `display or {}`: a lazily read table (the built-in list's, a cached list's) would
        # load to answer len()
        self.display: Mapping[str, str] = display if display is not None else {}
        self.clues: MutableMapping[str, str] = clues if clues is not None else {}
        self.name = name
        self._by_length: dict[int, list[str]] | None = None
        self._ready = ready
        self._indexes: dict[int, WordIndex] = {}
        self._alphabet: dict[str, int] | None = ready.alphabet if ready is not None else None

    @property
    def scores(self) -> dict[str, int]:
        """Entry -> score (built from the ready index on first use when there is one)."""
        if self._scores is None:
            assert self._ready is not None  # __init__ allows no other case
            ready = self._ready
            table = {w: s for n in ready.lengths for w, s in zip(ready.words(n), ready.scores(n))}
            if self._order is not None:
                listed = {w: table[w] for w in self._order() if w in table}
                if len(listed) == len(table):
                    table = listed
            self._scores = table
        return self._scores

    @classmethod
    def from_words(cls, words: Iterable[str], scores: Mapping[str, int] | None = None, name: str = "words") -> Lexicon:
        """A lexicon from an iterable of words (normalised here), default score 50. Two
        spellings of one entry in ``scores`` ("ice age", "ICEAGE") keep the higher score."""
        table: dict[str, int] = {}
        display: dict[str, str] = {}
        counts: dict[str, int] = {}
        for word in words:
            entry = normalize_entry(word)
            if not _valid_entry(entry):
                raise ValueError(f"not a usable entry: {word!r}")
            table[entry] = DEFAULT_SCORE
            counts[entry] = counts.get(entry, 0) + 1
            if word != entry:
                display[entry] = word
        scored: dict[str, int] = {}
        for word, score in (scores or {}).items():
            entry, value = normalize_entry(word), checked_score(word, score)
            if entry not in scored or value > scored[entry]:
                scored[entry] = value
        table.update(scored)
        return cls(table, display, name=name, multiplicity=counts)

    def __len__(self) -> int:
        if self._scores is None and self._ready is not None:
            return len(self._ready)
        return len(self.scores)

    def __contains__(self, entry: str) -> bool:
        if self._scores is None and self._ready is not None:
            return entry in self._ready  # one length unpacked, not the whole list
        return entry in self.scores

    @property
    def by_length(self) -> dict[int, list[str]]:
        if self._by_length is None and self._ready is not None:
            self._by_length = {n: self._ready.words(n) for n in self._ready.lengths}
        if self._by_length is None:
            groups: dict[int, list[str]] = {}
            for entry in self.scores:
                groups.setdefault(glyph_count(entry), []).append(entry)
            self._by_length = groups
        return self._by_length

    @property
    def alphabet(self) -> dict[str, int]:
        """Glyph -> small integer id, over every entry (sorted, so ids are stable)."""
        if self._alphabet is None:
            ascii_entries = [e for e in self.scores if e.isascii()]
            glyphs: set[str] = set("".join(ascii_entries))
            if len(ascii_entries) < len(self.scores):
                for entry in self.scores:
                    if not entry.isascii():
                        glyphs.update(split_glyphs(entry))
            self._alphabet = {g: i for i, g in enumerate(sorted(glyphs))}
        return self._alphabet

    def index(self, length: int) -> WordIndex:
        """The word index of one length (built on first use)."""
        found = self._indexes.get(length)
        if found is None:
            bits = None
            if self._ready is not None:
                words = self._ready.words(length)
                scores = self._ready.scores(length)
                bits = self._ready.bits(length)
            else:
                words = sorted(self.by_length.get(length, []), key=lambda w: (-self.scores[w], w))
                scores = [self.scores[w] for w in words]
            found = WordIndex(length, words, scores, self.alphabet, bits=bits)
            self._indexes[length] = found
        return found

    def lengths(self) -> dict[int, int]:
        if self._ready is not None:
            return {n: self._ready.count(n) for n in self._ready.lengths}
        return {n: len(ws) for n, ws in sorted(self.by_length.items())}

    def filtered(
        self, min_score: int | None = None, banned: Iterable[str] = (), only: AbstractSet[str] | None = None
    ) -> Lexicon:
        """A new lexicon without entries below ``min_score``, in ``banned`` or (when given) outside
        ``only`` (normalised entries)."""
        banned_set = {normalize_entry(w) for w in banned}
        keep = {
            w: s
            for w, s in self.scores.items()
            if (min_score is None or s >= min_score) and w not in banned_set and (only is None or w in only)
        }
        multiplicity = {w: n for w, n in self.multiplicity.items() if w in keep}
        return Lexicon(keep, self.display, self.clues, self.name, multiplicity)

    def with_entries(self, entries: dict[str, int]) -> Lexicon:
        """A new lexicon with extra entries (entry -> score) added or rescored."""
        if self._scores is None and self._ready is not None:  # the built-in list: stay unpacked
            return Lexicon(
                None, self.display, self.clues, self.name, self.multiplicity, ready=self._ready.with_entries(entries)
            )
        scores = dict(self.scores)
        scores.update(entries)
        return Lexicon(scores, self.display, self.clues, self.name, self.multiplicity)

    def word_uses(self) -> dict[str, int]:
        """Entry -> how many times the list names it (1 when not counted)."""
        return {w: self.multiplicity.get(w, 1) for w in self.scores}

    def display_form(self, entry: str) -> str:
        return self.display.get(entry, entry)

    def clue(self, entry: str) -> str | None:
        return self.clues.get(entry)
