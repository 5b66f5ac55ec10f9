"""Clue sources for entries whose word list gives none (WordNet glosses)."""

from .wordnet import WORDNET_DIRS, add_wordnet_clues, wordnet_directory, wordnet_glosses

__all__ = ["WORDNET_DIRS", "add_wordnet_clues", "wordnet_directory", "wordnet_glosses"]
