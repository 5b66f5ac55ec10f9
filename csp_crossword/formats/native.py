"""Our own formats as crossword files: grid text (``.txt``) and the JSON result (``.json``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import InputError
from ..core.files import parse_json, read_text_file
from ..core.glyphs import normalize_glyph
from ..core.grid import Grid, format_grid, parse_grid
from ..core.limits import check_clue, check_grid_size
from . import Puzzle
from .documents import puzzle_to_dict, to_json
from .native_extras import extras_from_dict


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


def dumps_text_losses(puzzle: Puzzle) -> list[str]:
    """A grid text holds the cells only."""
    losses = []
    clues = puzzle.clue_count()
    if clues:
        losses.append(f"{clues} clue(s) left out: a grid text holds no clues")
    kept = [key for key in METADATA_FIELDS if getattr(puzzle, key)]
    if kept:
        losses.append(f"{', '.join(kept)} left out: a grid text holds no metadata")
    counts = puzzle.style_counts()
    for count, what in ((counts["circles"], "circled"), (counts["shaded"], "shaded"), (counts["barred"], "barred")):
        if count:
            losses.append(f"{count} {what} cell(s) written plain: a grid text has no cell styles")
    if puzzle.voids:
        losses.append(f"{len(puzzle.voids)} void cell(s) written as blocks")
    if puzzle.diagramless or puzzle.kind:
        losses.append(f"a grid text is a plain crossword: the {puzzle.kind or 'diagramless'} puzzle reads back as one")
    if puzzle.locked is not None:
        losses.append("the scrambled (locked) solution left out: the grid is written without it")
    return losses


#: Text fields of a JSON result kept as the puzzle's metadata.
METADATA_FIELDS = ("title", "author", "copyright", "notes")


def read_json(path: str) -> Puzzle:
    """A JSON result of ``fill``, ``generate``, ``freeform`` or ``convert``. Every field read is
    checked (type and size); a problem names the file and the field (``cells[3][4]``,
    ``entries[2].clue``)."""
    data = parse_json(read_text_file(path), path, "a csp-crossword JSON result")
    if not isinstance(data, dict):
        raise InputError("not a csp-crossword JSON result: a JSON object with 'cells'", path)
    cells = data.get("cells")
    if (
        not isinstance(cells, list)
        or not cells
        or not all(isinstance(row, list) and len(row) == len(cells[0]) for row in cells)
        or not cells[0]
    ):
        raise InputError("not a csp-crossword JSON result: 'cells' must be a list of equal, non-empty rows", path)
    check_grid_size(len(cells), len(cells[0]), path, field="cells")
    rows = []
    for r, row in enumerate(cells):
        out = []
        for c, value in enumerate(row):
            if value is not None and not isinstance(value, str):
                raise InputError(f"cells[{r}][{c}] must be a string or null", path)
            out.append(None if value is None else normalize_glyph(value) if value else "")
        rows.append(tuple(out))
    pattern = _pattern(rows)
    grid = Grid(pattern.cells, rtl=_flag(data, "rtl", path), source=path)
    filled = all(v for row in rows for v in row if v is not None)
    clues = _clues(data.get("entries", []), path)
    if not filled:
        grid = Grid(tuple(rows), rtl=grid.rtl, source=path)
    title, author, copyright, notes = (_text(data, key, path) for key in METADATA_FIELDS)
    kind = data.get("kind")
    if kind is not None and not isinstance(kind, str):
        raise InputError("'kind' must be a string", path)
    return Puzzle(
        grid,
        solution=tuple(rows) if filled else None,
        clues=clues,
        title=title,
        author=author,
        copyright=copyright,
        notes=notes,
        freeform=kind == "freeform",
        **extras_from_dict(data, len(rows), len(rows[0]), path),
    )


def _flag(data: dict[str, Any], key: str, path: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"'{key}' must be true or false", path)
    return value


def _text(data: dict[str, Any], key: str, path: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"'{key}' must be a string", path)
    return value


def _clues(entries: Any, path: str) -> dict[str, str]:
    """Clue by slot id from a result's ``entries`` (a list of objects; ``id`` and ``clue`` are
    strings when present). Ids the grid does not have are kept and never used."""
    if not isinstance(entries, list):
        raise InputError("'entries' must be a list", path)
    clues: dict[str, str] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise InputError(f"entries[{i}] must be an object", path)
        slot_id, clue = entry.get("id"), entry.get("clue")
        if slot_id is not None and not isinstance(slot_id, str):
            raise InputError(f"entries[{i}].id must be a string", path)
        if clue is not None and not isinstance(clue, str):
            raise InputError(f"entries[{i}].clue must be a string", path)
        if slot_id and clue:
            clues[slot_id.strip().upper()] = check_clue(clue, path, field=f"entries[{i}].clue")
    return clues


def dumps_json(puzzle: Puzzle) -> str:
    return to_json(puzzle_to_dict(puzzle))
