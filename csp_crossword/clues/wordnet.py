"""Clues for entries the word list gives none: WordNet glosses (English).

Reads the WordNet 3 database files that Debian's ``wordnet-base`` installs (``index.noun`` ...
``data.adv`` under ``/usr/share/wordnet``, or ``$WNSEARCHDIR``). For each wanted entry the senses
are tried in WordNet's order (most frequent first), nouns, then verbs, adjectives and adverbs;
the first definition that does not contain the word itself becomes the clue (examples dropped).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from ..core.glyphs import normalize_entry
from ..formats import Puzzle

#: Where WordNet's database files are looked for, after ``$WNSEARCHDIR``.
WORDNET_DIRS = ("/usr/share/wordnet", "/usr/local/share/wordnet", "/usr/share/WordNet-3.0/dict")
PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")


def wordnet_directory() -> str | None:
    """The folder holding WordNet's ``index.*`` and ``data.*`` files, or None when not installed."""
    candidates = [os.environ.get("WNSEARCHDIR", "")] + list(WORDNET_DIRS)
    for folder in candidates:
        if (
            folder
            and os.path.exists(os.path.join(folder, "index.noun"))
            and os.path.exists(os.path.join(folder, "data.noun"))
        ):
            return folder
    return None


def wordnet_entries(directory: str | None = None) -> set[str]:
    """Every entry WordNet has a lemma for (an empty set without WordNet): its index files only,
    not its definitions, so a whole word list is answered in a second."""
    folder = directory or wordnet_directory()
    found: set[str] = set()
    if folder is None:
        return found
    for pos in PARTS_OF_SPEECH:
        index_path = os.path.join(folder, f"index.{pos}")
        if os.path.exists(index_path):
            with open(index_path, encoding="utf-8", errors="replace") as index:
                found.update(
                    normalize_entry(line.partition(" ")[0].replace("_", " ")) for line in index if line[:1] != " "
                )
    return found


def wordnet_glosses(entries: Iterable[str], directory: str | None = None) -> dict[str, str]:
    """Entry -> WordNet definition for the entries WordNet knows (an empty dict without WordNet)."""
    folder = directory or wordnet_directory()
    wanted = set(entries)
    found: dict[str, str] = {}
    if folder is None or not wanted:
        return found
    for pos in PARTS_OF_SPEECH:
        index_path, data_path = os.path.join(folder, f"index.{pos}"), os.path.join(folder, f"data.{pos}")
        if not (os.path.exists(index_path) and os.path.exists(data_path)):
            continue
        with open(index_path, encoding="utf-8", errors="replace") as index, open(data_path, "rb") as data:
            for line in index:
                if line.startswith(" "):  # the licence header
                    continue
                parts = line.split()
                lemma = parts[0].replace("_", " ")
                entry = normalize_entry(lemma)
                if entry not in wanted or entry in found:
                    continue
                senses = int(parts[2])
                for offset in parts[-senses:]:
                    data.seek(int(offset))  # a synset's offset is its byte position in data.<pos>
                    record = data.readline().decode("utf-8", errors="replace")
                    gloss = record.partition(" | ")[2].split('; "')[0].strip().rstrip(";").strip()
                    if gloss and not re.search(rf"\b{re.escape(lemma)}\b", gloss, re.IGNORECASE):
                        found[entry] = gloss
                        break
    return found


def add_wordnet_clues(puzzle: Puzzle, directory: str | None = None) -> int:
    """Give every answered entry without a clue its WordNet gloss; returns how many were added."""
    missing = {slot.id: answer for slot, answer, clue in puzzle.entries() if answer and not clue}
    glosses = wordnet_glosses(set(missing.values()), directory)
    added = 0
    for slot_id, answer in missing.items():
        if answer in glosses:
            puzzle.clues[slot_id] = glosses[answer]
            added += 1
    return added
