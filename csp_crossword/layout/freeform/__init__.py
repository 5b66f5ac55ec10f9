"""Freeform puzzles: lay out a word-and-clue list on a board, crossing words at equal glyphs.

``board.py`` holds the rules (where a word may go), ``frontier.py`` the valid placements kept up
to date as a board grows, ``candidates.py`` the same for large lists (words drawn from an index by
length, position and glyph), ``search.py`` the search (after Helmig's generator, the Google I/O
crossword generator and Mr. Crossworder), ``neighbours.py`` its improvement moves, ``symmetry.py``
its symmetric pairs, ``replace.py`` a word swapped for another that fits its cells, ``result.py``
the finished board. One connected piece unless islands are allowed.
"""

from ...core.grid import Direction
from .board import MAX_BOARD_SIDE, MAX_FREEFORM_WORD_GLYPHS, Board, BoardRules, Placement, check_word_lengths
from .candidates import SPAN_WORDS, SpanFrontier, SpanIndex
from .frontier import Frontier
from .result import FreeformResult
from .search import DEFAULT_SECONDS, Freeform, freeform

__all__ = [
    "DEFAULT_SECONDS",
    "MAX_BOARD_SIDE",
    "MAX_FREEFORM_WORD_GLYPHS",
    "check_word_lengths",
    "Board",
    "Direction",
    "BoardRules",
    "Freeform",
    "FreeformResult",
    "Frontier",
    "Placement",
    "SPAN_WORDS",
    "SpanFrontier",
    "SpanIndex",
    "freeform",
]
