"""MiniZinc data (``.dzn``) for ``models/crossword.mzn``.

Glyphs are numbered 1..G in the lexicon's alphabet order, open cells 1..C in reading order, slots
1..S in the grid's slot order, and the words are those of the slot lengths present (after the
word-list options), padded with 0.
"""

from __future__ import annotations

from ..core.grid import Grid
from ..words.word_index import entry_glyphs
from .problem import FillProblem


def _array2d(rows: list[list[int]], width: int) -> str:
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    flat = ", ".join(str(v) for row in rows for v in row + [0] * (width - len(row)))
    return f"array2d(1..{len(rows)}, 1..{width}, [{flat}])"


def dzn_data(problem: FillProblem) -> str:
    """The instance as MiniZinc data for ``models/crossword.mzn``."""
    grid: Grid = problem.grid
    alphabet = problem.lexicon.alphabet
    cell_number: dict[tuple[int, int], int] = {}
    given: list[int] = []
    for slot in problem.slots:
        for cell in slot.cells:
            if cell not in cell_number:
                cell_number[cell] = len(cell_number) + 1
                glyph = grid.cells[cell[0]][cell[1]]
                given.append(alphabet[glyph] + 1 if glyph and glyph in alphabet else (-1 if glyph else 0))
    lengths = sorted({slot.length for slot in problem.slots})
    words = [w for n in lengths for w in problem.lexicon.index(n).words]
    max_len = max(lengths)
    glyph_names = sorted(alphabet, key=alphabet.__getitem__)
    lines = [
        f"% csp-crossword export: {grid.rows}x{grid.cols} grid, {len(problem.slots)} slots, {len(words)} words",
        f"% glyphs 1..{len(glyph_names)}: {' '.join(glyph_names)}",
        f"G = {len(glyph_names)};",
        f"C = {len(cell_number)};",
        f"S = {len(problem.slots)};",
        f"W = {len(words)};",
        f"L = {max_len};",
        f"slot_len = [{', '.join(str(s.length) for s in problem.slots)}];",
        f"slot_cell = {_array2d([[cell_number[c] for c in s.cells] for s in problem.slots], max_len)};",
        f"word_len = [{', '.join(str(len(entry_glyphs(w))) for w in words)}];",
        f"word_glyph = {_array2d([[alphabet[g] + 1 for g in entry_glyphs(w)] for w in words], max_len)};",
        f"given = [{', '.join(map(str, given))}];",
        f"allow_duplicates = {'true' if problem.options.allow_duplicates else 'false'};",
    ]
    return "\n".join(lines) + "\n"
