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

import os
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..core.glyphs import normalize_entry, split_glyphs
from .ready_file import LengthSections, MappedBits, MappedSections, pack, unpack

if TYPE_CHECKING:
    import mmap

#: Score of an entry whose list gives none (Crossfire and Ingrid use 50 as "ordinary").
DEFAULT_SCORE = 50
#: Scores are whole numbers within this bound (either sign): room for any scale a word list uses,
#: while sums over a grid stay exact in 64-bit integers (CP-SAT's objective, numpy arrays).
MAX_SCORE = 10**9

#: Word indexes over an alphabet of more than 254 glyphs (Bangla's clusters) and up to this many
#: words build their bitsets bit by bit in plain Python; larger ones with numpy. Smaller
#: alphabets (English, Arabic) never need numpy for them: see :meth:`WordIndex._build_bits`.
SMALL_INDEX = 4096

#: Bitsets are kept in a ready index's file for the lengths where they take at most this many
#: times the bytes of the entries' text: always for alphabets like English and Arabic, never for
#: the thousands of Bangla glyph clusters (about 100 MB), whose bitsets are built on first use.
STORED_BITS_RATIO = 8


def glyph_count(entry: str) -> int:
    """Number of cells an entry fills (fast path for ASCII)."""
    return len(entry) if entry.isascii() else len(split_glyphs(entry))


def entry_glyphs(entry: str) -> tuple[str, ...]:
    return tuple(entry) if entry.isascii() else tuple(split_glyphs(entry))


def _valid_entry(entry: str) -> bool:
    """Letters, marks and digits only: what a cell can hold."""
    return bool(entry) and all(unicodedata.category(ch)[0] in "LMN" for ch in entry)


class WordIndex:
    """All words of one length, best first, with one bitset per (position, glyph).

    Attributes:
        length: Glyphs per word.
        words: Entries, sorted by descending score then alphabetically.
        scores: Score of each word.
        bits: ``bits[pos][glyph_id]`` is the bitset of words with that glyph at that position
            (0 when none).
        full: The bitset of all words.
        alphabet: Glyph -> id, shared by every index of one lexicon.
    """

    def __init__(
        self,
        length: int,
        words: list[str],
        scores: list[int],
        alphabet: dict[str, int],
        *,
        bits: list[list[int]] | None = None,
    ):
        """``bits``, when given, are the bitsets already built (a ready index keeps them)."""
        self.length = length
        self.alphabet = alphabet
        self.words = tuple(words)
        self.scores = tuple(scores)
        self.full = (1 << len(words)) - 1
        self._position: dict[str, int] | None = None
        self._codes: dict[int, tuple[int, ...]] = {}
        self._matrix: Any = None
        self._score_array: Any = None
        self._packed_columns: tuple[Any, Any] | None = None
        self.bits = bits if bits is not None else self._build_bits()

    @property
    def position(self) -> dict[str, int]:
        """Entry -> word id (built on first use: a fill seldom asks)."""
        if self._position is None:
            self._position = {word: i for i, word in enumerate(self.words)}
        return self._position

    def code(self, word_id: int) -> tuple[int, ...]:
        """A word as a tuple of glyph ids."""
        found = self._codes.get(word_id)
        if found is None:
            found = tuple(self.alphabet[g] for g in entry_glyphs(self.words[word_id]))
            self._codes[word_id] = found
        return found

    @property
    def matrix(self) -> Any:
        """All words as a numpy (words x length) array of glyph ids (built on first use)."""
        if self._matrix is None:
            self._matrix = self._code_matrix()
        return self._matrix

    @property
    def packed_columns(self) -> tuple[Any, Any]:
        """The bitsets as numpy arrays (built on first use, for the compiled propagation loop):
        ``(starts, words)`` where ``starts[pos, glyph]`` is where that bitset begins in the
        ``uint64`` array ``words`` (-1 when no word has the glyph there); each bitset takes
        ``ceil(len(self) / 64)`` words, little-endian."""
        if self._packed_columns is None:
            import numpy as np

            nbytes = (len(self.words) + 63) // 64 * 8
            starts = np.full((self.length, max(1, len(self.alphabet))), -1, dtype=np.int64)
            pieces: list[bytes] = []
            for pos, position in enumerate(self.bits):
                for g, column in enumerate(position):
                    if column:
                        starts[pos, g] = len(pieces) * (nbytes // 8)
                        pieces.append(column.to_bytes(nbytes, "little"))
            self._packed_columns = (starts, np.frombuffer(b"".join(pieces), dtype=np.uint64))
        return self._packed_columns

    @property
    def score_array(self) -> Any:
        """The scores as a numpy array (built on first use)."""
        if self._score_array is None:
            import numpy as np

            self._score_array = np.array(self.scores, dtype=np.int64)
        return self._score_array

    def _code_matrix(self) -> Any:
        import numpy as np

        n = len(self.words)
        if all(w.isascii() for w in self.words):
            table = np.zeros(128, dtype=np.int32)
            for glyph, gid in self.alphabet.items():
                if len(glyph) == 1 and ord(glyph) < 128:
                    table[ord(glyph)] = gid
            raw = np.frombuffer("".join(self.words).encode("ascii"), dtype=np.uint8)
            return table[raw].reshape(n, self.length)
        rows = [[self.alphabet[g] for g in entry_glyphs(w)] for w in self.words]
        return np.array(rows, dtype=np.int32).reshape(n, self.length)

    def _build_bits(self) -> list[list[int]]:
        bits = [[0] * len(self.alphabet) for _ in range(self.length)]
        if not self.words:
            return bits
        if len(self.alphabet) < 255:
            columns = self._id_columns()
            if columns is not None:
                return self._bits_from_columns(columns, bits)
        if len(self.words) <= SMALL_INDEX:
            for w in range(len(self.words)):
                bit = 1 << w
                for pos, gid in enumerate(self.code(w)):
                    bits[pos][gid] |= bit
            return bits
        import numpy as np  # numpy builds large bitsets ~50x faster than bit-by-bit Python ints

        codes = self.matrix
        for pos in range(self.length):
            column = codes[:, pos]
            for glyph in np.unique(column):
                packed = np.packbits(column == glyph, bitorder="little")
                bits[pos][int(glyph)] = int.from_bytes(packed.tobytes(), "little")
        return bits

    def _id_columns(self) -> list[bytes] | None:
        """Per position, the glyph id of every word as one byte (alphabets under 255 glyphs), or
        None when a word does not fit the index (the bit-by-bit build then says which)."""
        n = len(self.words)
        text = "".join(self.words)
        if text.isascii():
            table = bytearray(b"\xff" * 256)
            for glyph, gid in self.alphabet.items():
                if len(glyph) == 1 and glyph.isascii():
                    table[ord(glyph)] = gid
            flat = text.encode("ascii").translate(table)
        else:
            alphabet = self.alphabet
            try:
                flat = bytes([alphabet[g] for w in self.words for g in entry_glyphs(w)])
            except KeyError:
                return None
        if len(flat) != n * self.length or b"\xff" in flat:
            return None
        return [flat[pos :: self.length] for pos in range(self.length)]

    @staticmethod
    def _bits_from_columns(columns: list[bytes], bits: list[list[int]]) -> list[list[int]]:
        """The bitsets from the id columns without numpy: per (position, glyph), the column
        reversed (last word first) and translated to ``0``/``1`` digits is the bitset in base 2,
        which ``int`` reads in linear time."""
        digits = [b"0" * gid + b"1" + b"0" * (255 - gid) for gid in range(len(bits[0]))]
        for pos, column in enumerate(columns):
            reverse = column[::-1]
            row = bits[pos]
            for gid in range(len(row)):
                if gid.to_bytes(1, "little") in reverse:
                    row[gid] = int(reverse.translate(digits[gid]), 2)
        return bits

    def __len__(self) -> int:
        return len(self.words)

    def count_at_least(self, floor: int) -> int:
        """How many words score ``floor`` or more: they are the ids below this (best first), so
        ``(1 << index.count_at_least(50)) - 1`` is the bitset of the words scored 50 and up.

        >>> index = Lexicon.from_words(["cat", "cot", "cut"], scores={"CAT": 70, "COT": 40}).index(3)
        >>> index.scores, index.count_at_least(50), index.count_at_least(40), index.count_at_least(10)
        ((70, 50, 40), 2, 3, 3)
        """
        return bisect_right(self.scores, -floor, key=lambda score: -score)

    def match(self, pattern: Iterable[str | None]) -> int:
        """Bitset of the words matching a pattern (``""`` or ``None`` for any glyph)."""
        result = self.full
        for pos, glyph in enumerate(pattern):
            if glyph:
                gid = self.alphabet.get(glyph)
                result &= self.bits[pos][gid] if gid is not None else 0
        return result

    @staticmethod
    def iter_ids(bitset: int) -> Iterator[int]:
        """Word ids in a bitset, lowest (best) first."""
        while bitset:
            low = bitset & -bitset
            yield low.bit_length() - 1
            bitset ^= low

    @staticmethod
    def id_array(bitset: int) -> Any:
        """Word ids in a bitset as an ascending numpy array (fast for large bitsets)."""
        import numpy as np

        raw = np.frombuffer(bitset.to_bytes((bitset.bit_length() + 7) // 8, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


class ReadyIndex:
    """What a :class:`Lexicon` would compute on first use, kept ready and unpacked one length at
    a time (the built-in lists' cache): a fill of a 15x15 grid touches a handful of lengths of a
    289,000-entry list, and unpickling every entry as a dict costs more than the fill.

    Args:
        packed: Length in glyphs -> (the entries of that length best first — descending score,
            then alphabetical — joined by newlines, their scores as ``array('i')`` bytes).
        alphabet: Glyph -> id over every entry (sorted glyphs).
        counts: Length -> number of entries, when known without unpacking ``packed``.
        bitsets: Length -> the bitsets of its :class:`WordIndex` packed as by
            :meth:`to_bytes` (a file's ``(keys, blob, stride)``); the lengths not in it build
            theirs on first use.

    :meth:`to_bytes` writes all of it as one file and :meth:`load` maps such a file into memory,
    reading only the lengths that are asked for.
    """

    def __init__(
        self,
        packed: Mapping[int, tuple[str, bytes]],
        alphabet: dict[str, int],
        *,
        counts: Mapping[int, int] | None = None,
        bitsets: Mapping[int, tuple[bytes, bytes, int]] | None = None,
    ):
        self.packed = packed
        self.alphabet = alphabet
        self._counts = counts
        self._bitsets: Mapping[int, tuple[bytes, bytes, int]] = bitsets if bitsets is not None else {}
        self._words: dict[int, list[str]] = {}
        self._scores: dict[int, list[int]] = {}
        self._members: dict[int, frozenset[str]] = {}

    @classmethod
    def of(cls, scores: dict[str, int]) -> ReadyIndex:
        lexicon = Lexicon(scores)
        packed: dict[int, tuple[str, bytes]] = {}
        for n, group in sorted(lexicon.by_length.items()):
            ranked = sorted(group, key=lambda w: (-scores[w], w))
            packed[n] = ("\n".join(ranked), array("i", [scores[w] for w in ranked]).tobytes())
        return cls(packed, lexicon.alphabet)

    def with_entries(self, entries: Mapping[str, int]) -> ReadyIndex:
        """This index with more entries (entry -> score; an entry it has takes the new score),
        unpacked one length at a time like this one; the bitsets are built on first use."""
        added: dict[int, list[tuple[str, int]]] = {}
        for entry, score in entries.items():
            added.setdefault(glyph_count(entry), []).append((entry, score))
        glyphs = set(self.alphabet)
        for entry in entries:
            glyphs.update(entry_glyphs(entry))
        alphabet = self.alphabet if len(glyphs) == len(self.alphabet) else {g: i for i, g in enumerate(sorted(glyphs))}
        return ReadyIndex(_MergedSections(self, added), alphabet)

    def to_bytes(self, extra: Mapping[str, Any] | None = None) -> bytes:
        """The whole index as one file (:mod:`.ready_file`): per length its entries, their scores
        and, where they are small enough (:data:`STORED_BITS_RATIO`), its bitsets, one per
        (position, glyph) present. ``extra`` holds JSON values the caller keeps with it."""
        lengths: dict[int, LengthSections] = {}
        for n in self.lengths:
            text, scores = self.packed[n]
            count = self.count(n)
            words = text.encode("utf-8")
            stride = (count + 7) // 8
            keys = array("H")
            blobs: list[bytes] = []
            bits = WordIndex(n, self.words(n), self.scores(n), self.alphabet).bits
            present = [(pos, gid) for pos in range(n) for gid, bitset in enumerate(bits[pos]) if bitset]
            if count and len(present) * stride <= STORED_BITS_RATIO * len(words):
                for pos, gid in present:
                    keys.extend((pos, gid))
                    blobs.append(bits[pos][gid].to_bytes(stride, "little"))
            lengths[n] = LengthSections(count, words, scores, keys.tobytes(), b"".join(blobs), stride)
        return pack(self.alphabet, extra or {}, lengths)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> tuple[ReadyIndex, dict[str, Any]]:
        """A ready index from a file of :meth:`to_bytes`, mapped into memory (a length's
        sections are read when it is first used), and the ``extra`` values stored with it.

        Raises:
            OSError: the file cannot be read.
            ValueError: it is not such a file, of this layout, whole.
        """
        import mmap

        with open(path, "rb") as handle:
            try:
                data: bytes | mmap.mmap = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # empty file, or a file system without mmap
                data = handle.read()
        return cls.from_buffer(data)

    @classmethod
    def from_buffer(cls, data: bytes | mmap.mmap) -> tuple[ReadyIndex, dict[str, Any]]:
        """Like :meth:`load`, from the bytes of such a file."""
        alphabet, extra, places, body = unpack(data)
        counts = {n: found.entries for n, found in places.items()}
        packed = MappedSections(data, body, places)
        return cls(packed, alphabet, counts=counts, bitsets=MappedBits(data, body, places)), extra

    @property
    def lengths(self) -> list[int]:
        return sorted(self.packed)

    def words(self, length: int) -> list[str]:
        found = self._words.get(length)
        if found is None:
            text = self.packed[length][0] if length in self.packed else ""
            found = text.split("\n") if text else []
            expected = self.count(length)
            if len(found) != expected:
                raise ValueError(f"damaged word index: {len(found)} entries of length {length}, not {expected}")
            self._words[length] = found
        return found

    def scores(self, length: int) -> list[int]:
        found = self._scores.get(length)
        if found is None:
            values = array("i")
            if length in self.packed:
                values.frombytes(self.packed[length][1])
            found = values.tolist()
            self._scores[length] = found
        return found

    def bits(self, length: int) -> list[list[int]] | None:
        """The bitsets of the :class:`WordIndex` of a length when they are kept ready, else None."""
        found = self._bitsets.get(length)
        if found is None:
            return None
        keys, blob, stride = found
        ids = array("H")
        ids.frombytes(keys)
        bits = [[0] * len(self.alphabet) for _ in range(length)]
        if len(blob) != len(ids) // 2 * stride or stride != (self.count(length) + 7) // 8:
            raise ValueError(f"damaged bitsets of length {length}")
        for k in range(0, len(ids), 2):
            at = k // 2 * stride
            bits[ids[k]][ids[k + 1]] = int.from_bytes(blob[at : at + stride], "little")
        return bits

    def count(self, length: int) -> int:
        if self._counts is not None:
            return self._counts.get(length, 0)
        return len(self.packed[length][1]) // array("i").itemsize if length in self.packed else 0

    def __contains__(self, entry: str) -> bool:
        length = glyph_count(entry)
        members = self._members.get(length)
        if members is None:
            members = self._members[length] = frozenset(self.words(length))
        return entry in members

    def __len__(self) -> int:
        return sum(self.count(n) for n in self.packed)


class _MergedSections(Mapping[int, tuple[str, bytes]]):
    """A ready index's entries and scores by length with some added (:meth:`ReadyIndex.with_entries`)."""

    def __init__(self, base: ReadyIndex, added: dict[int, list[tuple[str, int]]]):
        self.base = base
        self.added = added
        self.lengths = sorted(set(base.packed) | set(added))
        self._merged: dict[int, tuple[str, bytes]] = {}

    def __getitem__(self, length: int) -> tuple[str, bytes]:
        if length not in self.added:
            return self.base.packed[length]
        found = self._merged.get(length)
        if found is not None:
            return found
        new = dict(self.added[length])
        words, scores = self.base.words(length), self.base.scores(length)
        if new.keys() & set(words):  # rescored entries leave their old place
            kept = [i for i, word in enumerate(words) if word not in new]
            words, scores = [words[i] for i in kept], [scores[i] for i in kept]
        else:
            words, scores = list(words), list(scores)
        for entry, score in sorted(new.items()):
            # both lists stay ranked: descending score, then alphabetical
            at = bisect_left(range(len(words)), (-score, entry), key=lambda i: (-scores[i], words[i]))
            words.insert(at, entry)
            scores.insert(at, score)
        found = self._merged[length] = ("\n".join(words), array("i", scores).tobytes())
        return found

    def __contains__(self, length: object) -> bool:
        return length in self.added or length in self.base.packed

    def __iter__(self) -> Iterator[int]:
        return iter(self.lengths)

    def __len__(self) -> int:
        return len(self.lengths)


class Lexicon:
    """A normalised word list: entry -> score, display form and clue, with lazy indexes.

    Build one with :meth:`from_words`, :func:`load_word_lists` or
    :func:`csp_crossword.words.builtin.builtin_lexicon`.
    """

    def __init__(
        self,
        scores: dict[str, int] | None,
        display: Mapping[str, str] | None = None,
        clues: dict[str, str] | None = None,
        name: str = "lexicon",
        multiplicity: dict[str, int] | None = None,
        *,
        ready: ReadyIndex | None = None,
    ):
        """``scores`` may be None when ``ready`` (the cached built-in lists) holds the entries:
        the entry -> score table is then made only if something asks for all of it."""
        if scores is None and ready is None:
            raise ValueError("a lexicon needs its scores or a ready index")
        self._scores = scores
        self.multiplicity = multiplicity or {}
        # not `display or {}`: a lazily read table (the built-in list's) would load to answer len()
        self.display: Mapping[str, str] = display if display is not None else {}
        self.clues = clues or {}
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
            self._scores = {w: s for n in ready.lengths for w, s in zip(ready.words(n), ready.scores(n))}
        return self._scores

    @classmethod
    def from_words(cls, words: Iterable[str], scores: Mapping[str, int] | None = None, name: str = "words") -> Lexicon:
        """A lexicon from an iterable of words (normalised here), default score 50."""
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
        for word, score in (scores or {}).items():
            if isinstance(score, bool) or not isinstance(score, int) or abs(score) > MAX_SCORE:
                raise ValueError(f"the score of {word!r} must be a whole number within +-{MAX_SCORE:,}: {score!r}")
            table[normalize_entry(word)] = score
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

    def filtered(self, min_score: int | None = None, banned: Iterable[str] = ()) -> Lexicon:
        """A new lexicon without entries below ``min_score`` or in ``banned``."""
        banned_set = {normalize_entry(w) for w in banned}
        keep = {w: s for w, s in self.scores.items() if (min_score is None or s >= min_score) and w not in banned_set}
        multiplicity = {w: n for w, n in self.multiplicity.items() if w in keep}
        return Lexicon(keep, self.display, self.clues, self.name, multiplicity)

    def with_entries(self, entries: dict[str, int]) -> Lexicon:
        """A new lexicon with extra entries (entry -> score) added or rescored."""
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
