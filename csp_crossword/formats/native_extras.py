"""What a puzzle holds beyond grid, solution and clues, in our JSON document and back.

Fields (each written only when the puzzle has it; docs/formats.md):

* ``styles``: ``[{"row", "col", "circle", "shaded", "color", "bars"}]`` (0-based cells);
* ``voids``: ``[[row, col], ...]``, cells outside the puzzle (``null`` in ``cells`` as blocks are);
* ``diagramless``: true;
* ``labels``: ``[{"row", "col", "label"}]``, cell numbers as the source file gave them;
* ``extra_clues``: ``[{"heading", "clues": [{"label", "clue"}]}]``, clue groups the grid's slots
  do not carry (variety puzzles);
* ``variety``: the kind of a variety puzzle (an ipuz kind URI, ``diagramless``);
* ``locked``: ``{"scrambled", "checksum"}``, a scrambled .puz solution kept as it is;
* ``locked_cells``: ``[[row, col], ...]``, cells the constructor locked;
* ``filled_cells``: ``[[row, col], ...]``, cells whose glyph an autofill placed.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import InputError
from ..core.limits import MAX_LABEL_CHARS, check_clue
from . import EDGES, CellStyle, ClueGroup, LockedSolution, Position, Puzzle


def extras_to_dict(puzzle: Puzzle) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if puzzle.styles:
        styles = []
        for (r, c), style in sorted(puzzle.styles.items()):
            item: dict[str, Any] = {"row": r, "col": c}
            if style.circle:
                item["circle"] = True
            if style.shaded:
                item["shaded"] = True
            if style.color:
                item["color"] = style.color
            if style.bars:
                item["bars"] = [edge for edge in EDGES if edge in style.bars]
            styles.append(item)
        data["styles"] = styles
    if puzzle.voids:
        data["voids"] = [[r, c] for r, c in sorted(puzzle.voids)]
    if puzzle.diagramless:
        data["diagramless"] = True
    if puzzle.labels:
        data["labels"] = [{"row": r, "col": c, "label": label} for (r, c), label in sorted(puzzle.labels.items())]
    if puzzle.extra_clues:
        data["extra_clues"] = [
            {"heading": group.heading, "clues": [{"label": label, "clue": text} for label, text in group.clues]}
            for group in puzzle.extra_clues
        ]
    if puzzle.kind:
        data["variety"] = puzzle.kind
    if puzzle.locked is not None:
        data["locked"] = {"scrambled": puzzle.locked.scrambled, "checksum": puzzle.locked.checksum}
    for key in WORK_FIELDS:
        if getattr(puzzle, key):
            data[key] = [[r, c] for r, c in sorted(getattr(puzzle, key))]
    return data


#: The constructor's work a document keeps (:attr:`Puzzle.locked_cells`, :attr:`Puzzle.filled_cells`).
WORK_FIELDS = ("locked_cells", "filled_cells")


def extras_from_dict(data: dict[str, Any], rows: int, cols: int, path: str) -> dict[str, Any]:
    """Keyword arguments of :class:`Puzzle` read from a JSON document's extra fields, each checked
    (InputError naming the field)."""
    found: dict[str, Any] = {}
    if "styles" in data:
        styles: dict[Position, CellStyle] = {}
        for k, item in enumerate(_list(data, "styles", path)):
            where = f"styles[{k}]"
            if not isinstance(item, dict):
                raise InputError(f"{where} must be an object", path)
            cell = _cell(item.get("row"), item.get("col"), rows, cols, where, path)
            bars = item.get("bars", [])
            if not isinstance(bars, list) or any(edge not in EDGES for edge in bars):
                raise InputError(f"{where}.bars must list edges from {', '.join(EDGES)}", path)
            color = item.get("color", "")
            if not isinstance(color, str) or len(color) > 32:
                raise InputError(f"{where}.color must be a short string", path)
            styles[cell] = CellStyle(
                circle=_bool(item, "circle", where, path),
                shaded=_bool(item, "shaded", where, path),
                color=color,
                bars=frozenset(bars),
            )
        found["styles"] = styles
    for key in ("voids", *WORK_FIELDS):
        if key in data:
            found[key] = cell_list(data[key], key, rows, cols, path)
    if "diagramless" in data:
        found["diagramless"] = _bool(data, "diagramless", "", path)
    if "labels" in data:
        labels: dict[Position, str] = {}
        for k, item in enumerate(_list(data, "labels", path)):
            label = item.get("label") if isinstance(item, dict) else None
            if not isinstance(label, str) or len(label) > MAX_LABEL_CHARS:
                why = f"must be an object with a 'label' of at most {MAX_LABEL_CHARS} characters"
                raise InputError(f"labels[{k}] {why}", path)
            labels[_cell(item.get("row"), item.get("col"), rows, cols, f"labels[{k}]", path)] = item["label"]
        found["labels"] = labels
    if "extra_clues" in data:
        groups = []
        for k, item in enumerate(_list(data, "extra_clues", path)):
            where = f"extra_clues[{k}]"
            if not isinstance(item, dict) or not isinstance(item.get("heading"), str):
                raise InputError(f"{where} must be an object with a string 'heading'", path)
            clues = item.get("clues", [])
            if not isinstance(clues, list):
                raise InputError(f"{where}.clues must be a list", path)
            group = ClueGroup(item["heading"])
            for n, clue in enumerate(clues):
                field = f"{where}.clues[{n}]"
                if not isinstance(clue, dict) or not isinstance(clue.get("clue"), str):
                    raise InputError(f"{field} must be an object with a string 'clue'", path)
                label = clue.get("label", "")
                if not isinstance(label, str):
                    raise InputError(f"{field}.label must be a string", path)
                group.clues.append((label, check_clue(clue["clue"], path, field=f"{field}.clue")))
            groups.append(group)
        found["extra_clues"] = groups
    if "variety" in data:
        if not isinstance(data["variety"], str):
            raise InputError("'variety' must be a string", path)
        found["kind"] = data["variety"]
    if "locked" in data:
        locked = data["locked"]
        if (
            not isinstance(locked, dict)
            or not isinstance(locked.get("scrambled"), str)
            or not isinstance(locked.get("checksum"), int)
        ):
            raise InputError("'locked' must be an object with a string 'scrambled' and an integer 'checksum'", path)
        found["locked"] = LockedSolution(locked["scrambled"], locked["checksum"])
    return found


def cell_list(value: Any, key: str, rows: int, cols: int, path: str) -> frozenset[Position]:
    """A field's ``[[row, col], ...]`` as cells, each checked to lie inside the grid."""
    if not isinstance(value, list):
        raise InputError(f"'{key}' must be a list", path)
    cells = set()
    for k, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(f"{key}[{k}] must be [row, col]", path)
        cells.add(_cell(pair[0], pair[1], rows, cols, f"{key}[{k}]", path))
    return frozenset(cells)


def _list(data: dict[str, Any], key: str, path: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise InputError(f"'{key}' must be a list", path)
    return value


def _bool(data: dict[str, Any], key: str, where: str, path: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"{where + '.' if where else ''}{key} must be true or false", path)
    return value


def _cell(row: Any, col: Any, rows: int, cols: int, where: str, path: str) -> Position:
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < rows and 0 <= col < cols):
        raise InputError(f"{where}: row and col must be cell positions inside the {rows}x{cols} grid", path)
    return row, col
