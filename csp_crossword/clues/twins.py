"""Near-twin clues: two clues of one puzzle that say the same thing in another inflection.

EAT "Take in solid food" beside ATE "Took in solid food" reads as one clue written twice: a solver
who has one has the other. Two clues are near twins when the roots of their content words are the
same (the roots an entry's shared-root check uses, :mod:`csp_crossword.words.roots`: irregular
forms to their lemma, then the Snowball stem; function words left out), and they have at least
TWIN_MIN_WORDS of them: one-word clues ("Eats", "Ate") are told apart by their answers' lengths and
crossings, and a puzzle repeating a one-word clue exactly is caught by the same-clue rule.
"""

from __future__ import annotations

import re

from ..words.roots import roots_of

#: Content words (roots) a clue needs before it can be a near twin of another.
TWIN_MIN_WORDS = 2
_WORDS = re.compile(r"[A-Za-z]+")


def twin_key(clue: str) -> frozenset[str] | None:
    """The roots of ``clue``'s content words, or None when it has fewer than TWIN_MIN_WORDS (or
    letters outside A-Z: other scripts are not compared)."""
    words = _WORDS.findall(clue)
    if not words:
        return None
    roots = roots_of("".join(words).upper(), " ".join(words))
    return roots if len(roots) >= TWIN_MIN_WORDS else None
