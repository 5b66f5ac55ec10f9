"""Override files (``--overrides FILE``): re-score words of the chosen list, add missing ones,
and ban words with a score of 0 or less.

An override file is a word list in any format the loader reads (``word;score`` lines, tab- or
space-separated scores, CSV, JSON), read strictly: a malformed line is an error naming the file,
line and column, and a word listed twice takes its last score. A word without a score gets the
default score (50). Later files win.

>>> from csp_crossword.words.lexicon import Lexicon
>>> base = Lexicon.from_words(["cat", "dog", "eel"], scores={"CAT": 60, "DOG": 40, "EEL": 20})
>>> merged = apply_overrides(base, {"dog": 90, "eel": 0, "ice age": 70})
>>> sorted(merged.scores.items())
[('CAT', 60), ('DOG', 90), ('ICEAGE', 70)]
>>> merged.display_form("ICEAGE")
'ice age'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ..core.glyphs import normalize_entry
from .lexicon import Lexicon
from .word_index import _valid_entry, checked_score
from .wordlists import combine, load_word_list

#: Scores at or below this ban a word.
BANNED_SCORE = 0


def load_overrides(paths: Sequence[str | os.PathLike[str]]) -> Lexicon:
    """The override files, read strictly and merged in order (a later file's score wins).

    Raises:
        InputError: a file is missing or unreadable, or has a malformed line (with its line and
            column).
    """
    return combine([load_word_list(path, strict=True)[0] for path in paths])


def apply_overrides(lexicon: Lexicon, overrides: Lexicon | Mapping[str, int]) -> Lexicon:
    """``lexicon`` with the scores, display forms and clues of ``overrides`` (a word list, or
    word -> score): a word it lacks is added, a word scored :data:`BANNED_SCORE` or less removed.

    Raises:
        ValueError: a word of a mapping holds something no cell can (punctuation, ...).
    """
    if not isinstance(overrides, Lexicon):
        table: dict[str, int] = {}
        display: dict[str, str] = {}
        for word, score in overrides.items():
            if not isinstance(word, str):
                raise ValueError(f"not a word: {word!r}")
            entry = normalize_entry(word)
            if not _valid_entry(entry):
                raise ValueError(f"not a usable entry: {word!r}")
            table[entry] = checked_score(word, score)
            if word != entry:
                display[entry] = word
        overrides = Lexicon(table, display)
    scores = dict(lexicon.scores)
    for entry, score in overrides.scores.items():
        if score <= BANNED_SCORE:
            scores.pop(entry, None)
        else:
            scores[entry] = score
    multiplicity = {w: n for w, n in lexicon.multiplicity.items() if w in scores}
    return Lexicon(
        scores,
        {**lexicon.display, **overrides.display},
        {**lexicon.clues, **overrides.clues},
        lexicon.name,
        multiplicity,
    )
