"""The ``.xd`` text format (Saul Pwanson's crossword corpus format), own reader and writer.

Two layouts, as the xd spec allows:

* classic: ``Key: value`` header lines, a blank line, the solution grid, a blank line, the clues
  ``A1. Clue text ~ ANSWER`` then ``D1. ...``, and notes (sections may be separated by two blank
  lines, as the corpus writes them);
* sectioned: ``## Metadata``, ``## Grid``, ``## Clues``, ``## Notes`` in any order, plus the
  Puzzmo sections ``## Start`` (pre-filled letters) and ``## Design`` (cell styles: a ``<style>``
  block of one-letter rules such as ``O { background: circle }`` or ``A { bar-top: true }``, then
  a grid of those letters). Other sections are skipped with a warning.

Grid cells: ``#`` blocks, ``_`` cells outside the puzzle (voids), ``.`` an empty cell (or a block,
Puzzmo's convention, in a grid that has letters and no ``#``), a rebus symbol declared in the
``Rebus: 1=HEART 2=CLUB`` header (spaces or commas between), and lowercase letters for the
``Special: circle`` or ``Special: shaded`` cells when that header is present.
"""

from __future__ import annotations

import re

from ..core.errors import InputError
from ..core.files import read_text_file
from ..core.glyphs import normalize_glyph, split_glyphs
from ..core.grid import Direction, Grid
from ..core.limits import MAX_CLUE_NUMBER, MAX_GRID_SIDE, check_clue, clue_number
from . import CellStyle, Position, Puzzle
from .xd_design import DESIGN_NAMES, parse_design, write_rule

CLUE_LINE = re.compile(r"^([AD])(\d+)\.\s?(.*?)(?:\s~\s(.*))?$")
CLUE_METADATA = re.compile(r"^[A-Za-z]\d+\s*\^")
HEADER_LINE = re.compile(r"^([A-Za-z][\w -]*):\s?(.*)$")
SECTION_LINE = re.compile(r"^##\s+(\S.*?)\s*$")
REBUS_SYMBOLS = "123456789@$%&*+=!?0"
SECTIONS = ("metadata", "grid", "clues", "notes", "design", "start")
Lines = list[tuple[int, str]]


def _sections(lines: list[str], path: str, warnings: list[str]) -> dict[str, Lines]:
    """The lines (number, text) of each ``## Section`` of a sectioned file."""
    found: dict[str, Lines] = {}
    current: str | None = None
    in_comment = False
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if in_comment or text.startswith("<!--"):
            in_comment = "-->" not in text
            continue
        match = SECTION_LINE.match(line)
        if match:
            title = match.group(1).lower()
            current = "metadata" if title == "meta" else next((s for s in SECTIONS if title.startswith(s)), "")
            if not current:
                warnings.append(f"the section '## {match.group(1)}' (line {number}) is not read")
            elif current in found:
                raise InputError(f"a second '## {match.group(1)}' section", path, number, 1)
            else:
                found[current] = []
            continue
        if current is None:
            if text:
                raise InputError("text before the first '## ' section header", path, number, 1)
            continue
        if current:
            found[current].append((number, line))
    if "grid" not in found:
        raise InputError("no '## Grid' section", path)
    return found


def _classic(lines: list[str]) -> dict[str, Lines]:
    """Headers, grid, and the clue and note lines after it, of a file without section headers."""
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    found: dict[str, Lines] = {"metadata": [], "grid": [], "clues": []}
    for name in ("metadata", "grid"):
        while i < len(lines) and lines[i].strip():
            found[name].append((i + 1, lines[i]))
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
    found["clues"] = [(n, lines[n - 1]) for n in range(i + 1, len(lines) + 1)]
    return found


def read(path: str) -> Puzzle:
    lines = read_text_file(path).replace("\r\n", "\n").split("\n")
    warnings: list[str] = []
    sectioned = any(SECTION_LINE.match(line) for line in lines)
    parts = _sections(lines, path, warnings) if sectioned else _classic(lines)
    headers: dict[str, tuple[int, str]] = {}
    for number, line in parts.get("metadata", []):
        if not line.strip():
            continue
        match = HEADER_LINE.match(line.strip())
        if not match:
            raise InputError(f"expected a 'Key: value' header line, not {line.strip()!r:.60}", path, number, 1)
        key = match.group(1).strip().lower()
        if key in headers:
            warnings.append(f"the header {match.group(1).strip()!r} is given twice (line {number}): the last is kept")
        headers[key] = (number, match.group(2).strip())
    rebus = _rebus(headers.get("rebus"), path)
    special = headers.get("special", (0, ""))[1].lower()
    if special not in ("", "circle", "shaded"):
        warnings.append(f"the Special header {special!r:.30} is neither circle nor shaded: lowercase cells are plain")
    cells, voids, styles = _grid(parts["grid"], rebus, special, path)
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells), source=path)
    filled = all(v for row in cells for v in row if v is not None)
    if "start" in parts and filled:
        given = _start(parts["start"], rebus, pattern, path)
        grid = Grid(
            tuple(tuple(given.get((r, c), v) for c, v in enumerate(row)) for r, row in enumerate(pattern.cells))
        )
    else:
        grid = pattern if filled else Grid(tuple(cells), source=path)
    if "design" in parts:
        for pos, style in parse_design(parts["design"], pattern.rows, pattern.cols, path, warnings).items():
            old = styles.get(pos, CellStyle())
            styles[pos] = CellStyle(
                circle=old.circle or style.circle,
                shaded=old.shaded or style.shaded,
                color=style.color or old.color,
                bars=old.bars | style.bars,
            )
    clues, notes = _clues(parts["clues"], pattern, path, warnings)
    notes_text = "\n".join(line.rstrip() for _, line in parts.get("notes", [])).strip("\n")
    return Puzzle(
        grid,
        solution=tuple(cells) if filled else None,
        clues=clues,
        title=headers.get("title", (0, ""))[1],
        author=headers.get("author", (0, ""))[1],
        copyright=headers.get("copyright", (0, ""))[1],
        notes="\n\n".join(t for t in (headers.get("notes", (0, ""))[1], notes, notes_text) if t),
        styles=styles,
        voids=frozenset(voids),
        warnings=warnings,
    )


def _rebus(header: tuple[int, str] | None, path: str) -> dict[str, str]:
    """The ``Rebus`` header's symbols: ``1=HEART 2=DIAMOND`` or ``1=HEART,2=DIAMOND``."""
    rebus: dict[str, str] = {}
    if header is None:
        return rebus
    number, value = header
    for item in re.split(r"[\s,;]+", value.strip()):
        if not item:
            continue
        key, sep, answer = item.partition("=")
        if not sep or len(split_glyphs(key)) != 1 or not answer:
            raise InputError(
                f"Rebus: {item!r:.40} is not symbol=ANSWER (one symbol, then the cell's letters)", path, number
            )
        rebus[key] = normalize_glyph(answer)
    return rebus


def _grid(
    rows: Lines, rebus: dict[str, str], special: str, path: str
) -> tuple[list[tuple[str | None, ...]], set[Position], dict[Position, CellStyle]]:
    """The solution cells (None blocks and voids, "" empty), the voids and the Special styles."""
    texts: Lines = []
    for number, line in rows:
        if not line.strip():
            continue
        if len(texts) == MAX_GRID_SIDE:
            raise InputError(f"the grid has more than {MAX_GRID_SIDE} rows, the most a grid may have", path, number, 1)
        texts.append((number, line.strip()))
    if not texts:
        raise InputError("no grid after the header", path, rows[0][0] if rows else None, 1)
    glyphs = [split_glyphs(text) for _, text in texts]
    has_letters = any(g not in "#._" for row in glyphs for g in row)
    dot_is_block = has_letters and not any("#" in row for row in glyphs)  # Puzzmo's grids
    style = CellStyle(circle=special == "circle", shaded=special == "shaded")
    cells: list[tuple[str | None, ...]] = []
    voids: set[Position] = set()
    styles: dict[Position, CellStyle] = {}
    for r, ((number, _), row_glyphs) in enumerate(zip(texts, glyphs, strict=True)):
        row: list[str | None] = []
        for c, ch in enumerate(row_glyphs):
            if style and ch.isascii() and ch.islower():
                styles[(r, c)] = style
            if ch == "#" or (ch == "." and dot_is_block):
                row.append(None)
            elif ch == "_":
                row.append(None)
                voids.add((r, c))
            elif ch in rebus:
                row.append(rebus[ch])
            elif ch == ".":
                row.append("")
            else:
                row.append(normalize_glyph(ch))
        if len(row) > MAX_GRID_SIDE:
            raise InputError(
                f"the row has {len(row):,} cells; the most a grid may have is {MAX_GRID_SIDE}",
                path,
                number,
                MAX_GRID_SIDE + 1,
            )
        if cells and len(row) != len(cells[0]):
            raise InputError(
                f"ragged grid row: {len(row)} cells where the first row has {len(cells[0])}", path, number, 1
            )
        cells.append(tuple(row))
    return cells, voids, styles


def _start(rows: Lines, rebus: dict[str, str], pattern: Grid, path: str) -> dict[Position, str]:
    """The pre-filled cells of a ``## Start`` section (``.``, ``#`` and spaces: not pre-filled)."""
    given: dict[Position, str] = {}
    for r, (number, line) in enumerate((n, t) for n, t in rows if t.strip()):
        for c, ch in enumerate(split_glyphs(line.strip())):
            if ch in " .#_":
                continue
            if not pattern.in_bounds(r, c) or pattern.is_block(r, c):
                raise InputError(f"the start letter {ch!r} is not on an open cell of the grid", path, number, c + 1)
            given[(r, c)] = rebus.get(ch, normalize_glyph(ch))
    return given


def _clues(lines: Lines, pattern: Grid, path: str, warnings: list[str]) -> tuple[dict[str, str], str]:
    """Clue text by slot id, and the lines that are not clues (notes)."""
    clues: dict[str, str] = {}
    by_number = {(slot.number, slot.direction.letter): slot.id for slot in pattern.slots}
    notes: list[str] = []
    skipped = 0
    for lineno, line in lines:
        text = line.strip()
        if not text:
            if notes:
                notes.append("")
            continue
        match = CLUE_LINE.match(text)
        if not match:
            if CLUE_METADATA.match(text):
                skipped += 1
            else:
                notes.append(text)
            continue
        number = clue_number(match.group(2))
        if number is None:
            raise InputError(
                f"clue {match.group(1)}{match.group(2):.12}: a clue number is a whole number from 1 to "
                f"{MAX_CLUE_NUMBER:,}",
                path,
                lineno,
                2,
            )
        slot_id = by_number.get((number, match.group(1)))
        if slot_id is None:
            raise InputError(f"clue {match.group(1)}{number}: the grid has no such entry", path, lineno, 1)
        clue = match.group(3).strip().replace("\\", "\n")  # the spec's line separator in a clue
        if clue:
            clues[slot_id] = check_clue(clue, path, line=lineno)
    if skipped:
        warnings.append(f"{skipped} clue metadata line(s) ('A1 ^Key: value') are not kept")
    return clues, "\n".join(notes).strip("\n")


def _special(puzzle: Puzzle, cells: tuple[tuple[str | None, ...], ...]) -> str:
    """``circle`` or ``shaded`` when the classic ``Special`` header says every style (each styled
    cell a plain letter A-Z), else ""."""
    styles = [(pos, s) for pos, s in puzzle.styles.items() if s]
    kinds = {(s.circle, s.shaded, s.color, s.bars) for _, s in styles}
    if kinds == {(True, False, "", frozenset())}:
        name = "circle"
    elif kinds == {(False, True, "", frozenset())}:
        name = "shaded"
    else:
        return ""
    ok = all(
        pattern_cell and len(pattern_cell) == 1 and "A" <= pattern_cell <= "Z"
        for pattern_cell in (
            cells[r][c] if 0 <= r < len(cells) and 0 <= c < len(cells[0]) else None for (r, c), _ in styles
        )
    )
    return name if ok else ""


def dumps(puzzle: Puzzle) -> str:
    if puzzle.grid.rtl:
        raise InputError("the .xd format has no right-to-left grids; write .ipuz or .json instead")
    grid = puzzle.grid
    cells = puzzle.solution if puzzle.solution is not None else grid.cells
    styles = {pos: s for pos, s in puzzle.styles.items() if s and grid.in_bounds(*pos)}
    special = _special(puzzle, cells)
    givens = puzzle.solution is not None and any(v for row in grid.cells for v in row)
    sectioned = givens or bool(styles and not special)
    rebus: dict[str, str] = {}
    symbols = iter(REBUS_SYMBOLS + "".join(chr(0x2460 + i) for i in range(20)))  # then ①..⑳

    def symbol(value: str) -> str:
        if len(split_glyphs(value)) == 1 and value not in REBUS_SYMBOLS and value.isalnum():
            return value
        key = next((k for k, v in rebus.items() if v == value), None)
        if key is None:
            try:
                key = next(symbols)
            except StopIteration:
                raise InputError("too many different rebus cells for the .xd format") from None
            rebus[key] = value
        return key

    rows: list[str] = []
    for r, row in enumerate(cells):
        out = []
        for c, value in enumerate(row):
            if value is None:
                out.append("_" if puzzle.is_void(r, c) else "#")
            elif not value:
                out.append(".")
            else:
                out.append(symbol(value).lower() if special and (r, c) in styles else symbol(value))
        rows.append("".join(out))
    headers = [
        f"{name.title()}: {' '.join(getattr(puzzle, name).splitlines()).strip()}"  # a header is one line
        for name in ("title", "author", "copyright")
        if getattr(puzzle, name)
    ]
    if rebus:
        headers.append("Rebus: " + " ".join(f"{k}={v}" for k, v in rebus.items()))
    if special:
        headers.append(f"Special: {special}")
    clue_parts = []
    for direction in Direction:
        lines = []
        for slot, answer, clue in puzzle.entries():
            if slot.direction is direction:
                text = clue.replace("\n", "\\")  # the spec's line separator in a clue
                lines.append(f"{direction.letter}{slot.number}. {text}" + (f" ~ {answer}" if answer else ""))
        clue_parts.append("\n".join(lines))
    if not sectioned:
        parts = ["\n".join(headers) if headers else "Title: ", "\n".join(rows), *clue_parts]
        if puzzle.notes:
            parts.append(puzzle.notes)
        return "\n\n\n".join(parts) + "\n"
    sections = [("Metadata", "\n".join(headers)), ("Grid", "\n".join(rows)), ("Clues", "\n\n".join(clue_parts))]
    if givens:
        start = ["".join(symbol(v) if v else "." for v in row) for row in grid.cells]
        sections.append(("Start", "\n".join(start)))
    if styles and not special:
        sections.append(("Design", _design(styles, grid.rows, grid.cols)))
    if puzzle.notes:
        sections.append(("Notes", puzzle.notes))
    return "\n\n".join(f"## {name}\n\n{body}" for name, body in sections) + "\n"


def _design(styles: dict[Position, CellStyle], rows: int, cols: int) -> str:
    """A ``## Design`` section body: the ``<style>`` rules, then the grid of their letters."""
    names: dict[CellStyle, str] = {}
    for pos in sorted(styles):
        if styles[pos] not in names:
            if len(names) == len(DESIGN_NAMES):
                raise InputError(f"more than {len(DESIGN_NAMES)} different cell styles for the .xd format")
            names[styles[pos]] = DESIGN_NAMES[len(names)]
    rules = "\n".join(write_rule(name, style) for style, name in names.items())
    grid = ["".join(names[styles[(r, c)]] if (r, c) in styles else "." for c in range(cols)) for r in range(rows)]
    return f"<style>\n{rules}\n</style>\n\n" + "\n".join(grid)


def dumps_losses(puzzle: Puzzle) -> list[str]:
    """What an .xd file cannot carry from ``puzzle``, one sentence each."""
    losses = []
    if puzzle.locked is not None:
        losses.append("a locked (scrambled) solution cannot be written: the file has no solution")
    if puzzle.labels:
        losses.append(
            "cell numbers other than the standard numbering are not part of xd (clues are numbered by the grid)"
        )
    if puzzle.extra_clues:
        headings = ", ".join(repr(group.heading) for group in puzzle.extra_clues)
        losses.append(f"clue groups other than Across and Down ({headings}) are not part of xd")
    if puzzle.diagramless:
        losses.append("xd has no diagramless puzzles: the file shows where the blocks are")
    if puzzle.kind and puzzle.kind != "diagramless":
        losses.append(f"the puzzle kind ({puzzle.kind}) is not part of xd")
    if puzzle.freeform:
        losses.append("xd has no freeform boards: the empty space is written as blocks")
    broken = [name for name in ("title", "author", "copyright") if len(getattr(puzzle, name).splitlines()) > 1]
    if broken:
        losses.append(f"line breaks in the {', '.join(broken)} written as spaces: an xd header is one line")
    slashed = sum(1 for clue in puzzle.clues.values() if "\\" in clue)
    if slashed:
        losses.append(f"{slashed} clue(s) with a backslash, which xd reads as a line break")
    cells = [v for row in puzzle.grid.cells for v in row]
    if puzzle.solution is None and None not in cells and "" in cells and any(cells):
        losses.append("a partly filled grid without blocks reads back with its empty cells as blocks (Puzzmo's '.')")
    return losses
