"""A word list kept ready: entries, scores and bitsets by length, unpacked one length at a time
(the built-in lists' cache, memory-mapped from a ready file)."""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .ready_file import LengthSections, MappedBits, MappedSections, pack, unpack

if TYPE_CHECKING:
    import mmap

from .word_index import STORED_BITS_RATIO, WordIndex, entry_glyphs, glyph_count


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
        """The ready index of entry -> score (glyph ids as a :class:`Lexicon` numbers them: the
        sorted glyphs of every entry)."""
        # three stable sorts at C speed instead of one with a tuple key per entry: by entry, then
        # best score first, then by length
        ranked = sorted(scores)
        ranked.sort(key=scores.__getitem__, reverse=True)
        text = "".join(ranked)
        if text.isascii():
            glyphs = set(text)
            ranked.sort(key=len)
            lengths = list(map(len, ranked))
        else:
            glyphs = {g for entry in ranked for g in entry_glyphs(entry)}
            ranked.sort(key=glyph_count)
            lengths = list(map(glyph_count, ranked))
        packed: dict[int, tuple[str, bytes]] = {}
        start = 0
        while start < len(ranked):
            n = lengths[start]
            end = bisect_right(lengths, n, start)
            group = ranked[start:end]
            packed[n] = ("\n".join(group), array("i", map(scores.__getitem__, group)).tobytes())
            start = end
        return cls(packed, {g: i for i, g in enumerate(sorted(glyphs))})

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
