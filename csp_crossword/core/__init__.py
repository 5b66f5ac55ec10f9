"""The vocabulary every stage shares: glyphs, the grid and its slots, results, errors, deadlines,
size limits and safe file access. Nothing here imports another stage."""
