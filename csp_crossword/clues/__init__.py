"""Clue sources for entries whose word list gives none (WordNet glosses)."""

from .wordnet import PARTS_OF_SPEECH, WORDNET_DIRS, add_wordnet_clues, wordnet_directory, wordnet_glosses

__all__ = ["PARTS_OF_SPEECH", "WORDNET_DIRS", "add_wordnet_clues", "wordnet_directory", "wordnet_glosses"]
