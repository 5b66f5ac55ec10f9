"""The file layout of a ready word index (:class:`~csp_crossword.words.lexicon.ReadyIndex`), the
built-in lists' cache.

A cache lives in a directory other programs can write to, so reading one must never run code or
trust what it says: the header is JSON (no pickle, no marshal), every number in it is checked to
be a whole number that places its section inside the file, and anything else is a ``ValueError``
(the caller then rebuilds the cache from its source).

Layout: :data:`READY_MAGIC`; the layout version and the header's size (two little-endian
``uint32``); the header (UTF-8 JSON: the alphabet, the caller's ``extra`` values and per length
its :class:`LengthPlaces`); then the sections, per length its entries (UTF-8, newline-separated),
their scores (``array('i')``, this machine's byte order: the file is a cache of this machine),
the (position, glyph id) keys of its stored bitsets (``array('H')``) and the bitsets,
``stride`` bytes little-endian each.
"""

from __future__ import annotations

import json
import struct
from array import array
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, TypeGuard

if TYPE_CHECKING:
    import mmap

#: The first bytes of a ready index file.
READY_MAGIC = b"CSPXRDY\n"
#: Bumped when the layout changes; a file of another layout is refused with ValueError. Layout 2
#: replaced layout 1's marshal header with JSON.
READY_LAYOUT = 2
_PREFIX = struct.Struct("<II")
#: Bytes of one score (``array('i')``).
SCORE_BYTES = array("i").itemsize


class LengthPlaces(NamedTuple):
    """Where one length's sections are, as offsets from the end of the header (``bits_at`` is
    -1 when the bitsets are not stored: they are then built on first use)."""

    entries: int
    words_at: int
    words_size: int
    scores_at: int
    scores_size: int
    bits_at: int
    stride: int
    keys_at: int
    keys_size: int


class LengthSections(NamedTuple):
    """One length's data as :func:`pack` writes it (``bits`` empty when not stored)."""

    entries: int
    words: bytes
    scores: bytes
    keys: bytes
    bits: bytes
    stride: int


def pack(alphabet: Mapping[str, int], extra: Mapping[str, Any], lengths: Mapping[int, LengthSections]) -> bytes:
    """One file of a ready index. ``extra`` must be JSON values (dict keys strings)."""
    sections: list[bytes] = []
    offset = 0

    def place(data: bytes) -> int:
        nonlocal offset
        sections.append(data)
        offset += len(data)
        return offset - len(data)

    places: dict[str, list[int]] = {}
    for n, found in lengths.items():
        words_at = place(found.words)
        scores_at = place(found.scores)
        keys_at = place(found.keys)
        bits_at = place(found.bits) if found.bits else -1
        words, scores, keys = (words_at, len(found.words)), (scores_at, len(found.scores)), (keys_at, len(found.keys))
        places[str(n)] = [found.entries, *words, *scores, bits_at, found.stride, *keys]
    header = json.dumps(
        {"alphabet": dict(alphabet), "extra": dict(extra), "lengths": places, "size": offset},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8")
    return b"".join([READY_MAGIC, _PREFIX.pack(READY_LAYOUT, len(header)), header, *sections])


def unpack(data: bytes | mmap.mmap) -> tuple[dict[str, int], dict[str, Any], dict[int, LengthPlaces], int]:
    """The alphabet, the extra values, the places by length and where the sections start.

    Raises:
        ValueError: not a ready index file, of another layout, truncated, or its header does not
            describe its sections.
    """
    start = len(READY_MAGIC) + _PREFIX.size
    if len(data) < start or data[: len(READY_MAGIC)] != READY_MAGIC:
        raise ValueError("not a ready word index")
    layout, header_size = _PREFIX.unpack(data[len(READY_MAGIC) : start])
    if layout != READY_LAYOUT:
        raise ValueError(f"ready word index of layout {layout}, not {READY_LAYOUT}")
    body = start + header_size
    if len(data) < body:
        raise ValueError("truncated ready word index")
    try:
        header = json.loads(bytes(data[start:body]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"damaged ready word index header: {error}") from None
    if not isinstance(header, dict):
        raise ValueError("damaged ready word index header")
    size, alphabet, extra, lengths = (header.get(key) for key in ("size", "alphabet", "extra", "lengths"))
    if not _whole(size) or len(data) != body + size:
        raise ValueError("truncated ready word index")
    if not isinstance(alphabet, dict) or not all(isinstance(g, str) and _whole(i) for g, i in alphabet.items()):
        raise ValueError("damaged ready word index alphabet")
    if not isinstance(extra, dict) or not isinstance(lengths, dict):
        raise ValueError("damaged ready word index header")
    places = {_length(key): _places(value, size) for key, value in lengths.items()}
    for n, found in places.items():
        keys = array("H")
        keys.frombytes(data[body + found.keys_at : body + found.keys_at + found.keys_size])
        # a key out of range would index past the bitset table when the length is first used
        if any(keys[k] >= n or keys[k + 1] >= len(alphabet) for k in range(0, len(keys), 2)):
            raise ValueError(f"damaged ready word index: bitset keys of length {n}")
    return alphabet, extra, places, body


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _length(key: str) -> int:
    if not key.isdigit() or not 0 < int(key) < 10_000:
        raise ValueError(f"damaged ready word index: length {key!r}")
    return int(key)


def _places(value: object, size: int) -> LengthPlaces:
    if not isinstance(value, list) or len(value) != len(LengthPlaces._fields):
        raise ValueError("damaged ready word index places")
    found = LengthPlaces(*value)
    if not all(_whole(v) for i, v in enumerate(found) if i != 5) or not (found.bits_at == -1 or _whole(found.bits_at)):
        raise ValueError("damaged ready word index places")
    bits_size = found.keys_size // 4 * found.stride
    spans = [(found.words_at, found.words_size), (found.scores_at, found.scores_size), (found.keys_at, found.keys_size)]
    if found.bits_at >= 0:
        spans.append((found.bits_at, bits_size))
    if found.scores_size != found.entries * SCORE_BYTES or found.keys_size % 4:
        raise ValueError("damaged ready word index places")
    if any(at + length > size for at, length in spans):
        raise ValueError("damaged ready word index: a section lies outside the file")
    return found


class MappedSections(Mapping[int, tuple[str, bytes]]):
    """A ready index file's entries and scores by length, read from the file when asked for."""

    def __init__(self, data: bytes | mmap.mmap, body: int, places: Mapping[int, LengthPlaces]):
        self.data = data
        self.body = body
        self.places = places

    def __getitem__(self, length: int) -> tuple[str, bytes]:
        found = self.places[length]
        at = self.body + found.words_at
        try:
            text = self.data[at : at + found.words_size].decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"damaged ready word index entries of length {length}: {error}") from None
        at = self.body + found.scores_at
        return text, self.data[at : at + found.scores_size]

    def __contains__(self, length: object) -> bool:
        return length in self.places

    def __iter__(self) -> Iterator[int]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)


class MappedBits(Mapping[int, tuple[bytes, bytes, int]]):
    """A ready index file's stored bitsets by length: (keys, bitsets, stride)."""

    def __init__(self, data: bytes | mmap.mmap, body: int, places: Mapping[int, LengthPlaces]):
        self.data = data
        self.body = body
        self.stored = {n: found for n, found in places.items() if found.bits_at >= 0}

    def __getitem__(self, length: int) -> tuple[bytes, bytes, int]:
        found = self.stored[length]
        keys = self.data[self.body + found.keys_at : self.body + found.keys_at + found.keys_size]
        at = self.body + found.bits_at
        return keys, self.data[at : at + found.keys_size // 4 * found.stride], found.stride

    def __contains__(self, length: object) -> bool:
        return length in self.stored

    def __iter__(self) -> Iterator[int]:
        return iter(self.stored)

    def __len__(self) -> int:
        return len(self.stored)
