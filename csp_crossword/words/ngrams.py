"""No two entries sharing a run of N glyphs (``--no-shared-substring N``): the N-gram masks.

A run (N-gram) is a tuple of N consecutive glyph ids of a word. For one length, the words
containing a run are found from the :class:`WordIndex` bitsets alone: the OR, over every place
the run can start, of the AND of the (position, glyph) bitsets of its glyphs. Nothing is
precomputed: a mask is made when a search first asks for it and kept (up to
:data:`CACHE_LIMIT` masks).

>>> from csp_crossword.words.lexicon import Lexicon
>>> lex = Lexicon.from_words(["STARTLE", "RESTART", "CARTELS", "STAR"])
>>> masks = RunMasks([lex.index(7), lex.index(4)], 4)
>>> seven = lex.index(7)
>>> [seven.words[w] for w in WordIndex.iter_ids(masks.conflicts(seven, seven.position["STARTLE"], 7))]
['RESTART', 'STARTLE']
>>> masks.conflicts(seven, seven.position["STARTLE"], 4) == 1
True
>>> sorted("".join(run) for run in runs("STARTLE", 4))
['ARTL', 'RTLE', 'STAR', 'TART']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from .word_index import WordIndex

#: The shortest run the rule accepts: a run of one glyph would forbid every shared letter.
MIN_RUN = 2
#: Run masks kept per :class:`RunMasks` before the cache is emptied (each one is a bitset over
#: the words of one length).
CACHE_LIMIT = 1 << 15

T = TypeVar("T")


def check_run_length(n: object, name: str = "no_shared_substring") -> int:
    """``n`` when it is an integer of at least :data:`MIN_RUN`, else ValueError saying so."""
    if isinstance(n, bool) or not isinstance(n, int) or n < MIN_RUN:
        raise ValueError(f"{name} must be a whole number, {MIN_RUN} or more (got {n!r})")
    return n


def runs(glyphs: Sequence[T], n: int) -> set[tuple[T, ...]]:
    """The distinct runs of ``n`` consecutive items of ``glyphs`` (none when it is shorter)."""
    return {tuple(glyphs[k : k + n]) for k in range(len(glyphs) - n + 1)}


class RunMasks:
    """For the words of some lengths: which share a run of ``n`` glyphs with a given word.

    Args:
        indexes: The word indexes of the lengths concerned (one lexicon: one alphabet).
        n: The run length.
    """

    def __init__(self, indexes: Iterable[WordIndex], n: int):
        self.n = check_run_length(n)
        self.indexes = {index.length: index for index in indexes}
        self._masks: dict[tuple[int, tuple[int, ...]], int] = {}

    def containing(self, length: int, run: tuple[int, ...]) -> int:
        """Bitset of the words of ``length`` that contain ``run`` (glyph ids) somewhere."""
        key = (length, run)
        found = self._masks.get(key)
        if found is not None:
            return found
        index = self.indexes[length]
        bits = index.bits
        found = 0
        for start in range(length - len(run) + 1):
            mask = index.full
            for k, glyph in enumerate(run):
                mask &= bits[start + k][glyph]
                if not mask:
                    break
            found |= mask
        if len(self._masks) >= CACHE_LIMIT:
            self._masks.clear()
        self._masks[key] = found
        return found

    def conflicts(self, index: WordIndex, word: int, length: int) -> int:
        """Bitset of the words of ``length`` sharing a run of ``n`` glyphs with word ``word``
        of ``index`` (the word itself included when ``length`` is its own)."""
        found = 0
        for run in runs(index.code(word), self.n):
            found |= self.containing(length, run)
        return found


def run_sets(index: WordIndex, domain: int, n: int) -> dict[int, set[tuple[int, ...]]]:
    """Word id -> its runs of ``n`` glyph ids, for every word of ``domain``."""
    return {w: runs(index.code(w), n) for w in WordIndex.iter_ids(domain)}


def words_by_run(index: WordIndex, domain: int, n: int) -> dict[Hashable, list[int]]:
    """Run -> ids of the words of ``domain`` that hold it (each word once), for every run of
    ``n`` glyphs. With numpy for large domains: a run is then keyed by an integer, its glyph ids
    in base ``len(alphabet)`` (the same key for every length of one lexicon); else by its tuple
    of glyph ids. One problem uses one kind of key: the choice depends only on the alphabet and n.
    """
    base = max(len(index.alphabet), 1)
    if index.length < n or not domain:
        return {}
    if base**n >= 1 << 62:
        found: dict[Hashable, list[int]] = {}
        for w, held in run_sets(index, domain, n).items():
            for run in held:
                found.setdefault(run, []).append(w)
        return found
    import numpy as np

    ids = WordIndex.id_array(domain)
    codes = index.matrix[ids].astype(np.int64)
    width = index.length - n + 1
    keys = np.zeros((len(ids), width), dtype=np.int64)
    for j in range(n):
        keys = keys * base + codes[:, j : j + width]
    flat, rows = keys.ravel(), np.repeat(ids, width)
    order = np.lexsort((rows, flat))
    flat, rows = flat[order], rows[order]
    keep = np.ones(len(flat), dtype=bool)
    keep[1:] = (flat[1:] != flat[:-1]) | (rows[1:] != rows[:-1])
    flat, rows = flat[keep], rows[keep]
    cuts = np.flatnonzero(np.diff(flat)) + 1
    starts = flat[np.concatenate(([0], cuts))]
    return {int(key): group.tolist() for key, group in zip(starts, np.split(rows, cuts), strict=True)}


def runs_of_domain(index: WordIndex, domain: int, n: int) -> set[tuple[int, ...]]:
    """Every run of ``n`` glyph ids that some word of ``domain`` contains."""
    found: set[tuple[int, ...]] = set()
    for w in WordIndex.iter_ids(domain):
        found |= runs(index.code(w), n)
    return found
