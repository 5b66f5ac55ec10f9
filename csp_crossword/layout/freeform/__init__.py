"""Freeform puzzles: lay out a word-and-clue list on a board, crossing words at equal glyphs.

``board.py`` holds the rules (where a word may go), ``frontier.py`` the valid placements kept up
to date as a board grows, ``search.py`` the search (after Helmig's generator, the Google I/O
crossword generator and Mr. Crossworder). One connected piece unless islands are allowed.
"""

from ...grid import Direction
from .board import MAX_BOARD_SIDE, MAX_FREEFORM_WORD_GLYPHS, Board, BoardRules, Placement, check_word_lengths
from .frontier import Frontier
from .search import DEFAULT_SECONDS, Freeform, FreeformResult, freeform

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
    "freeform",
]
