"""The clues shipped for the built-in English list (``data/builtin-clues.tsv.gz``).

Derived from WordNet 3.0 (WordNet 3.0 Copyright 2006 by Princeton University; its licence notice
is ``data/WORDNET-LICENSE.txt``) and, for people's names, the 1990 US Census name lists (public
domain) by ``scripts/build_builtin_clues.py``: up to three clues per entry, best first, each
keeping the rules of :mod:`.rules`. The file is decompressed once, on the first lookup (about
0.1 s), and kept as one string of sorted lines that a lookup searches by bisection (tens of
microseconds): building a dict of its 184,000 lines would cost three times the load.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..core.glyphs import normalize_entry
from .sources import ClueSuggestion

#: The shipped file, beside this module.
DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "builtin-clues.tsv.gz")
#: Its licence notice (WordNet's licence asks that it go with every copy).
LICENSE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "WORDNET-LICENSE.txt")
SOURCE_TEXT = "built-in (WordNet 3.0, US Census names)"
#: The clues of names the Census lists give (``scripts/clue_names.py`` writes them): true, but
#: alike for thousands of entries, so a solver needs the crossings to tell them apart.
WOMANS_NAME, MANS_NAME, EITHERS_NAME = "Woman's name", "Man's name", "Man's or woman's name"
COMMON_SURNAME, FAMILY_NAME = "Common surname", "Family name"
WOMENS_NAMES, MENS_NAMES, FIRST_NAMES = "Women's names", "Men's names", "First names"
NAME_CLUES = frozenset(
    {WOMANS_NAME, MANS_NAME, EITHERS_NAME, COMMON_SURNAME, FAMILY_NAME, WOMENS_NAMES, MENS_NAMES, FIRST_NAMES}
)


def read_text(path: str = DATA_PATH) -> str:
    """The file's lines after its ``#`` header, each preceded by a line break (the form
    :func:`find_line` searches).

    Raises:
        OSError: the file cannot be read (``gzip.BadGzipFile`` when it is not gzip).
    """
    import gzip  # here, not at the top: importing the package should not cost the clues' reader

    with open(path, "rb") as handle:
        text = gzip.decompress(handle.read()).decode("utf-8")
    while text.startswith("#"):
        text = text.partition("\n")[2]
    return "\n" + text.strip("\n")


def find_line(text: str, entry: str) -> str | None:
    """The clues of ``entry`` (the rest of its line, tab-separated) by a binary search of
    ``text``, whose lines are sorted by entry; None when it has none."""
    low, high = 0, len(text)  # both always at a line break (or the end)
    while low < high:
        middle = (low + high) // 2
        start = text.rfind("\n", 0, middle + 1)  # the break opening the line that holds middle
        tab = text.find("\t", start)
        key = text[start + 1 : tab]
        if key < entry:
            following = text.find("\n", start + 1)
            low = following if following != -1 else len(text)
        elif key > entry:
            high = start
        else:
            end = text.find("\n", tab)
            return text[tab + 1 : end if end != -1 else len(text)]
    return None


def read_clues(path: str = DATA_PATH) -> dict[str, tuple[str, ...]]:
    """Entry -> its clues, best first, from a file in the shipped format (the whole table: for
    checks and tools; lookups use :class:`BuiltinClues`).

    Raises:
        OSError: the file cannot be read.
        ValueError: a line is not an entry followed by at least one clue, or the lines are not
            sorted by entry.
    """
    table: dict[str, tuple[str, ...]] = {}
    previous = ""
    for number, line in enumerate(read_text(path).splitlines()[1:], 1):
        entry, *clues = line.split("\t")
        if not entry or not clues or not all(clues) or entry <= previous:
            raise ValueError(f"{path}: entry line {number}: expected ENTRY<TAB>CLUE[<TAB>CLUE...], sorted by entry")
        table[entry] = tuple(clues)
        previous = entry
    return table


class BuiltinClues:
    """The shipped clues as a :class:`~.sources.ClueSource` (name ``builtin``)."""

    name = "builtin"

    def __init__(self, path: str = DATA_PATH) -> None:
        self.path = path
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The file's entry lines, read on first use."""
        if self._text is None:
            self._text = read_text(self.path)
        return self._text

    def __len__(self) -> int:
        return self.text.count("\n")

    def __contains__(self, entry: object) -> bool:
        return isinstance(entry, str) and self.clues(entry) != ()

    def entries(self) -> set[str]:
        """Every entry with a shipped clue that tells it apart: not only a name's clue
        (:data:`NAME_CLUES`), which thousands of names share (a generated puzzle fills with these
        entries, and four "Family name" clues in one puzzle would be unsolvable)."""
        found = set()
        for line in self.text.split("\n"):
            entry, _, clues = line.partition("\t")
            if entry and not set(clues.split("\t")) <= NAME_CLUES:
                found.add(entry)
        return found

    def clues(self, entry: str) -> tuple[str, ...]:
        """The shipped clues of ``entry``, best first (empty when it has none)."""
        found = find_line(self.text, normalize_entry(entry)) if entry else None
        return tuple(found.split("\t")) if found else ()

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        """The shipped clues for ``entry``, best first (empty when it has none)."""
        return [ClueSuggestion(clue, SOURCE_TEXT) for clue in self.clues(entry)[: max(0, limit)]]

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        """Entry (as given) -> its best shipped clue, for the entries that have one."""
        found: dict[str, str] = {}
        for entry in entries:
            clues = self.clues(entry)
            if clues:
                found[entry] = clues[0]
        return found


def license_text() -> str:
    """WordNet's licence notice, as shipped beside the clues."""
    with open(LICENSE_PATH, encoding="utf-8") as handle:
        return handle.read()
