"""Clue rows as the clue database stores them: each clue's normalised form (two wordings that
differ only in case or spacing are one clue) and whether it may be suggested for its answer.

A clue may be suggested when it is not empty, does not give its answer away (the rules of
:mod:`.rules`, the same for every clue source), is neither a theme clue nor a cross-reference
(:mod:`.crossrefs`: "*Quaint lodging", "See 17-Across"; each row keeps that kind) and is not
offensive. Importing calls this for every clue of every file, in the
worker processes that read the files, so the common case is kept quick.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..core.glyphs import ENTRY_SEPARATORS, normalize_entry
from .crossrefs import PLAIN, clue_kind
from .rules import is_offensive, reveals, stem

#: The version of the rules :func:`usable_clue` applies. A database stores each clue's verdict;
#: one judged by other rules is judged again when it is opened (bump this when the rules change).
RULES_VERSION = 4
#: Answers whose stem is remembered during an import (answers repeat from puzzle to puzzle).
STEM_CACHE = 65_536
_NO_SEPARATORS = str.maketrans(dict.fromkeys(ENTRY_SEPARATORS))
_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` with each lone surrogate (an escaped ``\\ud800`` in a JSON file, a file name not in
    UTF-8) as U+FFFD: SQLite stores UTF-8, which cannot hold one."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def clue_key(clue: str) -> str:
    """The form two clues are the same in: NFKC, case-folded, runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", clue).casefold().split())


def gives_answer_away(clue: str, answer: str) -> bool:
    """Whether ``clue`` gives ``answer`` away, by the rule every clue we offer keeps
    (:func:`.rules.reveals`: the answer, a word of its stem, or the answer inside a longer word).

    >>> gives_answer_away("Ice age beast", "ICEAGE"), gives_answer_away("Tamed", "TAME")
    (True, True)
    >>> gives_answer_away("Time period", "ERA"), gives_answer_away("Epoch", "ERA")
    (False, False)
    """
    target = normalize_entry(answer)
    if not target:
        return False
    # The quick answer for nearly every clue (the full rule costs tens of microseconds a clue,
    # a good share of an import): a clue that gives the answer away holds at least the first
    # letters of its stem (a stem differs from its word in the last letter at most).
    if _stem_prefix(target) not in unicodedata.normalize("NFC", clue).upper().translate(_NO_SEPARATORS):
        return False
    return reveals(target, clue)


@lru_cache(maxsize=STEM_CACHE)
def _stem_prefix(entry: str) -> str:
    return entry[: max(1, len(stem(entry)) - 1)]


def usable_clue(clue: str, answer: str, kind: str | None = None) -> bool:
    """Whether ``clue`` may be suggested for ``answer``: not empty, not giving the answer away,
    neither a theme clue nor a cross-reference (``kind``: its :func:`.crossrefs.clue_kind`, found
    when not given), not offensive (:func:`.rules.is_offensive`)."""
    if kind is None:
        kind = clue_kind(clue)
    return bool(clue.strip()) and kind == PLAIN and not gives_answer_away(clue, answer) and not is_offensive(clue)


#: A clue as stored: (entry, normalised clue, clue as the file has it, usable, its kind).
ClueRow = tuple[str, str, str, bool, str]


def clue_rows(pairs: Iterable[tuple[str, str]]) -> list[ClueRow]:
    """The rows of (answer, clue) pairs as a file gives them (empty answers and clues dropped)."""
    rows = []
    for answer, text in pairs:
        entry, clue = normalize_entry(storable(answer)), storable(text).strip()
        if entry and clue:
            kind = clue_kind(clue)
            rows.append((entry, clue_key(clue), clue, usable_clue(clue, entry, kind), kind))
    return rows


def uses_rows(
    rows: Sequence[tuple[tuple[str, str, int], tuple[str, bool, str]]],
) -> list[tuple[str, str, str, bool, str, int, int]]:
    """``clue_uses`` rows of a batch's new clue rows (sorted by key): per (entry, normalised clue),
    the first source's wording, verdict and kind, its id and the number of sources."""
    found: list[tuple[str, str, str, bool, str, int, int]] = []
    for (entry, key, source_id), (clue, usable, kind) in rows:
        if found and found[-1][0] == entry and found[-1][1] == key:
            held = found[-1]
            found[-1] = (*held[:6], held[6] + 1)
        else:
            found.append((entry, key, clue, usable, kind, source_id, 1))
    return found
