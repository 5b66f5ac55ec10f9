"""Fill-in puzzles: a grid followed by the `;`-separated list of the words to place.

Every listed word is used exactly as many times as it is listed, and no other word. The block
symbol is read from the grid (``+`` when the grid has one, else ``#``, or the one given), never
from the words, so a word may contain ``X`` or ``+``-free letters freely.

>>> puzzle = parse_fill_in("+-+\\n---\\n+-+\\nCAT;OWL\\n")
>>> puzzle.block, puzzle.empty, puzzle.words
('+', '-', ('CAT', 'OWL'))
>>> [slot.id for slot in puzzle.grid.slots]
['2A', '1D']
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.errors import InputError
from ..core.files import read_text_file
from ..core.glyphs import normalize_entry, split_glyphs
from ..core.grid import BLOCK, EMPTY, Grid, parse_grid
from ..words.lexicon import Lexicon
from ..words.word_index import _valid_entry


@dataclass(frozen=True)
class FillInPuzzle:
    """A fill-in puzzle and the symbols its text used."""

    grid: Grid
    words: tuple[str, ...]
    block: str
    empty: str

    def lexicon(self) -> Lexicon:
        return Lexicon.from_words(self.words, name="fill-in words")


def _word_lines(lines: list[str]) -> int:
    """Index of the first trailing line that holds words (contains ';'), or len(lines)."""
    end = len(lines)
    while end > 0 and (";" in lines[end - 1] or not lines[end - 1].strip()):
        end -= 1
    return end if any(";" in line for line in lines[end:]) else len(lines)


def is_fill_in(text: str) -> bool:
    lines = text.split("\n")
    return _word_lines(lines) < len(lines)


def _symbols(grid_text: str, block: str | None) -> tuple[str, str]:
    glyphs = set(split_glyphs(grid_text))
    if block is None:
        block = "+" if "+" in glyphs else BLOCK
    empty = "-" if "-" in glyphs and block != "-" else EMPTY
    return block, empty


def parse_fill_in(text: str, path: str | None = None, *, block: str | None = None, rtl: bool = False) -> FillInPuzzle:
    """Parse a fill-in puzzle; errors name the file, line and column."""
    lines = text.split("\n")
    split = _word_lines(lines)
    grid_text = "\n".join(lines[:split])
    block, empty = _symbols(grid_text, block)
    grid = parse_grid(grid_text, path, rtl=rtl, block=block, empty=empty)
    words: list[str] = []
    for offset, line in enumerate(lines[split:], start=split + 1):
        col = 1
        for part in line.split(";"):
            word = part.strip()
            if word:
                if not _valid_entry(normalize_entry(word)):
                    lead = len(split_glyphs(part)) - len(split_glyphs(part.lstrip()))
                    raise InputError(f"{word!r} is not a word a grid can hold", path, offset, col + lead)
                words.append(word)
            col += len(split_glyphs(part)) + 1
    if not words:
        raise InputError("the word line lists no word", path, split + 1)
    return FillInPuzzle(grid, tuple(normalize_entry(w) for w in words), block, empty)


def read_grid_file(
    path: str | os.PathLike[str], *, block: str | None = None, rtl: bool = False
) -> tuple[Grid, FillInPuzzle | None]:
    """Read a grid file; when it ends with a word line it is a fill-in puzzle (second value)."""
    name = os.fspath(path)
    text = read_text_file(name)
    if is_fill_in(text):
        puzzle = parse_fill_in(text, name, block=block, rtl=rtl)
        return puzzle.grid, puzzle
    if block is not None and block != BLOCK:
        return parse_grid(text, name, rtl=rtl, block=block), None
    return parse_grid(text, name, rtl=rtl), None
