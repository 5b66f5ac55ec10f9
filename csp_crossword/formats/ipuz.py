"""The ipuz format (crossword kinds, spec version 2), read and written with our own code.

Reading checks the fields the spec requires of a crossword (``version``, ``kind``,
``dimensions``, ``puzzle``) and the shapes of ``puzzle`` and ``solution``; problems name the file
and the field (``puzzle[3][4]``), or the line and column of a JSON syntax error. A file wrapped
as ``ipuz({...})`` (JSONP, allowed by the spec) is read too.

Kept: every crossword kind (diagramless sets :attr:`Puzzle.diagramless`, other kinds go to
:attr:`Puzzle.kind`), ``null`` cells as voids, cell labels that differ from the standard
numbering, cell styles (:mod:`.ipuz_styles`), rebus cells and any Unicode glyph, puzzles without
a solution, and clues. A clue is attached to the slot it names (by its ``cells`` when given, else
by the cell its number labels); clues the block grid has no slot for (variety puzzles' ``Bands``
or ``Rows``, entries that bars divide) are kept in :attr:`Puzzle.extra_clues` with a warning.
Right to left and kinds without an ipuz name are stored in extension fields.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.errors import InputError
from ..core.files import parse_json, read_text_file
from ..core.glyphs import normalize_glyph
from ..core.grid import Direction, Grid, Slot
from ..core.limits import MAX_CLUE_NUMBER, MAX_LABEL_CHARS, check_grid_size, clue_number
from . import CellStyle, Position, Puzzle
from .ipuz_clues import clue_heading, read_clues, whole
from .ipuz_styles import read_style, write_style
from .native_extras import cell_list

VERSION = "http://ipuz.org/v2"
CROSSWORD = "http://ipuz.org/crossword"
KIND = CROSSWORD + "#1"
DIAGRAMLESS = CROSSWORD + "/diagramless#1"
#: Extension field for right-to-left puzzles (ipuz has none).
RTL_FIELD = "org.csp-crossword:rtl"
#: Extension field for a puzzle kind that is no ipuz kind (``variety``).
KIND_FIELD = "org.csp-crossword:kind"
#: Extension fields for the constructor's work: ``[[row, col], ...]`` of the cells it locked and
#: of those whose glyph an autofill placed (:attr:`Puzzle.locked_cells`, :attr:`Puzzle.filled_cells`).
WORK_FIELDS = {"locked_cells": "org.csp-crossword:locked-cells", "filled_cells": "org.csp-crossword:filled-cells"}
REQUIRED = ("version", "kind", "dimensions", "puzzle")
#: Names a clue list may have (before an optional ``:label``), as the ipuz validator accepts them.
CLUE_LISTS = ("Across", "Down", "Diagonal", "Diagonal Up", "Diagonal Down Left", "Diagonal Up Left", "Zones", "Clues")
WRAPPER = re.compile(r"\s*[A-Za-z_$][\w$]*\s*\(")


def _unwrap(text: str) -> str:
    """The JSON of ``ipuz({...})`` with the wrapper blanked out (lines and columns stay put)."""
    match = WRAPPER.match(text)
    end = text.rstrip().rstrip(";").rstrip()
    if not match or not end.endswith(")"):
        return text
    return re.sub(r"[^\n]", " ", text[: match.end()]) + end[match.end() : -1]


def _same(value: Any, marker: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, str)) and str(value) == str(marker)


def _cell(value: Any, block: Any, empty: Any) -> tuple[str, str, str, Any]:
    """(``void``, ``block`` or ``open``; the label or ""; the given glyph or ""; the raw style)."""
    style, given = None, ""
    if isinstance(value, dict):
        style = value.get("style")
        glyph = value.get("value")
        if isinstance(glyph, str) and glyph.strip() and not _same(glyph, block):
            given = normalize_glyph(glyph.strip())
        value = value.get("cell", empty)
        if isinstance(value, dict):  # one level: a "cell" that is an object is an open cell
            value = empty
    if value is None:
        return "void", "", "", style
    if _same(value, block):
        return "block", "", "", style
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        value = int(value)  # a label written as 3.0
    if _same(value, empty) or _same(value, 0) or isinstance(value, bool) or not isinstance(value, (int, str)):
        return "open", "", given, style
    return "open", str(value).strip(), given, style


def read(path: str) -> Puzzle:
    data = parse_json(_unwrap(read_text_file(path)), path, "an ipuz file")
    if not isinstance(data, dict):
        raise InputError("an ipuz file is a JSON object", path)
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise InputError(f"ipuz: missing required field(s) {', '.join(missing)}", path)
    kinds = [k for k in (data["kind"] if isinstance(data["kind"], list) else [data["kind"]]) if isinstance(k, str)]
    crosswords = [k for k in kinds if k.startswith(CROSSWORD)]
    if not crosswords:
        raise InputError(f"ipuz: kind {data['kind']!r:.80} is not a crossword", path)
    diagramless = any(k.startswith(CROSSWORD + "/diagramless") for k in crosswords)
    special = next((k for k in crosswords if not k.startswith((KIND[:-1], CROSSWORD + "/diagramless"))), "")
    dims = data["dimensions"]
    if not isinstance(dims, dict) or not all(whole(dims.get(k)) and dims[k] > 0 for k in ("width", "height")):
        raise InputError("ipuz: dimensions must give a positive width and height", path)
    width, height = dims["width"], dims["height"]
    check_grid_size(height, width, path, field="dimensions")
    block, empty = data.get("block", "#"), data.get("empty", 0)
    named = data["styles"] if isinstance(data.get("styles"), dict) else {}
    dropped: set[str] = set()
    cells: list[tuple[str | None, ...]] = []
    voids: set[Position] = set()
    styles: dict[Position, CellStyle] = {}
    file_labels: dict[Position, str] = {}
    for r, row in enumerate(_rows(data["puzzle"], "puzzle", width, height, path)):
        out: list[str | None] = []
        for c, value in enumerate(row):
            what, label, given, raw_style = _cell(value, block, empty)
            if len(label) > MAX_LABEL_CHARS:
                raise InputError(
                    f"puzzle[{r}][{c}]: a cell label of {len(label)} characters; at most {MAX_LABEL_CHARS}", path
                )
            if label.isdecimal() and clue_number(label) is None:  # clues would cite a number no grid has
                why = f"cell number {label}; numbers run from 1 to {MAX_CLUE_NUMBER:,}"
                raise InputError(f"puzzle[{r}][{c}]: {why}", path)
            out.append(given if what == "open" else None)
            if what == "void":
                voids.add((r, c))
            if label:
                file_labels[(r, c)] = label
            style = read_style(raw_style, named, dropped) if raw_style is not None else CellStyle()
            if style:
                styles[(r, c)] = style
        cells.append(tuple(out))
    solution = _solution(data.get("solution"), cells, block, width, height, path)
    grid = Grid(tuple(cells), rtl=bool(data.get(RTL_FIELD)), source=path)
    standard = {slot.start: str(slot.number) for slot in grid.slots}
    labels: dict[Position, str] = {}
    if file_labels and file_labels != standard:
        for pos in sorted(set(file_labels) | set(standard)):
            if file_labels.get(pos, "") != standard.get(pos, ""):
                labels[pos] = file_labels.get(pos, "")
    barred = any(style.bars for style in styles.values())
    warnings: list[str] = []
    clues, extra = read_clues(data.get("clues", {}), grid, file_labels, barred, bool(labels), path, warnings)
    if barred:
        warnings.append(
            "the grid has bars: its entries are the runs the bars divide, which our block grid does not number"
        )
    if extra:
        count = sum(len(group.clues) for group in extra)
        headings = ", ".join(repr(group.heading) for group in extra)
        warnings.append(
            f"a variety puzzle: {count} clue(s) under {headings} are not entries our block grid numbers; "
            "they are kept apart from the slots"
        )
    if dropped:
        warnings.append(f"cell styles not kept: {', '.join(sorted(dropped))}")
    work = {key: cell_list(data.get(field, []), field, height, width, path) for key, field in WORK_FIELDS.items()}
    stored = data.get(KIND_FIELD)
    kind: str = stored if isinstance(stored, str) else special
    if stored is None and not kind and (barred or (extra and not clues)):
        kind = "variety"
    return Puzzle(
        grid,
        solution=solution,
        clues=clues,
        title=_text(data, "title"),
        author=_text(data, "author"),
        copyright=_text(data, "copyright"),
        notes="\n\n".join(t for t in (_text(data, k) for k in ("intro", "notes", "explanation")) if t),
        styles=styles,
        voids=frozenset(voids),
        diagramless=diagramless,
        labels=labels,
        extra_clues=extra,
        kind=kind,
        warnings=warnings,
        locked_cells=work["locked_cells"],
        filled_cells=work["filled_cells"],
    )


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else "" if value is None else str(value)


def _rows(value: Any, name: str, width: int, height: int, path: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != height:
        raise InputError(f"ipuz: {name} must have {height} rows (dimensions.height)", path)
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != width:
            raise InputError(f"ipuz: {name}[{r}] must have {width} cells (dimensions.width)", path)
    return value


def _solution(
    value: Any, cells: list[tuple[str | None, ...]], block: Any, width: int, height: int, path: str
) -> tuple[tuple[str | None, ...], ...] | None:
    """The solution when the file gives a glyph for every open cell, else None."""
    if value is None:
        return None
    sol = []
    for r, row in enumerate(_rows(value, "solution", width, height, path)):
        out: list[str | None] = []
        for c, glyph in enumerate(row):
            if isinstance(glyph, dict):
                glyph = glyph.get("value", glyph.get("cell"))
            if cells[r][c] is None:
                out.append(None)
            elif not isinstance(glyph, str) or not glyph.strip() or _same(glyph, block):
                out.append("")
            else:
                out.append(normalize_glyph(glyph.strip()))
        sol.append(tuple(out))
    return tuple(sol) if all(v for row in sol for v in row if v is not None) else None


def _number(label: str) -> int | str:
    return int(label) if label.isdecimal() and len(label) < 10 else label


def dumps(puzzle: Puzzle) -> str:
    grid = puzzle.grid
    standard = {slot.start: str(slot.number) for slot in grid.slots}
    rows: list[list[Any]] = []
    for r in range(grid.rows):
        row: list[Any] = []
        for c in range(grid.cols):
            value = grid.cells[r][c]
            label = puzzle.labels.get((r, c), standard.get((r, c), ""))
            cell: Any = None if _void(puzzle, r, c) else "#" if value is None else _number(label) if label else 0
            style = write_style(puzzle.styles.get((r, c), CellStyle()))
            if value or style:
                entry: dict[str, Any] = {"cell": cell}
                if value:
                    entry["value"] = value
                if style:
                    entry["style"] = style
                cell = entry
            row.append(cell)
        rows.append(row)
    kinds = [DIAGRAMLESS if puzzle.diagramless else KIND]
    if puzzle.kind.startswith(CROSSWORD) and puzzle.kind not in kinds:
        kinds = [puzzle.kind] + ([DIAGRAMLESS] if puzzle.diagramless else [])
    data: dict[str, Any] = {
        "version": VERSION,
        "kind": kinds,
        "dimensions": {"width": grid.cols, "height": grid.rows},
        "block": "#",
        "empty": 0,
        "puzzle": rows,
    }
    if puzzle.solution is not None:
        data["solution"] = [
            [None if _void(puzzle, r, c) else "#" if v is None else v for c, v in enumerate(row)]
            for r, row in enumerate(puzzle.solution)
        ]
    clues: dict[str, list[Any]] = {}
    for direction in Direction:
        clues[direction.title()] = [
            [_clue_number(puzzle, slot), clue]
            for slot, _, clue in puzzle.entries()
            if slot.direction is direction and (clue or puzzle.label(slot))  # no entry for an unnumbered slot
        ]
    for group in puzzle.extra_clues:
        clues.setdefault(_list_name(group.heading), []).extend([_number(label), text] for label, text in group.clues)
    data["clues"] = clues
    for key in ("title", "author", "copyright", "notes"):
        if getattr(puzzle, key):
            data[key] = getattr(puzzle, key)
    if grid.rtl:
        data[RTL_FIELD] = True
    for key, field in WORK_FIELDS.items():
        if getattr(puzzle, key):
            data[field] = [[r, c] for r, c in sorted(getattr(puzzle, key))]
    inferred = puzzle.extra_clues or any(style.bars for style in puzzle.styles.values())
    if (puzzle.kind or inferred) and not puzzle.kind.startswith(CROSSWORD) and puzzle.kind != "diagramless":
        data[KIND_FIELD] = puzzle.kind  # even "": the reader takes a barred grid for a variety puzzle
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _clue_number(puzzle: Puzzle, slot: Slot) -> int:
    """The number of a slot's clue: its label when that is a number, else its standard number
    (which the reader finds through the unnumbered start cell)."""
    label = puzzle.label(slot)
    return int(label) if label.isdecimal() and len(label) < 10 else slot.number


def _list_name(heading: str) -> str:
    """The clue list name of an extra group: its heading when ipuz knows it (``Diagonal:...``),
    else ``Clues:heading`` (``Across`` and ``Down`` lists only hold the grid's slots)."""
    first, _, rest = heading.partition(":")
    if first in CLUE_LISTS and first not in ("Across", "Down", "Clues") and ":" not in rest:
        return heading
    return "Clues:" + heading.replace(":", " ")


def _void(puzzle: Puzzle, r: int, c: int) -> bool:
    """A cell written ``null``: a void, or the empty space of a freeform board (which a solver
    must see as nothing, not as a black square)."""
    return puzzle.is_void(r, c) or (puzzle.freeform and puzzle.grid.cells[r][c] is None)


def dumps_losses(puzzle: Puzzle) -> list[str]:
    """What an ipuz file cannot carry from ``puzzle``."""
    losses = []
    if puzzle.locked is not None:
        losses.append("a locked (scrambled) solution cannot be written: ipuz has no scrambled solutions")
    if any(clue_heading(_list_name(group.heading)) != group.heading for group in puzzle.extra_clues):
        losses.append("a clue group heading with a colon is written with a space instead (ipuz list names)")
    return losses
