"""Theme and cross-reference clues: clues that mean something only inside their own puzzle.

A puzzle's theme clues are starred ("*Quaint lodging"), speak of the puzzle itself ("...this
puzzle's theme", "the starred clues", "the circled letters") or of its theme entries; a
cross-reference points at another clue ("See 17-Across", "With 23-Down, a fruit", "17-Across"
alone). The clue database keeps such clues, marked with their :func:`clue_kind`, but never
suggests them: out of their puzzle they are riddles without an answer.

The rules aim at what puzzles print, and leave alone the ordinary clues that share a word with
them: "Theme park ride", "See ya!", "Late hour, 1 a.m.".

>>> [clue_kind(c) for c in ("*Quaint lodging", "See 17-Across", "Theme park ride", "See ya!")]
['theme', 'crossref', '', '']
"""

from __future__ import annotations

import re

#: :func:`clue_kind` of an ordinary clue, one that may be suggested anywhere.
PLAIN = ""
#: A clue of its puzzle's theme: starred, or speaking of the puzzle, its theme or its grid.
THEME = "theme"
#: A clue that points at another clue of its puzzle by number.
CROSS_REFERENCE = "crossref"
#: Every kind a clue may have.
CLUE_KINDS = (PLAIN, THEME, CROSS_REFERENCE)

#: A clue number with its direction: "17-Across", "23 Down", "5- and 23-Down".
NUMBERED_CLUE = re.compile(r"\b\d+\s*-?\s*(?:across|down)\b|\b\d+-\s+(?:and|or)\s+\d+", re.IGNORECASE)
#: The short form "17A", "4-D": upper case and glued to its number, so that "1 a.m.", "50 A.D."
#: and "Route 4 a" are no references.
NUMBERED_CLUE_LETTER = re.compile(r"\b\d+-?[AD]\b(?!\.)")
#: "See 17", "See the starred clues", "See note": a clue that sends the solver elsewhere (but not
#: "See ya!" or "See you later!").
SEE_ELSEWHERE = re.compile(
    r"^\W*see\s+(?:\d|the\s+(?:starred|circled|shaded|highlighted|theme|note|notepad)|notes?\b|notepad\b|"
    r"instructions\b|above\b|below\b)",
    re.IGNORECASE,
)
#: A clue that speaks of its own puzzle, its theme or its marked squares. "Theme park", "theme
#: song" and "the theme from 'Exodus'" speak of the world and stay.
OWN_PUZZLE = re.compile(
    r"\b(?:this|today's|our|the\s+puzzle's)\s+(?:puzzle|grid|crossword|theme)\b"
    r"|\bpuzzle's\s+theme\b"
    r"|\btheme\s+(?:answers?|entries|entry|clues?|words?|phrases?|squares|of\s+this)\b"
    r"|\bthe\s+theme\b(?!\s+(?:from|of|song|music|tune|park|to)\b)"
    r"|\bstarred\s+(?:clues?|answers?|entries|entry|words?|squares|ones)\b"
    r"|\b(?:circled|shaded|highlighted|gray|grey)\s+(?:letters?|squares?|cells?|boxes)\b"
    r"|\b(?:theme\s+)?revealer\b",
    re.IGNORECASE,
)
#: A starred theme clue starts with one or more asterisks (a footnote star at its end is rare).
STAR = "*"


def clue_kind(clue: str) -> str:
    """:data:`THEME`, :data:`CROSS_REFERENCE` or :data:`PLAIN` (the empty string) for ``clue``.

    >>> clue_kind("With 23-Down, a fruit"), clue_kind("Hint to the starred clues")
    ('crossref', 'theme')
    >>> clue_kind("Fruit of a tree"), clue_kind("Late hour, 1 a.m.")
    ('', '')
    """
    text = clue.strip()
    if text.startswith(STAR):
        return THEME
    if NUMBERED_CLUE.search(text) or NUMBERED_CLUE_LETTER.search(text) or SEE_ELSEWHERE.search(text):
        return CROSS_REFERENCE
    if OWN_PUZZLE.search(text):
        return THEME
    return PLAIN


def is_suggestable(clue: str) -> bool:
    """Whether ``clue`` means something outside its puzzle (neither theme nor cross-reference)."""
    return clue_kind(clue) == PLAIN
