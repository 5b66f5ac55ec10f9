"""The ``.xd`` text format (Saul Pwanson's crossword corpus format), own reader and writer.

Two layouts, as the xd spec allows:

* classic: ``Key: value`` header lines, a blank line, the solution grid, a blank line, the clues
  ``A1. Clue text ~ ANSWER`` then ``D1. ...``, and notes (sections may be separated by two blank
  lines, as the corpus writes them);
* sectioned: ``## Metadata``, ``## Grid``, ``## Clues``, ``## Notes`` in any order, plus the
  Puzzmo sections ``## Start`` (pre-filled letters) and ``## Design`` (cell styles: a ``<style>``
  block of one-letter rules such as ``O { background: circle }`` or ``A { bar-top: true }``, then
  a grid of those letters). Other sections are skipped with a warning; a Metadata, Clues or
  Notes section given twice is read as one (with a warning), a second Grid is refused.

Clue lines are read and written by :mod:`.xd_clues`. The writer reads its own text back
(:func:`dumps_losses`): whatever comes back changed (the spaces at a clue's ends, a backslash,
which xd reads as a line break) is listed as a loss, never changed silently.

Grid cells: ``#`` blocks, ``_`` cells outside the puzzle (voids), ``.`` an empty cell (or a block,
Puzzmo's convention, in a grid that has letters and no ``#``), a rebus symbol declared in the
``Rebus: 1=HEART 2=CLUB`` header (spaces or commas between), and lowercase letters for the
``Special: circle`` or ``Special: shaded`` cells when that header is present.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.errors import InputError
from ..core.files import read_text_file
from ..core.glyphs import normalize_glyph, split_glyphs
from ..core.grid import Direction, Grid
from ..core.limits import MAX_GRID_SIDE
from . import CellStyle, Position, Puzzle
from .xd_clues import QUOTED_LINES, Lines, clue_line, read_clues
from .xd_design import DESIGN_NAMES, parse_design, write_rule

HEADER_LINE = re.compile(r"^([A-Za-z][\w -]*):\s?(.*)$")
SECTION_LINE = re.compile(r"^##\s+(\S.*?)\s*$")
REBUS_SYMBOLS = "123456789@$%&*+=!?0"
SECTIONS = ("metadata", "grid", "clues", "notes", "design", "start")
#: Sections that may be given twice: their lines are read as one section (with a warning). A grid,
#: a design or a start given twice is refused: which of two grids is meant cannot be guessed.
MERGED_SECTIONS = ("metadata", "clues", "notes")


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
            elif current in found and current not in MERGED_SECTIONS:
                raise InputError(f"a second '## {match.group(1)}' section", path, number, 1)
            elif current in found:
                warnings.append(f"a second '## {match.group(1)}' section (line {number}) is read as part of the first")
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


def _classic(lines: list[str], warnings: list[str]) -> dict[str, Lines]:
    """Headers, grid, and the clue and note lines after it, of a file without section headers. A
    second block of header lines before the grid is read as part of the header (with a warning)."""
    blocks: list[Lines] = []
    i = 0
    while len(blocks) < 2 or all(HEADER_LINE.match(text.strip()) for _, text in blocks[-1]):
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i == len(lines):
            break
        blocks.append([])
        while i < len(lines) and lines[i].strip():
            blocks[-1].append((i + 1, lines[i]))
            i += 1
    if len(blocks) < 2 or all(HEADER_LINE.match(text.strip()) for _, text in blocks[-1]):
        blocks.append([])  # no grid after the header
    for block in blocks[1:-1]:
        warnings.append(f"a second block of header lines (line {block[0][0]}) is read as part of the header")
    found: dict[str, Lines] = {"metadata": [line for block in blocks[:-1] for line in block], "grid": blocks[-1]}
    found["clues"] = [(n, lines[n - 1]) for n in range(i + 1, len(lines) + 1)]
    return found


def read(path: str) -> Puzzle:
    return parse(read_text_file(path), path)


def parse(text: str, path: str) -> Puzzle:
    """The puzzle of an .xd text (``path`` names it in messages)."""
    lines = text.replace("\r\n", "\n").split("\n")
    warnings: list[str] = []
    sectioned = any(SECTION_LINE.match(line) for line in lines)
    parts = _sections(lines, path, warnings) if sectioned else _classic(lines, warnings)
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
    clues, notes = read_clues(parts.get("clues", []), pattern, path, warnings)
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
        lines = [
            clue_line(slot, answer, clue) for slot, answer, clue in puzzle.entries() if slot.direction is direction
        ]
        clue_parts.append("\n".join(lines))
    if not sectioned:
        parts = ["\n".join(headers) if headers else "Title: ", "\n".join(rows), *clue_parts]
        if puzzle.notes:
            parts.append(puzzle.notes)
        classic = "\n\n\n".join(parts) + "\n"
        if not puzzle.notes or _reads_back(classic, lambda back: back.notes == puzzle.notes):
            return classic  # else notes the classic layout would take for clues: a Notes section
    sections = [("Metadata", "\n".join(headers)), ("Grid", "\n".join(rows)), ("Clues", "\n\n".join(clue_parts))]
    if givens:
        start = ["".join(symbol(v) if v else "." for v in row) for row in grid.cells]
        sections.append(("Start", "\n".join(start)))
    if styles and not special:
        sections.append(("Design", _design(styles, grid.rows, grid.cols)))
    if puzzle.notes:
        # a line starting "##" would open a section: indented, it stays a line of the notes
        sections.append(("Notes", re.sub(r"(?m)^##", " ##", puzzle.notes)))
    return "\n\n".join(f"## {name}\n\n{body}" for name, body in sections) + "\n"


def _reads_back(text: str, same: Callable[[Puzzle], bool]) -> bool:
    """Whether the .xd ``text`` reads back as a puzzle ``same`` accepts."""
    try:
        return same(parse(text, "(written .xd)"))
    except InputError:
        return False


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
    losses += _text_losses(puzzle)
    cells = [v for row in puzzle.grid.cells for v in row]
    if puzzle.solution is None and None not in cells and "" in cells and any(cells):
        losses.append("a partly filled grid without blocks reads back with its empty cells as blocks (Puzzmo's '.')")
    return losses


def _text_losses(puzzle: Puzzle) -> list[str]:
    """What of the clues, notes and headers the written file reads back changed: found by reading
    it back, so that no change goes unsaid."""
    try:
        back = parse(dumps(puzzle), "(written .xd)")
    except InputError:
        return ["the file written does not read back: its clues and notes may be lost"]
    ids = {slot.id for slot in puzzle.grid.slots}
    changed = [
        slot_id for slot_id, clue in puzzle.clues.items() if slot_id in ids and back.clues.get(slot_id, "") != clue
    ]
    losses = []
    if changed:
        shown = ", ".join(changed[:QUOTED_LINES]) + (", ..." if len(changed) > QUOTED_LINES else "")
        losses.append(
            f"{len(changed)} clue(s) read back changed ({shown}): xd trims the spaces at a clue's ends "
            "and reads a backslash as a line break"
        )
    if back.notes != puzzle.notes:
        losses.append(
            "the notes read back changed: xd trims the spaces at the ends of their lines and the blank lines "
            "around them, and indents a line starting '##' (which would open a section)"
        )
    trimmed = [
        name for name in ("title", "author", "copyright") if getattr(puzzle, name).strip() != getattr(puzzle, name)
    ]
    if trimmed:
        losses.append(f"the spaces at the ends of the {', '.join(trimmed)} are trimmed: xd trims a header's value")
    return losses
