"""Numeric crosswords: the built-in lexicon of products.

Every product z = x × y with 2 <= x <= y <= MAX_FACTOR and 2 to 4 digits is an entry (its digits
are its glyphs) with the clue "x×y", the most balanced factor pair first (56 is "7×8 or 4×14").

>>> lex = products_lexicon()
>>> lex.clue("56")
'7×8 or 4×14'
>>> "97" in lex  # a prime has no such product
False
"""

from __future__ import annotations

from .lexicon import Lexicon
from .word_index import DEFAULT_SCORE

#: Largest factor in a clue (schoolchildren's tables go to 12; longer entries need more).
MAX_FACTOR = 99
#: Most factor pairs quoted in one clue.
CLUE_PAIRS = 2


def products_lexicon(max_factor: int = MAX_FACTOR) -> Lexicon:
    pairs: dict[str, list[str]] = {}
    for x in range(2, max_factor + 1):
        for y in range(x, max_factor + 1):
            z = str(x * y)
            if 2 <= len(z) <= 4:
                pairs.setdefault(z, []).append(f"{x}×{y}")
    scores = {z: DEFAULT_SCORE for z in pairs}
    balanced = {
        z: sorted(p, key=lambda xy: abs(int(xy.split("×")[1]) - int(xy.split("×")[0]))) for z, p in pairs.items()
    }
    clues = {z: " or ".join(p[:CLUE_PAIRS]) for z, p in balanced.items()}
    return Lexicon(scores, clues=clues, name="products")
