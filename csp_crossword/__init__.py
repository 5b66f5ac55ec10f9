"""csp-crossword: fill, check, count and generate crossword grids by constraint solving."""
