"""The bytes of an Across Lite ``.puz`` file: header, checksums, strings and extension sections.

All integers are little-endian. Offsets count from the start of the header, two bytes before the
``ACROSS&DOWN`` magic (whatever comes before it is ignored, as Across Lite does)::

    0x00 global checksum        0x02 "ACROSS&DOWN\\0"      0x0E header (CIB) checksum
    0x10 masked checksums (8)   0x18 version "1.3\\0"      0x1E scrambled-solution checksum
    0x2C width, 0x2D height, 0x2E clue count, 0x30 puzzle type, 0x32 solution state
    0x34 solution (one byte a cell), then the solver's fill, then NUL-terminated strings: title,
         author, copyright, the clues (by number, across before down), notes; then extension
         sections: code (4 bytes), length (2), checksum (2), data, NUL.

Text is UTF-8 from version 2.0 on. Before that the spec says ISO-8859-1, but Across Lite writes
Windows-1252 (curly quotes as 0x91-0x94): bytes 0x80-0x9F are read as Windows-1252.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

MAGIC = b"ACROSS&DOWN\0"
HEADER = struct.Struct("<H12sH8s4s2sH12sBBHHH")
MASK = b"ICHEATED"
TYPE_NORMAL, TYPE_DIAGRAMLESS = 0x0001, 0x0401
STATE_PLAIN, STATE_NO_SOLUTION, STATE_LOCKED = 0x0000, 0x0002, 0x0004
#: GEXT bits: the cell's answer was given (revealed) to the solver; the cell is circled.
GIVEN, CIRCLED = 0x40, 0x80
SECTION_CODES = (b"GRBS", b"RTBL", b"RUSR", b"LTIM", b"GEXT")

_CHAR_OF_BYTE = [bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(256)]
_BYTE_OF_CHAR = {ch: b for b, ch in enumerate(_CHAR_OF_BYTE)}
#: Latin-1's characters to Windows-1252's where the two differ (0x80-0x9F): decoding as Latin-1
#: and translating is one C call a string, where a per-byte lookup is a Python loop.
_LATIN1_TO_CP1252 = str.maketrans({chr(b): ch for b, ch in enumerate(_CHAR_OF_BYTE) if ch != chr(b)})


_compiled_checksum: Callable[[bytes, int], int] | None
try:
    from . import _checksum  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: the Python loop below
    _compiled_checksum = None
else:
    _compiled_checksum = _checksum.checksum


class Broken(Exception):
    """What makes a file unreadable, in words for the user (the reader adds the path)."""


def decode8(data: bytes) -> str:
    """Text of a version 1.x file: Latin-1 with Windows-1252 in 0x80-0x9F."""
    return data.decode("latin-1").translate(_LATIN1_TO_CP1252)


def encode8(text: str) -> bytes | None:
    """``text`` in the encoding :func:`decode8` reads, or None when a character has no byte."""
    try:
        return bytes(_BYTE_OF_CHAR[ch] for ch in text)
    except KeyError:
        return None


def checksum(data: bytes, value: int = 0) -> int:
    """The .puz checksum: rotate the 16-bit value right by one, add the byte (compiled when the
    package's ``_checksum`` extension is built: :func:`python_checksum` is its reference)."""
    return _compiled_checksum(data, value) if _compiled_checksum is not None else python_checksum(data, value)


def python_checksum(data: bytes, value: int = 0) -> int:
    """The .puz checksum in Python."""
    for byte in data:
        # + instead of | (the two parts share no bit): one operation fewer on a hot loop
        value = ((value >> 1) + ((value & 1) << 15) + byte) & 0xFFFF
    return value


@dataclass
class RawPuz:
    """A .puz file as its bytes say, strings still encoded."""

    width: int
    height: int
    version: bytes = b"1.3\0"
    puzzle_type: int = TYPE_NORMAL
    state: int = STATE_PLAIN
    scrambled_checksum: int = 0
    solution: bytes = b""
    fill: bytes = b""
    title: bytes = b""
    author: bytes = b""
    copyright: bytes = b""
    clues: list[bytes] = field(default_factory=list)
    notes: bytes = b""
    sections: dict[bytes, bytes] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def version_number(self) -> tuple[int, int] | None:
        found = re.match(rb"(\d+)\.(\d+)", self.version)
        return (int(found[1]), int(found[2])) if found else None

    @property
    def utf8(self) -> bool:
        return (self.version_number or (1, 3)) >= (2, 0)

    def header_fields(self) -> bytes:
        return struct.pack("<BBHHH", self.width, self.height, len(self.clues), self.puzzle_type, self.state)

    def _text_checksum(self, value: int) -> int:
        for text in (self.title, self.author, self.copyright):
            value = checksum(text + b"\0", value) if text else value
        for clue in self.clues:
            value = checksum(clue, value) if clue else value
        if self.notes and (self.version_number or (1, 3)) >= (1, 3):  # notes count from 1.3 on
            value = checksum(self.notes + b"\0", value)
        return value

    def checksums(self) -> tuple[int, int, bytes]:
        """(global, header, masked) checksums of the content."""
        cib = checksum(self.header_fields())
        parts = [cib, checksum(self.solution), checksum(self.fill), self._text_checksum(0)]
        whole = self._text_checksum(checksum(self.fill, checksum(self.solution, cib)))
        masked = bytes(MASK[i] ^ (p & 0xFF) for i, p in enumerate(parts))
        masked += bytes(MASK[4 + i] ^ (p >> 8) for i, p in enumerate(parts))
        return whole, cib, masked

    def tobytes(self) -> bytes:
        whole, cib, masked = self.checksums()
        out = bytearray(
            HEADER.pack(
                whole, MAGIC, cib, masked, self.version, b"\0\0", self.scrambled_checksum, bytes(12),
                self.width, self.height, len(self.clues), self.puzzle_type, self.state,
            )
        )  # fmt: skip
        out += self.solution + self.fill
        for value in (self.title, self.author, self.copyright, *self.clues, self.notes):
            out += value + b"\0"
        for code, data in self.sections.items():
            out += code + struct.pack("<HH", len(data), checksum(data)) + data + b"\0"
        return bytes(out)


def entry_count(solution: bytes, width: int, height: int) -> int:
    """How many entries (runs of two or more open cells) the grid has: the clues it needs."""
    # each row with a block on either side, and a row of blocks above and below: a neighbour is
    # one lookup with no bounds test
    border = [False] * (width + 2)
    rows = [border]
    for r in range(height):
        row = solution[r * width : (r + 1) * width]
        rows.append([False, *(row[c : c + 1] not in (b".", b":", b"") for c in range(width)), False])
    rows.append(border)
    count = 0
    for r in range(1, height + 1):
        above, here, below = rows[r - 1], rows[r], rows[r + 1]
        for c in range(1, width + 1):
            if here[c]:
                count += (not here[c - 1] and here[c + 1]) + (not above[c] and below[c])
    return count


def _strings(data: bytes, pos: int, count: int) -> tuple[list[bytes], int]:
    """Up to ``count`` NUL-terminated strings from ``pos`` (fewer when the data ends first)."""
    found: list[bytes] = []
    while len(found) < count:
        end = data.find(b"\0", pos)
        if end < 0:
            break
        found.append(data[pos:end])
        pos = end + 1
    return found, pos


def _sections_follow(data: bytes, pos: int) -> bool:
    """Whether what follows the notes looks like the end of a file: nothing, line ends, or a
    known extension section."""
    tail = data[pos:]
    return not tail.strip(b"\r\n\0 ") or tail[:4] in SECTION_CODES


def _clues(data: bytes, pos: int, stated: int, needed: int, warnings: list[str]) -> tuple[list[bytes], bytes, int]:
    clues, end = _strings(data, pos, stated)
    notes, after = _strings(data, end, 1)
    if stated == needed:
        if len(clues) < stated:
            raise Broken(f"the file ends after {len(clues)} of its {stated} clues: it is cut short")
        if not notes:
            warnings.append("the file ends without its notes string")
        return clues, notes[0] if notes else b"", after
    swapped = ((stated & 0xFF) << 8) | (stated >> 8)
    how = f"{swapped} if read byte-swapped" if swapped != stated else ""
    said = f"the header says {stated} clues" + (f" ({how})" if how else "")
    clues, end = _strings(data, pos, needed)
    notes, after = _strings(data, end, 1)
    if len(clues) == needed and notes and _sections_follow(data, after):
        warnings.append(f"{said} but the grid has {needed} entries; read {needed} clues")
        return clues, notes[0], after
    available = len(_strings(data, pos, 1 << 16)[0])
    raise Broken(
        f"the clues do not fit the grid: it has {needed} entries, {said}, and {available} strings follow "
        f"the copyright where {needed} clues and the notes should be (a clue is missing or the file is cut short)"
    )


def _sections(data: bytes, pos: int, cells: int, warnings: list[str]) -> dict[bytes, bytes]:
    sections: dict[bytes, bytes] = {}
    while len(data) - pos >= 8 and data[pos : pos + 4].isalpha():
        code = data[pos : pos + 4]
        length, stated = struct.unpack_from("<HH", data, pos + 4)
        body = data[pos + 8 : pos + 8 + length]
        name = code.decode("ascii")
        if len(body) < length:
            warnings.append(f"the {name} section is cut short and was ignored")
            break
        if checksum(body) != stated:
            warnings.append(f"the checksum of the {name} section does not match")
        if code in (b"GRBS", b"GEXT") and length != cells:
            warnings.append(f"the {name} section has {length} bytes for {cells} cells and was ignored")
        else:
            sections[code] = body
        pos += 8 + length + 1
    return sections


def parse(data: bytes) -> RawPuz:
    """The parts of a .puz file; :class:`Broken` for what cannot be read, ``warnings`` for what
    was let pass (checksums, a wrong clue count the grid corrects, damaged sections)."""
    start = data.find(MAGIC)
    if start < 2:
        raise Broken("the ACROSS&DOWN header is missing (this is not an Across Lite file)")
    base = start - 2
    if len(data) < base + HEADER.size:
        raise Broken("the file ends inside its header")
    (stored, _, stored_cib, stored_masked, version, _, scrambled, _, width, height, stated, kind, state) = (
        HEADER.unpack_from(data, base)
    )
    if not width or not height:
        raise Broken(f"the header gives a {width}x{height} grid")
    cells = width * height
    pos = base + HEADER.size
    if len(data) < pos + 2 * cells:
        raise Broken(f"the file ends inside the grid: a {width}x{height} grid needs {2 * cells} bytes")
    raw = RawPuz(width, height, version, kind, state, scrambled, data[pos : pos + cells])
    raw.fill = data[pos + cells : pos + 2 * cells]
    pos += 2 * cells
    head, pos = _strings(data, pos, 3)
    if len(head) < 3:
        raise Broken(f"the file ends before its {('title', 'author', 'copyright')[len(head)]}")
    raw.title, raw.author, raw.copyright = head
    raw.clues, raw.notes, pos = _clues(data, pos, stated, entry_count(raw.solution, width, height), raw.warnings)
    raw.sections = _sections(data, pos, cells, raw.warnings)
    if raw.version_number is None:
        raw.warnings.append("the header has no version number; read as version 1.3 (Windows-1252 text)")
    if not (stored or stored_cib or any(stored_masked)):
        raw.warnings.append("the file has no checksums (all zero)")
    else:
        whole, cib, masked = raw.checksums()
        for name, ok in (
            ("global", whole == stored),
            ("header", cib == stored_cib),
            ("masked", masked == stored_masked),
        ):
            if not ok:
                raw.warnings.append(f"the {name} checksum does not match")
    return raw
