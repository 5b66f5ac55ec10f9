"""What every clue source gives: suggestions for an entry, best first, each with where it came from.

A source is anything with the :class:`ClueSource` shape: the user's clue database
(:mod:`.database`, SQLite), the clues shipped for the built-in list (:mod:`.builtin`), WordNet's
glosses (:mod:`.wordnet`). Front ends ask a source for an entry's suggestions, or fill a puzzle's
empty clues from a chain of sources (first the user's database, then the shipped clues).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ClueSuggestion:
    """One clue for an entry.

    Attributes:
        clue: The clue text.
        source: Where it comes from, in words a user reads ("The Times 2024-03-02, me.puz",
            "WordNet 3.0", "built-in").
        uses: How many times the source has seen this clue for this entry (1 for a source that
            does not count).
    """

    clue: str
    source: str
    uses: int = 1


class ClueSource(Protocol):
    """A source of clues for entries (an entry: upper case, no spaces, as ``normalize_entry``)."""

    #: The source's name in messages and ``--clues`` choices.
    name: str

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        """The source's clues for ``entry``, most used first (empty when it has none)."""
        ...

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        """Entry -> its best clue, for the entries the source has a clue for (many at once)."""
        ...
