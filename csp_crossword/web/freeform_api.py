"""Freeform mode's quick requests: replacing a word of a laid-out board, and the word-search sheet.

``POST /api/freeform/replace`` takes the board (its letters, ``null`` where no letter is), the
entry to replace (its first cell and direction), a seed and the word settings; it answers a
random word of the list that fits the entry's cells with the crossing letters kept, not already
on the board (the built-in list by default; with ``entries``, the pasted list's words that are
not on the board, with their clues). When none fits: 400, "no word of the list fits ?A?E?".

The word-search sheet prints through ``POST /api/print`` with a ``wordsearch`` square
(:func:`print_word_search`). See docs/web.md.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Request
from pydantic import Field

from ..backends.base import MAX_SEED
from ..core.errors import InputError
from ..core.glyphs import normalize_entry
from ..core.grid import Direction, Grid
from ..layout.freeform import MAX_BOARD_SIDE
from ..words.word_index import entry_glyphs
from .models import MAX_FREEFORM_ENTRIES, CellValue, FreeformEntry, WordSettings

if TYPE_CHECKING:
    from .models import PrintRequest
    from .wordlists import ClientLists

#: Runs a function on the server's quick-request threads (app.py's gate).
Quick = Callable[..., Awaitable[Any]]

BoardRow = Annotated[list[CellValue], Field(min_length=1, max_length=MAX_BOARD_SIDE)]


class ReplaceRequest(WordSettings):
    """A board and the entry of it to replace (0-based first cell, in reading order)."""

    cells: list[BoardRow] = Field(min_length=1, max_length=MAX_BOARD_SIDE)
    rtl: bool = False
    row: int = Field(ge=0, lt=MAX_BOARD_SIDE)
    col: int = Field(ge=0, lt=MAX_BOARD_SIDE)
    direction: Literal["across", "down"]
    seed: int = Field(0, ge=0, le=MAX_SEED)
    #: The pasted list: when given, the new word is one of its words not on the board.
    entries: list[FreeformEntry] | None = Field(None, max_length=MAX_FREEFORM_ENTRIES)


def board_grid(rows: list[list[str | None]], rtl: bool) -> Grid:
    """The board as a Grid of its letters (InputError naming a cell that holds no single glyph)."""
    width = len(rows[0])
    cells = []
    for r, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"every row of the board has {width} cells; row {r + 1} has {len(row)}", "cells")
        line: list[str | None] = []
        for c, value in enumerate(row):
            if value in (None, ""):
                line.append(None)
            elif value != value.strip() or len(entry_glyphs(normalize_entry(value))) != 1:
                raise InputError(f"board cell ({r + 1}, {c + 1}) holds {value!r}, not one letter", "cells")
            else:
                line.append(normalize_entry(value))
        cells.append(tuple(line))
    return Grid(tuple(cells), rtl=rtl)


def replace(request: ReplaceRequest, lists: ClientLists) -> dict[str, Any]:
    """The new word for the request's entry, with its clue (the pasted list's, else the word
    list's, else empty) and the pattern it fits."""
    from ..layout.freeform.replace import replace_word
    from ..words.lexicon import Lexicon

    grid = board_grid(request.cells, request.rtl)
    direction = Direction.ACROSS if request.direction == "across" else Direction.DOWN
    clues: dict[str, str] = {}
    if request.entries is not None:
        usable = []
        for entry in request.entries:
            key = normalize_entry(entry.word)
            if key and all(unicodedata.category(ch)[0] in "LMN" for ch in key):  # what a cell holds
                usable.append(entry.word)
                if entry.clue.strip():
                    clues.setdefault(key, entry.clue.strip())
        lexicon = Lexicon.from_words(usable, name="pasted words")
    else:
        lexicon = lists.lexicon(request.words, request.lang, request.allow_offensive, overrides=request.overrides)
    if request.min_score is not None:
        lexicon = lexicon.filtered(request.min_score)
    found = replace_word(
        grid, (request.row, request.col), direction, lexicon, rng=random.Random(request.seed), exclude=request.ban
    )
    return {
        "word": found.word,
        "display": lexicon.display_form(found.word),
        "clue": clues.get(found.word) or lexicon.clue(found.word) or "",
        "pattern": found.pattern,
        "choices": found.choices,
        "direction": request.direction,
        "cells": [list(cell) for cell in found.slot.cells],
    }


def print_word_search(request: PrintRequest) -> tuple[bytes, str]:
    """The word-search sheet of a print request with a ``wordsearch`` square (PDF or HTML), and
    its media type. The words to find are the puzzle's entries; the square must hold the
    puzzle's letters where it has them. ``solution``: the answer key, the words' cells shaded."""
    from ..printing.rendering import default_page
    from ..printing.word_search import word_search_html, word_search_pdf
    from .puzzle_files import page_to_puzzle

    if request.format not in ("pdf", "html"):
        raise InputError("a word search prints as pdf or html", "format")
    square = request.wordsearch or []
    puzzle = page_to_puzzle(request.puzzle)
    letters = puzzle.solution if puzzle.solution is not None else puzzle.grid.cells
    if len(square) != len(letters) or any(len(row) != len(letters[0]) for row in square):
        raise InputError(f"the word search must be {len(letters)} x {len(letters[0])} like the grid", "wordsearch")
    for r, row in enumerate(letters):
        for c, glyph in enumerate(row):
            if glyph and normalize_entry(square[r][c] or "") != glyph:
                raise InputError(f"word search cell ({r + 1}, {c + 1}) differs from the puzzle's letter", "wordsearch")
    words = ["".join(letters[r][c] or "" for r, c in slot.cells) for slot in puzzle.grid.slots]
    key = {(r, c) for r, row in enumerate(letters) for c, v in enumerate(row) if v} if request.solution else set()
    rows = [[v or "" for v in row] for row in square]
    options: dict[str, Any] = {"title": puzzle.title, "key": key, "rtl": puzzle.grid.rtl, "page": default_page()}
    if request.format == "html":
        return word_search_html(rows, words, **options).encode("utf-8"), "text/html; charset=utf-8"
    return word_search_pdf(rows, words, **options), "application/pdf"


def add_routes(app: FastAPI, quick: Quick, lists_of: Callable[[Request], ClientLists]) -> None:
    """The ``/api/freeform`` routes; ``quick`` runs work on the quick-request threads."""

    @app.post("/api/freeform/replace")
    async def replace_route(body: ReplaceRequest, request: Request) -> dict[str, Any]:
        return await quick(replace, body, lists_of(request))  # type: ignore[no-any-return]


__all__ = ["ReplaceRequest", "add_routes", "board_grid", "print_word_search", "replace"]
