"""csp-crossword: fill, check, count and generate crossword grids by constraint solving."""

__version__ = "0.1.0"
