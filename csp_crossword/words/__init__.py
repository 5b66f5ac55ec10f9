"""Word lists: reading them, the built-in lists and their ready indexes, scores and overrides, and
the per-length word index (a bitset per position and glyph) that the search works on."""
