"""Our own formats as crossword files: grid text (``.txt``) and the JSON result (``.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..documents import puzzle_to_dict, to_json
from ..errors import InputError
from ..files import read_text_file
from ..glyphs import normalize_glyph
from ..grid import Grid, format_grid, parse_grid
from . import Puzzle


def _pattern(cells: Iterable[Iterable[str | None]]) -> Grid:
    return Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))


def read_text(path: str) -> Puzzle:
    """A grid text file: a fully lettered grid is a solution, otherwise letters are givens."""
    grid = parse_grid(read_text_file(path), path)
    if all(v for row in grid.cells for v in row if v is not None):
        pattern = _pattern(grid.cells)
        return Puzzle(Grid(pattern.cells, source=path), solution=grid.cells)
    return Puzzle(grid)


def dumps_text(puzzle: Puzzle) -> str:
    return format_grid(puzzle.grid, puzzle.solution)


def read_json(path: str) -> Puzzle:
    """A JSON result of ``fill``, ``generate``, ``freeform`` or ``convert``."""
    try:
        data = json.loads(read_text_file(path))
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno, error.colno) from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if (
        not isinstance(cells, list)
        or not cells
        or not all(isinstance(row, list) and len(row) == len(cells[0]) for row in cells)
    ):
        raise InputError("not a csp-crossword JSON result: 'cells' must be a list of equal rows", path)
    rows = []
    for r, row in enumerate(cells):
        out = []
        for c, value in enumerate(row):
            if value is not None and not isinstance(value, str):
                raise InputError(f"cells[{r}][{c}] must be a string or null", path)
            out.append(None if value is None else normalize_glyph(value) if value else "")
        rows.append(tuple(out))
    pattern = _pattern(rows)
    grid = Grid(pattern.cells, rtl=bool(data.get("rtl")), source=path)
    filled = all(v for row in rows for v in row if v is not None)
    clues = {e["id"]: e["clue"] for e in data.get("entries", []) if isinstance(e, dict) and e.get("clue") and "id" in e}
    if not filled:
        grid = Grid(tuple(rows), rtl=grid.rtl, source=path)
    return Puzzle(
        grid,
        solution=tuple(rows) if filled else None,
        clues=clues,
        title=str(data.get("title", "")),
        author=str(data.get("author", "")),
        copyright=str(data.get("copyright", "")),
        notes=str(data.get("notes", "")),
        freeform=data.get("kind") == "freeform",
    )


def dumps_json(puzzle: Puzzle) -> str:
    return to_json(puzzle_to_dict(puzzle))
