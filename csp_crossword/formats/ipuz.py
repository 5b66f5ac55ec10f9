"""The ipuz format (crossword kind, spec version 2), read and written with our own code.

Reading checks the fields the spec requires of a crossword (``version``, ``kind``,
``dimensions``, ``puzzle``) and the shapes of ``puzzle`` and ``solution``; problems name the file
and the field (``puzzle[3][4]``), or the line and column of a JSON syntax error. Rebus cells
(several letters in one cell) and any Unicode glyph are kept; right to left is stored in the
extension field :data:`RTL_FIELD`.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError
from ..files import parse_json, read_text_file
from ..glyphs import normalize_glyph
from ..grid import Direction, Grid
from ..limits import MAX_CLUE_NUMBER, check_clue, check_grid_size, clue_number
from . import Puzzle

VERSION = "http://ipuz.org/v2"
KIND = "http://ipuz.org/crossword#1"
#: Extension field for right-to-left puzzles (ipuz has none).
RTL_FIELD = "org.csp-crossword:rtl"
REQUIRED = ("version", "kind", "dimensions", "puzzle")


def _cell_value(value: Any, block: str, empty: Any) -> tuple[bool, str]:
    """(is_block, given glyph or "") of one ``puzzle`` cell."""
    if isinstance(value, dict):
        inner = value.get("cell", empty)
        given = value.get("value")
        is_block = inner is None or inner == block  # one level: a "cell" that is an object is open
        return is_block, normalize_glyph(given) if isinstance(given, str) and given not in ("", block) else ""
    if value is None or value == block:
        return True, ""
    return False, ""


def read(path: str) -> Puzzle:
    data = parse_json(read_text_file(path), path, "an ipuz file")
    if not isinstance(data, dict):
        raise InputError("an ipuz file is a JSON object", path)
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise InputError(f"ipuz: missing required field(s) {', '.join(missing)}", path)
    kinds = data["kind"] if isinstance(data["kind"], list) else [data["kind"]]
    if not any(isinstance(k, str) and k.startswith("http://ipuz.org/crossword") for k in kinds):
        raise InputError(f"ipuz: kind {data['kind']!r:.80} is not a crossword", path)
    dims = data["dimensions"]
    if not isinstance(dims, dict) or not all(_whole(dims.get(k)) and dims[k] > 0 for k in ("width", "height")):
        raise InputError("ipuz: dimensions must give a positive width and height", path)
    width, height = dims["width"], dims["height"]
    check_grid_size(height, width, path, field="dimensions")
    block, empty = data.get("block", "#"), data.get("empty", 0)
    grid_rows = _rows(data["puzzle"], "puzzle", width, height, path)
    cells, blocks = [], []
    for row in grid_rows:
        out, flags = [], []
        for value in row:
            is_block, given = _cell_value(value, block, empty)
            out.append(None if is_block else given)
            flags.append(is_block)
        cells.append(tuple(out))
        blocks.append(flags)
    solution = None
    if data.get("solution") is not None:
        rows = _rows(data["solution"], "solution", width, height, path)
        sol = []
        for r, row in enumerate(rows):
            out = []
            for c, value in enumerate(row):
                if isinstance(value, dict):
                    value = value.get("value", value.get("cell"))
                if blocks[r][c]:
                    out.append(None)
                elif not isinstance(value, str) or value in ("", block):
                    out.append("")
                else:
                    out.append(normalize_glyph(value))
            sol.append(tuple(out))
        solution = tuple(sol) if all(v for row in sol for v in row if v is not None) else None
    grid = Grid(tuple(cells), rtl=bool(data.get(RTL_FIELD)), source=path)
    clues = _clues(data.get("clues", {}), grid, path)
    return Puzzle(
        grid,
        solution=solution,
        clues=clues,
        title=str(data.get("title", "")),
        author=str(data.get("author", "")),
        copyright=str(data.get("copyright", "")),
        notes=str(data.get("notes", "")),
    )


def _whole(value: Any) -> bool:
    """Whether a JSON value is a whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _rows(value: Any, name: str, width: int, height: int, path: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != height:
        raise InputError(f"ipuz: {name} must have {height} rows (dimensions.height)", path)
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != width:
            raise InputError(f"ipuz: {name}[{r}] must have {width} cells (dimensions.width)", path)
    return value


def _clues(value: Any, grid: Grid, path: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise InputError("ipuz: clues must be an object (Across, Down)", path)
    by_number = {(slot.number, slot.direction): slot.id for slot in grid.slots}
    found: dict[str, str] = {}
    for key, items in value.items():
        try:
            direction = Direction(key.split(":")[0].strip().lower())
        except ValueError:
            continue  # not an Across or Down list
        if not isinstance(items, list):
            raise InputError(f"ipuz: clues.{key} must be a list", path)
        for i, item in enumerate(items):
            if isinstance(item, dict):
                raw, text = item.get("number"), item.get("clue", "")
            elif isinstance(item, list) and len(item) >= 2:
                raw, text = item[0], item[1]
            else:
                raise InputError(f"ipuz: clues.{key}[{i}] must be [number, clue] or an object", path)
            number = clue_number(raw)
            if number is None:
                raise InputError(
                    f"ipuz: clues.{key}[{i}] has no clue number (a whole number from 1 to "
                    f"{MAX_CLUE_NUMBER:,}): {raw!r:.40}",
                    path,
                )
            if text is not None and not isinstance(text, (str, int, float)):
                raise InputError(f"ipuz: clues.{key}[{i}]: the clue must be text", path)
            slot_id = by_number.get((number, direction))
            if slot_id is None:
                raise InputError(f"ipuz: clues.{key}[{i}]: the grid has no {number} {direction}", path)
            if text:
                found[slot_id] = check_clue(str(text), path, field=f"ipuz: clues.{key}[{i}]")
    return found


def dumps(puzzle: Puzzle) -> str:
    grid = puzzle.grid
    numbers = {slot.start: slot.number for slot in grid.slots}
    rows: list[list[Any]] = []
    for r in range(grid.rows):
        row: list[Any] = []
        for c in range(grid.cols):
            value = grid.cells[r][c]
            if value is None:
                row.append("#")
            elif value:
                row.append({"cell": numbers.get((r, c), 0), "value": value})
            else:
                row.append(numbers.get((r, c), 0))
        rows.append(row)
    data = {
        "version": VERSION,
        "kind": [KIND],
        "dimensions": {"width": grid.cols, "height": grid.rows},
        "block": "#",
        "empty": 0,
        "puzzle": rows,
    }
    if puzzle.solution is not None:
        data["solution"] = [["#" if v is None else v for v in row] for row in puzzle.solution]
    data["clues"] = {
        "Across": [[slot.number, clue] for slot, _, clue in puzzle.entries() if slot.direction is Direction.ACROSS],
        "Down": [[slot.number, clue] for slot, _, clue in puzzle.entries() if slot.direction is Direction.DOWN],
    }
    for key in ("title", "author", "copyright", "notes"):
        if getattr(puzzle, key):
            data[key] = getattr(puzzle, key)
    if grid.rtl:
        data[RTL_FIELD] = True
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
