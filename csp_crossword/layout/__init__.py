"""Crosswords without a given pattern.

``patterns.py`` draws block patterns, ``generate.py`` fills them (the CSP path) or falls back to
``progressive.py`` (Darwish's progressive search); ``freeform/`` lays a word list out as a
freeform board; ``sheets.py`` makes the puzzle sheets of a board (numbered grid, clue lists, word
search). Every entry point keeps one deadline for the whole job and stops when ``stop`` is set.
"""
