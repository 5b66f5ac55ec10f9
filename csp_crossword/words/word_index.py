"""The bitset word index of one length, and what a word list's entries are.

A :class:`WordIndex` holds the words of one length sorted best first and one bitset (a Python
int) per (position, glyph): bit ``i`` is set when word ``i`` has that glyph there. A pattern is
the AND of the bitsets of its filled positions, and a candidate count is a popcount (the layout
of Crosshare's word index).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..core.glyphs import split_glyphs

if TYPE_CHECKING:
    pass


#: Score of an entry whose list gives none (Crossfire and Ingrid use 50 as "ordinary").
DEFAULT_SCORE = 50
#: Scores are whole numbers within this bound (either sign): room for any scale a word list uses,
#: while sums over a grid stay exact in 64-bit integers (CP-SAT's objective, numpy arrays).
MAX_SCORE = 10**9

#: Word indexes of up to this many words build their bitsets without numpy (bit by bit over an
#: alphabet of more than 254 glyphs, Bangla's clusters; from byte columns over a smaller one), so
#: that a small problem never imports it; larger ones with numpy (:meth:`WordIndex._build_bits`).
SMALL_INDEX = 4096

#: Bitsets are kept in a ready index's file for the lengths where they take at most this many
#: times the bytes of the entries' text: always for alphabets like English and Arabic, never for
#: the thousands of Bangla glyph clusters (about 100 MB), whose bitsets are built on first use.
STORED_BITS_RATIO = 8


def glyph_count(entry: str) -> int:
    """Number of cells an entry fills (fast path for ASCII)."""
    return len(entry) if entry.isascii() else len(split_glyphs(entry))


def checked_score(word: object, score: object) -> int:
    """``score`` when it is a whole number within +-MAX_SCORE (not a bool), else ValueError
    naming ``word``: a score given in code (a mapping), not read from a file.

    >>> checked_score("cat", 70), checked_score("cat", -5)
    (70, -5)
    >>> checked_score("cat", 1.5)
    Traceback (most recent call last):
    ValueError: the score of 'cat' must be a whole number within +-1,000,000,000: 1.5
    """
    if isinstance(score, bool) or not isinstance(score, int) or abs(score) > MAX_SCORE:
        raise ValueError(f"the score of {word!r} must be a whole number within +-{MAX_SCORE:,}: {score!r}")
    return score


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

    def id_of(self, entry: str) -> int | None:
        """An entry's word id, or None: a lookup in :attr:`position` once that is built, else one
        pattern match (building the whole mapping costs more than a fill's few lookups).

        >>> from csp_crossword.words.lexicon import Lexicon
        >>> index = Lexicon.from_words(["cat", "cot", "cut"], scores={"CAT": 70, "COT": 40}).index(3)
        >>> index.id_of("CUT"), index.id_of("DOG")
        (1, None)
        """
        if self._position is not None:
            return self._position.get(entry)
        glyphs = entry_glyphs(entry)
        found = self.match(glyphs) if len(glyphs) == self.length else 0
        return found.bit_length() - 1 if found else None

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
        text = "".join(self.words)
        if text.isascii():
            table = np.zeros(128, dtype=np.int32)
            for glyph, gid in self.alphabet.items():
                if len(glyph) == 1 and ord(glyph) < 128:
                    table[ord(glyph)] = gid
            raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
            return table[raw].reshape(n, self.length)
        rows = [[self.alphabet[g] for g in entry_glyphs(w)] for w in self.words]
        return np.array(rows, dtype=np.int32).reshape(n, self.length)

    def _build_bits(self) -> list[list[int]]:
        bits = [[0] * len(self.alphabet) for _ in range(self.length)]
        if not self.words:
            return bits
        if len(self.alphabet) < 255:
            columns = self._id_columns()
            if columns is not None and len(self.words) > SMALL_INDEX:
                return self._bits_from_columns_numpy(columns, bits)
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

    @staticmethod
    def _bits_from_columns_numpy(columns: list[bytes], bits: list[list[int]]) -> list[list[int]]:
        """The same bitsets with numpy (twenty times faster on a large index; a small one is
        built without it, so that a small problem never imports numpy): per (position, glyph),
        the packed bits of ``column == glyph``."""
        import numpy as np

        for pos, column in enumerate(columns):
            ids = np.frombuffer(column, dtype=np.uint8)
            row = bits[pos]
            for gid in np.unique(ids).tolist():
                row[gid] = int.from_bytes(np.packbits(ids == gid, bitorder="little").tobytes(), "little")
        return bits

    def __len__(self) -> int:
        return len(self.words)

    def count_at_least(self, floor: int) -> int:
        """How many words score ``floor`` or more: they are the ids below this (best first), so
        ``(1 << index.count_at_least(50)) - 1`` is the bitset of the words scored 50 and up.

        >>> from csp_crossword.words.lexicon import Lexicon
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
