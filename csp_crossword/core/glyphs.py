"""Glyphs: what one crossword cell holds.

A glyph is a Unicode extended grapheme cluster (``regex``'s ``\\X``), so a Bangla conjunct such as
``ক্ষ`` or a letter with a combining accent is one cell, never a fragment of bytes or code points.

>>> split_glyphs("ক্ষমা")
['ক্ষ', 'মা']
>>> normalize_entry("ice age")
'ICEAGE'
>>> normalize_entry("rock'n'roll")
'ROCKNROLL'
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Protocol

#: Characters dropped inside a word-list entry: spaces, hyphens (ASCII and Unicode), apostrophes
#: and periods. ``ICE AGE`` and ``ICE-AGE`` both become the entry ``ICEAGE``.
ENTRY_SEPARATORS = frozenset(" \t-\u2010\u2011\u2012\u2013\u2014'\u2019\u02bc.")
_NO_ENTRY_SEPARATORS = str.maketrans(dict.fromkeys(ENTRY_SEPARATORS))


class _Pattern(Protocol):
    """What is used of a compiled ``regex`` pattern (``regex`` ships no type information)."""

    def findall(self, string: str) -> list[str]: ...


@cache
def _grapheme_pattern() -> _Pattern:
    # regex is imported on the first text that is not plain ASCII: English grids and word lists
    # never pay for it.
    import regex

    pattern: _Pattern = regex.compile(r"\X")
    return pattern


def split_glyphs(text: str) -> list[str]:
    """Split text into grapheme clusters (one per cell).

    >>> split_glyphs("CAT"), split_glyphs("A\\r\\nB")
    (['C', 'A', 'T'], ['A', '\\r\\n', 'B'])
    """
    if text.isascii() and "\r" not in text:  # in ASCII only CR LF is a cluster of two
        return list(text)
    return _grapheme_pattern().findall(text)


def is_cell_glyph(glyph: str) -> bool:
    """Whether a glyph can fill a cell: it starts with a letter or a digit (any script; marks may
    follow). Blocks (``#``), empty cells (``.``), punctuation, symbols and control characters
    cannot.

    >>> [is_cell_glyph(g) for g in ["A", "7", "ক্ষ", "#", ".", "?", " "]]
    [True, True, True, False, False, False, False]
    """
    return bool(glyph) and unicodedata.category(glyph[0])[0] in "LN"


def normalize_glyph(glyph: str) -> str:
    """NFC and upper case; scripts without case are unchanged."""
    return unicodedata.normalize("NFC", glyph).upper()


def normalize_entry(text: str) -> str:
    """The entry form of a word: NFC, upper case, separators removed."""
    if text.isascii():  # already NFC, and upper case keeps it ASCII: one pass (the common case)
        return text.translate(_NO_ENTRY_SEPARATORS).upper()
    text = unicodedata.normalize("NFC", text)
    text = "".join(ch for ch in text if ch not in ENTRY_SEPARATORS)
    return unicodedata.normalize("NFC", text.upper())


#: Unicode categories no cell may hold: control characters (C0, DEL and C1), surrogates,
#: unassigned code points, line and paragraph separators. Format characters (Cf) stay: the
#: joiners ZWJ and ZWNJ are parts of Arabic and Bangla glyphs.
_REFUSED_CATEGORIES = {"Cc", "Cs", "Cn", "Zl", "Zp"}
_REFUSED_NAMES = {"Cc": "control character", "Zl": "line separator", "Zp": "paragraph separator"}


def refused_character(line: str) -> tuple[int, str] | None:
    """(column in glyphs, what it is) of the first character of ``line`` no cell may hold, or None.

    >>> refused_character("AB\x85C"), refused_character("ক্ষA")
    ((3, 'control character U+0085'), None)
    """
    for col, glyph in enumerate(split_glyphs(line), start=1):
        bad = next((ch for ch in glyph if unicodedata.category(ch) in _REFUSED_CATEGORIES), None)
        if bad is not None:
            if bad == "\t":
                return col, "a tab"
            return col, f"{_REFUSED_NAMES.get(unicodedata.category(bad), 'character')} U+{ord(bad):04X}"
    return None
