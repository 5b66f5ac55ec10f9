"""Clues for a whole puzzle from a chain of sources: the first source with a clue for an entry gives it.

``--clues`` chooses the chain (:func:`clue_sources`): ``db`` (the default) is the user's clue
database, when it exists, then the clues shipped for the built-in list; ``builtin`` the shipped
clues alone; ``wordnet`` the glosses of the system's WordNet; ``none`` nothing. A word list's own
clues are already in the puzzle when the chain runs, and a clue the puzzle has is always kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.glyphs import normalize_entry
from ..formats import Puzzle
from .builtin import BuiltinClues
from .database import ClueDatabase, default_database_path
from .records import clue_key
from .rules import clue_words, is_offensive, reveals, stem
from .sources import ClueSource, ClueSuggestion
from .twins import twin_key
from .wordnet import wordnet_directory, wordnet_entries, wordnet_glosses

if TYPE_CHECKING:
    from ..words.lexicon import Lexicon

#: The ``--clues`` choices, the default first.
KINDS = ("db", "builtin", "wordnet", "none")
DEFAULT_KIND = KINDS[0]
#: Each source's name as a message says where clues came from.
SOURCE_NAMES = {
    "list": "the word list",
    "db": "your database",
    "builtin": "the built-in source",
    "wordnet": "WordNet",
}
#: Suggestions tried per entry when a source's best clue breaks the rules (gives its answer away).
FALLBACK_SUGGESTIONS = 5
#: Empty slots a message names before "and N more" (a puzzle written with ``--clues none`` has
#: every clue empty: 78 ids help nobody).
LISTED_EMPTY = 20
WORDNET_SOURCE_TEXT = "WordNet 3.0"
#: The subject label some WordNet glosses start with: "(astronomy) ", "(golf) ".
DOMAIN_LABEL = re.compile(r"^\s*\([^()]*\)\s*")
#: Sources whose clues were screened for offensive words when they were made or imported.
SCREENED_SOURCES = (BuiltinClues, ClueDatabase)


class WordNetClues:
    """The system's WordNet glosses (:mod:`.wordnet`) as a :class:`~.sources.ClueSource`
    (name ``wordnet``). Each call reads WordNet's index files: meant for a whole puzzle at
    once (:meth:`best`), not for lookups one entry at a time."""

    name = "wordnet"

    def __init__(self, directory: str | None = None) -> None:
        self.directory = directory

    def available(self) -> bool:
        return (self.directory or wordnet_directory()) is not None

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        if limit < 1:
            return []
        gloss = wordnet_glosses({normalize_entry(entry)}, self.directory).get(normalize_entry(entry))
        return [ClueSuggestion(as_clue(gloss), WORDNET_SOURCE_TEXT)] if gloss else []

    def entries(self) -> set[str]:
        """Every entry WordNet has a lemma for (a gloss may still give it away: then no clue)."""
        return wordnet_entries(self.directory)

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        given = {entry: normalize_entry(entry) for entry in entries}
        glosses = wordnet_glosses(set(given.values()), self.directory)
        return {entry: as_clue(glosses[key]) for entry, key in given.items() if key in glosses}


def as_clue(gloss: str) -> str:
    """A WordNet gloss as a clue reads: its domain label dropped ("(astronomy) a major planet"),
    the first letter capitalised."""
    text = DOMAIN_LABEL.sub("", gloss).strip() or gloss.strip()
    return text[:1].upper() + text[1:]


class ListClues:
    """A word list's own clues as a :class:`~.sources.ClueSource` (name ``list``): the user's
    words, kept as they wrote them (no rule of ours applies to their own clues)."""

    name = "list"
    #: Its clues go in as they are: :func:`acceptable` does not judge them.
    trusted = True

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        clue = self.lexicon.clue(normalize_entry(entry))
        return [ClueSuggestion(clue, SOURCE_NAMES["list"])] if clue and limit > 0 else []

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        found = {entry: self.lexicon.clue(normalize_entry(entry)) for entry in entries}
        return {entry: clue for entry, clue in found.items() if clue}


@lru_cache(maxsize=1)
def builtin_source() -> BuiltinClues:
    """The shipped clues, one instance a process (its table is read once, on first use)."""
    return BuiltinClues()


def clue_sources(kind: str = DEFAULT_KIND, *, database: str | os.PathLike[str] | None = None) -> list[ClueSource]:
    """The chain of sources ``--clues KIND`` names, first asked first.

    ``database``: the clue database's file for ``db`` (default: the user's, see
    :func:`.database.default_database_path`). The default database missing is no error (no one
    has imported clues yet): the chain is then the shipped clues alone.

    Raises:
        InputError: an unknown kind, or a ``database`` given that is no file.
    """
    if kind not in KINDS:
        raise InputError(f"unknown clue source {kind!r}: choose from {', '.join(KINDS)}")
    if kind == "none":
        return []
    if kind == "builtin":
        return [builtin_source()]
    if kind == "wordnet":
        return [WordNetClues()]
    if database is not None and not os.path.isfile(database):
        raise InputError("no clue database here (make one with 'csp-crossword clues import')", os.fspath(database))
    store = open_database(os.path.abspath(database if database is not None else default_database_path()))
    return ([store] if store.exists() else []) + [builtin_source()]


@lru_cache(maxsize=4)
def open_database(path: str) -> ClueDatabase:
    """One :class:`ClueDatabase` a file and process: a server or a batch worker asks for clues
    job after job, and each new one would hold its own SQLite connection open."""
    return ClueDatabase(path)


@dataclass
class ClueReport:
    """What :func:`fill_clues` did.

    Attributes:
        kept: Clues the puzzle had before (the word list's, the file's).
        added: Source name -> clues it gave, in the chain's order (every source, 0 included).
        empty: Ids of the slots with an answer still without a clue, in the puzzle's order.
        failed: Source name -> why it could not be read (a damaged clue database): it gave no
            clue, and the puzzle took the next sources' clues instead of being lost.
    """

    kept: int = 0
    added: dict[str, int] = field(default_factory=dict)
    empty: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)

    def describe(self, kept_from: str = "list") -> str:
        """ "clues: 70 from the built-in source, 4 from your database" (most first); ``kept_from``
        names where the clues kept came from (a source name or words); "" when none came."""
        counts = [(n, SOURCE_NAMES.get(name, name)) for name, n in self.added.items() if n]
        if self.kept:
            counts.append((self.kept, SOURCE_NAMES.get(kept_from, kept_from)))
        counts.sort(key=lambda item: -item[0])  # stable: equal counts keep the chain's order
        return "clues: " + ", ".join(f"{n} from {where}" for n, where in counts) if counts else ""

    def describe_empty(self) -> str:
        """ "3 clues empty: 12A, 40D, 51A" ("" when every answered entry has its clue)."""
        if not self.empty:
            return ""
        shown = ", ".join(self.empty[:LISTED_EMPTY])
        more = f" and {len(self.empty) - LISTED_EMPTY} more" if len(self.empty) > LISTED_EMPTY else ""
        noun = "clue" if len(self.empty) == 1 else "clues"
        return f"{len(self.empty)} {noun} empty: {shown}{more}"


def clued_lexicon(lexicon: Lexicon, sources: Sequence[ClueSource]) -> Lexicon:
    """``lexicon`` with only the entries that get a clue: their own (a word list's) or one from
    ``sources`` (a generated puzzle then has every clue). A source that can list its entries
    (``entries()``: the database, the shipped clues) is asked for them at once; any other is asked
    for the best clue of every entry."""
    clued = {entry for entry, clue in lexicon.clues.items() if clue}
    for source in sources:
        listing = getattr(source, "entries", None)
        clued |= listing() if callable(listing) else set(source.best(lexicon.scores))
    return lexicon.filtered(only=clued)


def acceptable(answer: str, clue: str, source: object = None) -> bool:
    """Whether ``clue`` may go with ``answer`` in a puzzle: not empty, not giving the answer away,
    not offensive. The sources keep these rules already; checked again here since a source may be
    any object of the protocol (a user's own, WordNet's raw glosses). The offensive-word check
    loads the built-in list (over a second) and is skipped for the sources that made it."""
    if getattr(source, "trusted", False):
        return bool(clue.strip())
    if not clue.strip() or reveals(normalize_entry(answer), clue):
        return False
    return isinstance(source, SCREENED_SOURCES) or not is_offensive(clue)


def fill_clues(puzzle: Puzzle, sources: Sequence[ClueSource]) -> ClueReport:
    """Give every answered entry of ``puzzle`` without a clue the first acceptable clue of
    ``sources`` (in order), in place; clues the puzzle has are kept."""
    report = ClueReport(added={source.name: 0 for source in sources})
    missing: dict[str, str] = {}  # slot id -> answer
    used: list[str] = []  # the clues the puzzle has (a chosen clue should not repeat one)
    for slot, answer, clue in puzzle.entries():
        if clue.strip():
            used.append(clue)
            report.kept += bool(answer)
        elif answer:
            missing[slot.id] = answer
    chosen = choose_clues(missing, sources, used=used, failed=report.failed)
    for slot_id, (clue, source) in chosen.items():
        puzzle.clues[slot_id] = clue
        report.added[source] += 1
    report.empty = [slot_id for slot_id in missing if slot_id not in chosen]
    return report


def choose_clues(
    answers: Mapping[str, str],
    sources: Sequence[ClueSource],
    used: Iterable[str] = (),
    failed: dict[str, str] | None = None,
) -> dict[str, tuple[str, str]]:
    """Slot id -> (clue, the name of the source that gave it) for the slots of ``answers``
    (slot id -> answer) that a source has an acceptable clue for, the first source first.

    One puzzle does not use a clue twice ("Place" for SET, LEFT and SHOES), nor a near twin of one
    (EAT "Take in solid food" beside ATE "Took in solid food": :mod:`.twins`), nor a clue with a
    word that is another of its answers (HIT "Strike" beside the entry STRIKE): when an entry's
    best clue is taken (by an earlier slot, or in ``used``: the clues the puzzle has) or echoes an
    answer, its next acceptable suggestion is used, and the first one only when it has no other.

    With ``failed`` (a dict), a source that cannot be read (InputError: a damaged clue database)
    is skipped and its reason kept there by name; without it the error goes up."""
    missing = {slot_id: normalize_entry(answer) for slot_id, answer in answers.items()}
    taken = _Taken(missing.values())
    for clue in used:
        taken.add(clue)
    chosen: dict[str, tuple[str, str]] = {}
    for source in sources:
        if not missing:
            break
        try:
            picks = _choose_from(source, missing, taken)
        except InputError as error:
            if failed is None:
                raise
            failed[source.name] = str(error)
            continue
        for slot_id, picked in picks.items():
            chosen[slot_id] = (picked, source.name)
            del missing[slot_id]
    return chosen


def _choose_from(source: ClueSource, missing: Mapping[str, str], taken: _Taken) -> dict[str, str]:
    """Slot id -> the clue ``source`` gives it (added to ``taken``), for the slots it has one for."""
    found = source.best(set(missing.values()))
    picks: dict[str, str] = {}
    for slot_id, answer in missing.items():
        picked = _first_acceptable(source, answer, found.get(answer), taken)
        if picked:
            picks[slot_id] = picked
            taken.add(picked)
    return picks


#: An answer this long or longer is not to stand in another entry's clue (shorter ones, ARE and
#: ONE, are the words clues are made of).
ECHO_MIN_LETTERS = 4


class _Taken:
    """The clues a puzzle has so far (their exact forms and their near-twin keys), and the stems
    of its answers that no clue should hold."""

    def __init__(self, answers: Iterable[str] = ()) -> None:
        self.keys: set[str] = set()
        self.twins: set[frozenset[str]] = set()
        self.answers = {stem(a.lower()) for a in answers if len(a) >= ECHO_MIN_LETTERS and a.isalpha()}

    def add(self, clue: str) -> None:
        self.keys.add(clue_key(clue))
        twin = twin_key(clue)
        if twin is not None:
            self.twins.add(twin)

    def __contains__(self, clue: object) -> bool:
        if not isinstance(clue, str):
            return False
        if clue_key(clue) in self.keys or twin_key(clue) in self.twins:
            return True
        return any(stem(word.replace("'", "")) in self.answers for word in clue_words(clue))


def _first_acceptable(source: ClueSource, answer: str, best: str | None, taken: _Taken) -> str | None:
    """``best`` when it keeps the rules and is not taken, else the source's next suggestion that
    does (a taken one when no other keeps the rules)."""
    if best is None:
        return None
    if acceptable(answer, best, source) and best not in taken:
        return best
    fallback = best if acceptable(answer, best, source) else None
    for suggestion in source.suggestions(answer, FALLBACK_SUGGESTIONS):
        if acceptable(answer, suggestion.clue, source):
            if suggestion.clue not in taken:
                return suggestion.clue
            fallback = fallback or suggestion.clue
    return fallback


def suggest(entry: str, sources: Sequence[ClueSource], limit: int = 10) -> list[ClueSuggestion]:
    """Up to ``limit`` acceptable clues for ``entry`` from ``sources`` in order, each clue once
    (the first source to give it names it)."""
    found: list[ClueSuggestion] = []
    seen: set[str] = set()
    answer = normalize_entry(entry)
    for source in sources:
        if len(found) >= limit:
            break
        for suggestion in source.suggestions(answer, limit):
            key = " ".join(suggestion.clue.casefold().split())
            if key in seen or not acceptable(answer, suggestion.clue, source):
                continue
            seen.add(key)
            found.append(suggestion)
            if len(found) >= limit:
                break
    return found


__all__ = [
    "DEFAULT_KIND",
    "KINDS",
    "ClueReport",
    "ListClues",
    "WordNetClues",
    "acceptable",
    "builtin_source",
    "choose_clues",
    "clue_sources",
    "clued_lexicon",
    "fill_clues",
    "suggest",
]
