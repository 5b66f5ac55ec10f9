"""The clues shipped for the built-in English list (``data/builtin-clues.tsv.gz``).

Derived from WordNet 3.0 by ``scripts/build_builtin_clues.py`` (WordNet 3.0 Copyright 2006 by
Princeton University; its licence notice is ``data/WORDNET-LICENSE.txt``): up to three clues per
entry, best first, each keeping the rules of :mod:`.rules`. The file is read once, on the first
lookup, into a dict (about a quarter of a second); later lookups are dict lookups.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable

from ..core.glyphs import normalize_entry
from .sources import ClueSuggestion

#: The shipped file, beside this module.
DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "builtin-clues.tsv.gz")
#: Its licence notice (WordNet's licence asks that it go with every copy).
LICENSE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "WORDNET-LICENSE.txt")
SOURCE_TEXT = "WordNet 3.0 (built-in)"


def read_clues(path: str = DATA_PATH) -> dict[str, tuple[str, ...]]:
    """Entry -> its clues, best first, from a file in the shipped format.

    Raises:
        OSError: the file cannot be read (``gzip.BadGzipFile`` when it is not gzip).
        ValueError: a line is not an entry followed by at least one clue.
    """
    with open(path, "rb") as handle:
        text = gzip.decompress(handle.read()).decode("utf-8")
    table: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        entry, *clues = line.split("\t")
        if not entry or not clues or not all(clues):
            raise ValueError(f"{path}: line {number}: expected ENTRY<TAB>CLUE[<TAB>CLUE...]")
        table[entry] = tuple(clues)
    return table


class BuiltinClues:
    """The shipped clues as a :class:`~.sources.ClueSource` (name ``builtin``)."""

    name = "builtin"

    def __init__(self, path: str = DATA_PATH) -> None:
        self.path = path
        self._table: dict[str, tuple[str, ...]] | None = None

    @property
    def table(self) -> dict[str, tuple[str, ...]]:
        """Entry -> clues, read from the file on first use."""
        if self._table is None:
            self._table = read_clues(self.path)
        return self._table

    def __len__(self) -> int:
        return len(self.table)

    def __contains__(self, entry: object) -> bool:
        return isinstance(entry, str) and normalize_entry(entry) in self.table

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        """The shipped clues for ``entry``, best first (empty when it has none)."""
        clues = self.table.get(normalize_entry(entry), ())
        return [ClueSuggestion(clue, SOURCE_TEXT) for clue in clues[: max(0, limit)]]

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        """Entry (as given) -> its best shipped clue, for the entries that have one."""
        found: dict[str, str] = {}
        for entry in entries:
            clues = self.table.get(normalize_entry(entry))
            if clues:
                found[entry] = clues[0]
        return found


def license_text() -> str:
    """WordNet's licence notice, as shipped beside the clues."""
    with open(LICENSE_PATH, encoding="utf-8") as handle:
        return handle.read()
