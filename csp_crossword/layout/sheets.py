"""Puzzle sheets for a laid-out board: numbered blank grid, clue lists, word search, JSON.

A board here is a :class:`~csp_crossword.core.grid.Grid` (``None`` where no letter goes) and its
cells. Entries are numbered the standard way (``Grid.slots``: left to right, top to bottom, from
the top right in right-to-left grids); each entry's clue and display form come from the word
list.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.words.lexicon import Lexicon
>>> grid = parse_grid("CAT\\nA##\\nB##")
>>> cells = grid.cells
>>> grid = grid.with_cells([["" if v else None for v in row] for row in cells])
>>> lexicon = Lexicon.from_words(["CAT", "CAB"])
>>> print(blank_grid_text(grid), end="")
1 . .
. # #
. # #
>>> [e["id"] + " " + e["answer"] for e in numbered_entries(grid, cells, lexicon)]
['1A CAT', '1D CAB']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from ..core.grid import ACROSS, BLOCK, DOWN, EMPTY, Cell, Grid
from ..words.lexicon import Lexicon

Cells = tuple[tuple[Cell, ...], ...]


def numbered_entries(grid: Grid, cells: Cells, lexicon: Lexicon) -> list[dict[str, Any]]:
    """Every entry of the board, across then down, with its number, answer, display form and clue."""
    entries = []
    for slot in grid.slots:
        answer = "".join(cells[r][c] or "" for r, c in slot.cells)
        entries.append(
            {
                **slot.to_dict(),
                "answer": answer,
                "display": lexicon.display_form(answer),
                "clue": lexicon.clue(answer) or "",
            }
        )
    return entries


def blank_grid_text(grid: Grid) -> str:
    """The empty grid to print: clue numbers in the first cell of entries, ``.`` other letter
    cells, ``#`` cells without a letter; columns right-aligned."""
    numbers = {slot.start: slot.number for slot in grid.slots}
    width = len(str(max(numbers.values(), default=1)))
    lines = []
    for r in range(grid.rows):
        row = []
        for c in range(grid.cols):
            if grid.cells[r][c] is None:
                row.append(BLOCK.rjust(width))
            else:
                row.append(str(numbers.get((r, c), EMPTY)).rjust(width))
        lines.append(" ".join(row).rstrip())
    return "\n".join(lines) + "\n"


def clue_lists_text(entries: list[dict[str, Any]]) -> str:
    """``Across`` and ``Down`` lists: number, clue (or a blank line to write one) and length."""
    lines = []
    for heading, direction in (("Across", ACROSS), ("Down", DOWN)):
        lines.append(heading)
        for entry in entries:
            if entry["direction"] == direction:
                clue = entry["clue"] or "_" * 12
                lines.append(f"{entry['number']:>4}. {clue} ({entry['length']})")
        lines.append("")
    return "\n".join(lines)


def word_search(cells: Cells, alphabet: list[str], rng: random.Random) -> list[list[str]]:
    """The board with every cell that holds no letter filled with a random glyph of ``alphabet``."""
    return [[v if v is not None else rng.choice(alphabet) for v in row] for row in cells]


def alphabet_of(words: Iterable[str]) -> list[str]:
    """The glyphs the words use, sorted: what a word search fills its spare cells with."""
    from ..words.word_index import entry_glyphs

    return sorted({g for w in words for g in entry_glyphs(w)})
