"""The ``.xd`` text format (Saul Pwanson's crossword corpus format), own reader and writer.

Layout: ``Key: value`` header lines, a blank line, the solution grid (``#`` blocks, one glyph per
cell; a rebus cell is a digit or symbol declared in the ``Rebus: 1=HEART 2=CLUB`` header), a blank
line, the clues ``A1. Clue text ~ ANSWER`` then ``D1. ...``, and optional notes after a blank line.
Sections may also be separated by two blank lines, as the corpus writes them.
"""

from __future__ import annotations

import re

from ..errors import InputError
from ..files import read_text_file
from ..glyphs import normalize_glyph, split_glyphs
from ..grid import Direction, Grid
from ..limits import MAX_CLUE_NUMBER, MAX_GRID_SIDE, check_clue, clue_number
from . import Puzzle

CLUE_LINE = re.compile(r"^([AD])(\d+)\.\s?(.*?)(?:\s~\s(.*))?$")
HEADER_LINE = re.compile(r"^([A-Za-z][\w -]*):\s?(.*)$")
REBUS_SYMBOLS = "123456789@$%&*+=!?0abcdefghijklmnopqrstuvwxyz"


def read(path: str) -> Puzzle:
    lines = read_text_file(path).replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    headers: dict[str, str] = {}
    while i < len(lines) and lines[i].strip():
        match = HEADER_LINE.match(lines[i].strip())
        if not match:
            raise InputError("expected a 'Key: value' header line", path, i + 1, 1)
        headers[match.group(1).strip().lower()] = match.group(2).strip()
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    rebus = {}
    for item in headers.get("rebus", "").split():
        key, sep, value = item.partition("=")
        if sep and key:
            rebus[key] = normalize_glyph(value)
    grid_start = i + 1
    rows: list[str] = []
    while i < len(lines) and lines[i].strip():
        if len(rows) == MAX_GRID_SIDE:
            raise InputError(f"the grid has more than {MAX_GRID_SIDE} rows, the most a grid may have", path, i + 1, 1)
        rows.append(lines[i].strip())
        i += 1
    if not rows:
        raise InputError("no grid after the header", path, grid_start, 1)
    cells: list[tuple[str | None, ...]] = []
    for r, text in enumerate(rows):
        row: list[str | None] = []
        for _c, ch in enumerate(split_glyphs(text)):
            if ch == "#":
                row.append(None)
            elif ch in rebus:
                row.append(rebus[ch])
            elif ch in "._":
                row.append("")
            else:
                row.append(normalize_glyph(ch))
        if len(row) > MAX_GRID_SIDE:
            raise InputError(
                f"the row has {len(row):,} cells; the most a grid may have is {MAX_GRID_SIDE}",
                path,
                grid_start + r,
                MAX_GRID_SIDE + 1,
            )
        if cells and len(row) != len(cells[0]):
            raise InputError(
                f"ragged grid row: {len(row)} cells where the first row has {len(cells[0])}", path, grid_start + r, 1
            )
        cells.append(tuple(row))
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells), source=path)
    filled = all(v for row in cells for v in row if v is not None)
    clues: dict[str, str] = {}
    by_number = {(slot.number, slot.direction.letter): slot.id for slot in pattern.slots}
    notes = []
    for lineno in range(i, len(lines)):
        text = lines[lineno].strip()
        if not text:
            continue
        match = CLUE_LINE.match(text)
        if not match:
            notes.append(text)
            continue
        number = clue_number(match.group(2))
        if number is None:
            raise InputError(
                f"clue {match.group(1)}{match.group(2):.12}: a clue number is a whole number from 1 to "
                f"{MAX_CLUE_NUMBER:,}",
                path,
                lineno + 1,
                2,
            )
        slot_id = by_number.get((number, match.group(1)))
        if slot_id is None:
            raise InputError(f"clue {match.group(1)}{number}: the grid has no such entry", path, lineno + 1, 1)
        if match.group(3).strip():
            clues[slot_id] = check_clue(match.group(3).strip(), path, line=lineno + 1)
    grid = pattern if filled else Grid(tuple(cells), source=path)
    return Puzzle(
        grid,
        solution=tuple(cells) if filled else None,
        clues=clues,
        title=headers.get("title", ""),
        author=headers.get("author", ""),
        copyright=headers.get("copyright", ""),
        notes=headers.get("notes", "") or "\n".join(notes),
    )


def dumps(puzzle: Puzzle) -> str:
    if puzzle.grid.rtl:
        raise InputError("the .xd format has no right-to-left grids; write .ipuz or .json instead")
    cells = puzzle.solution if puzzle.solution is not None else puzzle.grid.cells
    rebus: dict[str, str] = {}
    symbols = iter(REBUS_SYMBOLS)
    rows: list[str] = []
    for row in cells:
        out = []
        for value in row:
            if value is None:
                out.append("#")
            elif not value:
                out.append(".")
            elif len(value) == 1 and value not in REBUS_SYMBOLS and value not in "#._":
                out.append(value)
            else:
                key = next((k for k, v in rebus.items() if v == value), None)
                if key is None:
                    try:
                        key = next(symbols)
                    except StopIteration:
                        raise InputError("too many different rebus cells for the .xd format") from None
                    rebus[key] = value
                out.append(key)
        rows.append("".join(out))
    headers = [
        f"{name.title()}: {getattr(puzzle, name)}" for name in ("title", "author", "copyright") if getattr(puzzle, name)
    ]
    if rebus:
        headers.append("Rebus: " + " ".join(f"{k}={v}" for k, v in rebus.items()))
    parts = ["\n".join(headers) if headers else "Title: ", "\n".join(rows)]
    for direction in Direction:
        lines = []
        for slot, answer, clue in puzzle.entries():
            if slot.direction is direction:
                lines.append(f"{direction.letter}{slot.number}. {clue}" + (f" ~ {answer}" if answer else ""))
        parts.append("\n".join(lines))
    if puzzle.notes:
        parts.append(puzzle.notes)
    return "\n\n\n".join(parts) + "\n"
