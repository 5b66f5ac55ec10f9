"""Crossword files in the web constructor: opening an uploaded file into the page's puzzle shape,
and the page's puzzle saved in a file format or printed. Plain functions of validated models;
:mod:`.app` runs them on worker threads.
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..core.errors import InputError
from ..core.grid import Grid
from ..formats import EDGES, FILE_FORMATS, CellStyle, Puzzle, file_format

if TYPE_CHECKING:
    from .models import PuzzleModel

#: The largest crossword file the page may open, in bytes.
MAX_PUZZLE_FILE_BYTES = 4 * 1024 * 1024


def open_puzzle(name: str, data: bytes) -> dict[str, Any]:
    """Read an uploaded crossword file (format by its ending) into the page's puzzle shape."""
    from ..api import read_puzzle

    if len(data) > MAX_PUZZLE_FILE_BYTES:
        raise InputError(f"a crossword file may be at most {MAX_PUZZLE_FILE_BYTES // (1024 * 1024)} MB", name)
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in FILE_FORMATS:
        raise InputError(f"unknown file type {suffix or '(none)'}: open one of {', '.join(sorted(FILE_FORMATS))}", name)
    handle, path = tempfile.mkstemp(suffix=suffix, prefix="csp-crossword-open-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            puzzle = read_puzzle(path)
        except InputError as error:
            raise InputError(error.message, os.path.basename(name), error.line, error.column) from None
    finally:
        os.unlink(path)
    # What the reader noticed and let pass (a wrong checksum, a variety puzzle read as a grid).
    warnings = list(puzzle.warnings)
    if puzzle.locked is not None:
        warnings.append(
            "the file's solution is scrambled (locked with a key): the grid opens without its letters; "
            "unscramble it in the program that locked it to see them"
        )
    if puzzle.diagramless:
        warnings.append("a diagramless puzzle: its solvers are not shown the blocks, which the page shows you")
    return {**puzzle_to_page(puzzle), "warnings": warnings}


def puzzle_to_page(puzzle: Puzzle) -> dict[str, Any]:
    grid = puzzle.grid
    cells = puzzle.solution if puzzle.solution is not None else grid.cells
    return {
        "grid": {"cells": [list(row) for row in cells], "rtl": grid.rtl},
        "solution": [list(row) for row in puzzle.solution] if puzzle.solution is not None else None,
        "clues": dict(puzzle.clues),
        "title": puzzle.title,
        "author": puzzle.author,
        "copyright": puzzle.copyright,
        "notes": puzzle.notes,
        "freeform": puzzle.freeform,
        "styles": [
            {
                "row": r,
                "col": c,
                "circle": style.circle,
                "shaded": style.shaded,
                "color": style.color,
                "bars": [edge for edge in EDGES if edge in style.bars],
            }
            for (r, c), style in sorted(puzzle.styles.items())
            if style and grid.in_bounds(r, c)
        ],
        "voids": [[r, c] for r, c in sorted(puzzle.voids)],
        "locked_cells": [[r, c] for r, c in sorted(puzzle.locked_cells)],
        "filled_cells": [[r, c] for r, c in sorted(puzzle.filled_cells)],
    }


def page_to_puzzle(model: PuzzleModel) -> Puzzle:
    """The page's puzzle as the library's: a grid whose every open cell has a letter is the
    solution, with an empty pattern; a partly filled one is a pattern with given letters."""
    grid = model.grid.to_grid()
    solution = None
    if model.solution is not None:
        solution = _solution(grid, model.solution)
    elif grid.slots and all(v for row in grid.cells for v in row if v is not None):
        solution = grid.cells
    if solution is not None:
        blank = tuple(tuple(None if v is None else "" for v in row) for row in solution)
        grid = Grid(blank, rtl=grid.rtl)
    clues = {k: v for k, v in model.clues.items() if v.strip()}
    puzzle = Puzzle(grid, solution, clues, model.title, model.author, model.copyright, model.notes, model.freeform)
    puzzle.styles = _styles(grid, model)
    puzzle.voids = _voids(grid, model)
    puzzle.locked_cells = _open_cells(grid, model.locked_cells, "locked_cells")
    puzzle.filled_cells = _open_cells(grid, model.filled_cells, "filled_cells")
    return puzzle


def _open_cells(grid: Grid, cells: list[tuple[int, int]], field: str) -> frozenset[tuple[int, int]]:
    """Cells the constructor's work names (locks, the fill's letters): each an open cell of the grid."""
    for r, c in cells:
        if not grid.in_bounds(r, c) or grid.is_block(r, c):
            where = f"cell ({r + 1}, {c + 1})"
            raise InputError(f"{where} is not an open cell of the {grid.rows} x {grid.cols} grid", field)
    return frozenset(cells)


def _styles(grid: Grid, model: PuzzleModel) -> dict[tuple[int, int], CellStyle]:
    """The page's cell styles as the library's, each cell once and inside the grid."""
    styles: dict[tuple[int, int], CellStyle] = {}
    for item in model.styles:
        where = (item.row, item.col)
        if not grid.in_bounds(*where):
            raise InputError(
                f"cell ({item.row + 1}, {item.col + 1}) is outside the {grid.rows} x {grid.cols} grid", "styles"
            )
        if where in styles:
            raise InputError(f"cell ({item.row + 1}, {item.col + 1}) is styled twice", "styles")
        style = CellStyle(item.circle, item.shaded, item.color.lower(), frozenset(item.bars))
        if style:
            styles[where] = style
    return styles


def _voids(grid: Grid, model: PuzzleModel) -> frozenset[tuple[int, int]]:
    """The void cells: each inside the grid and ``null`` in its cells, as the library keeps them."""
    for r, c in model.voids:
        if not grid.in_bounds(r, c):
            raise InputError(f"void cell ({r + 1}, {c + 1}) is outside the {grid.rows} x {grid.cols} grid", "voids")
        if grid.cells[r][c] is not None:
            raise InputError(
                f"void cell ({r + 1}, {c + 1}) holds a letter or is open: a void is null in the grid", "voids"
            )
    return frozenset(model.voids)


def _solution(grid: Grid, rows: list[list[str | None]]) -> tuple[tuple[str | None, ...], ...]:
    from .models import GridModel

    if len(rows) != grid.rows or any(len(row) != grid.cols for row in rows):
        raise InputError(f"the solution must be {grid.rows} x {grid.cols} like the grid", "solution")
    parsed = GridModel(cells=rows, rtl=grid.rtl).to_grid()
    for r, row in enumerate(parsed.cells):
        for c, value in enumerate(row):
            if (value is None) != grid.is_block(r, c) or value == "":
                raise InputError(f"solution cell ({r + 1}, {c + 1}) does not match the grid", "solution")
    return parsed.cells


def save(model: PuzzleModel, fmt: str) -> tuple[bytes, str, list[str]]:
    """The puzzle file's bytes, a file name, and what the format could not carry (one sentence
    each, as ``convert`` reports it: :meth:`~csp_crossword.formats.FileFormat.losses`)."""
    puzzle = page_to_puzzle(model)
    file_type = file_format(f"puzzle.{fmt}")
    data = file_type.dumps(puzzle)
    name = download_name(model.title, fmt)
    return (data.encode("utf-8") if isinstance(data, str) else data), name, file_type.losses(puzzle)


def download_name(title: str, extension: str) -> str:
    """A file name from a puzzle's title: its letters, digits, spaces, ``-`` and ``_``."""
    stem = "".join(c for c in title if c.isalnum() or c in " -_").strip() or "puzzle"
    return f"{stem}.{extension}"


def attachment(name: str) -> str:
    """The Content-Disposition of a download named ``name``: an ASCII name for old clients and
    the UTF-8 one (RFC 6266), since an HTTP header cannot carry an Arabic or Bangla title as is."""
    stem, extension = os.path.splitext(name)
    plain = "".join(c for c in stem if c.isascii() and (c.isalnum() or c in " -_")).strip() or "puzzle"
    return f"attachment; filename=\"{plain}{extension}\"; filename*=UTF-8''{quote(name)}"


def render(model: PuzzleModel, fmt: str, solution: bool) -> bytes:
    """The printed page (PDF, SVG or HTML) of the puzzle or its answer key; ``play``: the page
    that plays the puzzle (:mod:`csp_crossword.printing.playable`)."""
    from ..api import render as render_page

    puzzle = page_to_puzzle(model)
    if solution and puzzle.solution is None:
        raise InputError("the answer key needs every open cell filled", "puzzle")
    page = render_page(puzzle, fmt, solution=solution)
    return page.encode("utf-8") if isinstance(page, str) else page
