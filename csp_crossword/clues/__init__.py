"""Clue sources for entries whose word list gives none (the clues shipped for the built-in list,
WordNet glosses)."""

from .builtin import BuiltinClues
from .wordnet import PARTS_OF_SPEECH, WORDNET_DIRS, add_wordnet_clues, wordnet_directory, wordnet_glosses

__all__ = [
    "BuiltinClues",
    "PARTS_OF_SPEECH",
    "WORDNET_DIRS",
    "add_wordnet_clues",
    "wordnet_directory",
    "wordnet_glosses",
]
