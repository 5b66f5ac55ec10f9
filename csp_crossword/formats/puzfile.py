"""Across Lite ``.puz`` files, read and written with our own code (:mod:`.puz_extras` has the bytes).

Reading:

* ``.`` is a block. ``:`` is a block in a diagramless puzzle (puzzle type 0x0401, which sets
  ``diagramless``) and a void cell (outside a shaped grid) in any other.
* A wrong checksum, a clue count the grid contradicts (the grid's count is used when the strings
  fit it exactly), a missing version or a damaged extension section is let pass with a warning in
  ``Puzzle.warnings``; a file is refused (InputError naming the problem) only when its grid or its
  clues cannot be read: no ``ACROSS&DOWN`` header, the file cut short, control characters in the
  solution, clue strings that fit neither the header's count nor the grid's.
* A scrambled solution is kept as it is in ``Puzzle.locked`` (``solution`` None); a file that says
  it has no solution (state 0x0002, placeholder letters) gives ``solution`` None.
* Circled cells (GEXT 0x80) go to ``styles``; rebus answers (GRBS and RTBL) to the solution.
* The fill is the solver's progress, not the puzzle: only letters marked given (GEXT 0x40, which
  Across Lite sets on revealed cells and other programs on given letters) become givens in the
  grid; other letters are left out, with a warning. The numbering of a .puz is always the standard
  one (the format stores no numbers), so ``labels`` stays empty.
* Text is UTF-8 from version 2.0 on, Windows-1252 before.

Writing: version 1.3 (Windows-1252) unless some text or glyph needs UTF-8, then 2.0. Cells with
more than one character or a character the encoding has no single byte for go in the rebus tables;
givens are written in the fill with the given mark (multi-letter ones in RUSR); circles in GEXT;
void cells as ``:`` (as blocks in a diagramless puzzle, whose blocks are ``:``); a locked solution
as it came, with its flag and checksum. A puzzle without a (full) solution is written with ``X``
placeholders and the "no solution" state. :func:`dumps_losses` lists what a .puz cannot carry.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.errors import InputError
from ..core.files import read_input_bytes
from ..core.glyphs import normalize_glyph
from ..core.grid import Direction, Grid, Slot
from ..core.limits import check_clue
from . import CellStyle, LockedSolution, Puzzle
from .puz_extras import (
    CIRCLED,
    GIVEN,
    STATE_LOCKED,
    STATE_NO_SOLUTION,
    STATE_PLAIN,
    TYPE_DIAGRAMLESS,
    TYPE_NORMAL,
    Broken,
    RawPuz,
    decode8,
    encode8,
    parse,
)

#: The largest grid side a .puz file holds (one byte each for width and height).
MAX_SIDE = 255
#: Fill bytes that are not a letter: empty, block, void or diagramless block.
NOT_LETTERS = "-.:"
#: Unicode's control characters (category Cc: C0, DEL and C1), none of which a cell may hold.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _clue_order(grid: Grid) -> list[Slot]:
    """The slots in the order a .puz lists their clues: by number, across before down."""
    return sorted(grid.slots, key=lambda slot: (slot.number, slot.direction is not Direction.ACROSS))


def read(path: str) -> Puzzle:
    """The puzzle of a .puz file (InputError naming the file and the problem when it cannot be read)."""
    data = read_input_bytes(path)
    try:
        return _puzzle(parse(data), path)
    except Broken as error:
        raise InputError(f"not a readable .puz file: {error}", path) from None


def _text(raw: RawPuz, data: bytes, warnings: list[str]) -> str:
    if raw.utf8:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            note = "some text is not UTF-8 though the file is version 2.0; it was read as Windows-1252"
            if note not in warnings:
                warnings.append(note)
    return decode8(data)


def _rebus(raw: RawPuz, warnings: list[str]) -> dict[int, str]:
    """Rebus answers by cell index (GRBS cell values point at RTBL keys plus one)."""
    grid, table = raw.sections.get(b"GRBS"), raw.sections.get(b"RTBL")
    if grid is None or not any(grid):
        return {}
    answers: dict[int, str] = {}
    for entry in _text(raw, table or b"", warnings).split(";"):
        key, colon, value = entry.partition(":")
        if not entry.strip():
            continue
        if not colon or not re.fullmatch(r" *[0-9]+", key) or not value:
            warnings.append(f"the rebus table entry {entry!r} is not 'number:answer' and was ignored")
            continue
        answers[int(key)] = value
    cells = {k: answers.get(v - 1, "") for k, v in enumerate(grid) if v}
    missing = sorted(k for k, v in cells.items() if not v)
    if missing:
        warnings.append(f"{len(missing)} rebus cells point at no rebus table entry; they keep their one-letter answer")
    return {k: v for k, v in cells.items() if v}


def _user_rebus(raw: RawPuz) -> list[str]:
    """The RUSR section: one string a cell ("" for none)."""
    data = raw.sections.get(b"RUSR", b"")
    entries = [decode8(part) if not raw.utf8 else part.decode("utf-8", "replace") for part in data.split(b"\0")]
    return (entries + [""] * raw.width * raw.height)[: raw.width * raw.height]


def _control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _puzzle(raw: RawPuz, path: str) -> Puzzle:
    warnings = raw.warnings
    width, height = raw.width, raw.height
    diagramless = raw.puzzle_type == TYPE_DIAGRAMLESS
    if raw.puzzle_type not in (TYPE_NORMAL, TYPE_DIAGRAMLESS):
        warnings.append(f"unknown puzzle type 0x{raw.puzzle_type:04x}; read as a plain crossword")
    if raw.state not in (STATE_PLAIN, STATE_NO_SOLUTION, STATE_LOCKED):
        warnings.append(f"unknown solution state 0x{raw.state:04x}; the solution was read as plain")
    solution_text, fill_text = decode8(raw.solution), decode8(raw.fill)
    rebus = _rebus(raw, warnings)
    marks = raw.sections.get(b"GEXT", bytes(width * height))
    user_rebus = _user_rebus(raw)
    pattern: list[list[str | None]] = []
    answers: list[list[str | None]] = []
    voids: set[tuple[int, int]] = set()
    styles: dict[tuple[int, int], CellStyle] = {}
    progress = 0
    for r in range(height):
        pattern.append([])
        answers.append([])
        for c in range(width):
            k = r * width + c
            ch, entered = solution_text[k], fill_text[k]
            if ch in ".:":
                if ch == ":" and not diagramless:
                    voids.add((r, c))
                pattern[r].append(None)
                answers[r].append(None)
                continue
            answer = rebus.get(k) or ("" if ch == "-" else ch)
            if raw.state != STATE_NO_SOLUTION and _control(answer):
                raise Broken(f"the solution has the control character {answer!r} at row {r + 1}, column {c + 1}")
            answers[r].append(normalize_glyph(answer))
            given = ""
            if entered not in NOT_LETTERS and not _control(entered):
                if marks[k] & GIVEN and not _control(user_rebus[k]):
                    given = normalize_glyph(user_rebus[k] or entered)
                else:
                    progress += 1
            pattern[r].append(given)
            if marks[k] & CIRCLED:
                styles[(r, c)] = CellStyle(circle=True)
    if progress:
        warnings.append(
            f"the file holds a solver's entries in {progress} cells: progress, not part of the puzzle; not read"
        )
    grid = Grid(tuple(tuple(row) for row in pattern), source=path)
    solution: tuple[tuple[str | None, ...], ...] | None = tuple(tuple(row) for row in answers)
    locked = None
    if raw.state == STATE_LOCKED:
        locked, solution = LockedSolution(solution_text, raw.scrambled_checksum), None
        if rebus:
            warnings.append(f"the rebus answers of the locked solution ({len(rebus)} cells) are not kept")
    elif raw.state == STATE_NO_SOLUTION:
        solution = None
    elif solution is not None and any(v == "" for row in solution for v in row):
        warnings.append("the solution has blank cells; the puzzle was read without a solution")
        solution = None
    order = _clue_order(grid)
    if len(order) != len(raw.clues):  # parse() checked the count against the same grid
        raise Broken(f"the grid has {len(order)} entries for {len(raw.clues)} clues")
    clues = {}
    for slot, data in zip(order, raw.clues, strict=True):
        text = _text(raw, data, warnings)
        if text:
            clues[slot.id] = check_clue(text, path, field=f"clue {slot.number} {slot.direction}")
    return Puzzle(
        grid,
        solution=solution,
        clues=clues,
        title=_text(raw, raw.title, warnings),
        author=_text(raw, raw.author, warnings),
        copyright=_text(raw, raw.copyright, warnings),
        notes=_text(raw, raw.notes, warnings),
        styles=styles,
        voids=frozenset(voids),
        diagramless=diagramless,
        locked=locked,
        kind="diagramless" if diagramless else "",
        warnings=warnings,
    )


def _check_writable(puzzle: Puzzle) -> None:
    grid = puzzle.grid
    if grid.rtl:
        raise InputError("the .puz format has no right-to-left grids; write .ipuz or .json instead")
    if grid.rows > MAX_SIDE or grid.cols > MAX_SIDE or not grid.rows or not grid.cols:
        raise InputError(
            f"the .puz format holds grids from 1x1 up to {MAX_SIDE}x{MAX_SIDE}, not {grid.rows}x{grid.cols}"
        )


def _full_solution(puzzle: Puzzle) -> bool:
    grid, solution = puzzle.grid, puzzle.solution
    return solution is not None and all(
        solution[r][c] for r, row in enumerate(grid.cells) for c, v in enumerate(row) if v is not None
    )


def _locked_fits(puzzle: Puzzle) -> bool:
    locked, grid = puzzle.locked, puzzle.grid
    if locked is None or len(locked.scrambled) != grid.rows * grid.cols:
        return False
    cells = [v for row in grid.cells for v in row]
    return all((ch in ".:") == (v is None) for ch, v in zip(locked.scrambled, cells, strict=True))


def _texts(puzzle: Puzzle) -> list[str]:
    cells = [v for rows in (puzzle.grid.cells, puzzle.solution or ()) for row in rows for v in row if v]
    locked = [puzzle.locked.scrambled] if puzzle.locked is not None else []
    return [puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes, *puzzle.clues.values(), *cells, *locked]


def dumps(puzzle: Puzzle) -> bytes:
    """The .puz bytes of ``puzzle`` (InputError for a right-to-left grid or one too large)."""
    _check_writable(puzzle)
    grid = puzzle.grid
    utf8 = any(encode8(text) is None for text in _texts(puzzle))

    def encode(text: str) -> bytes:
        out = text.replace("\0", "")
        return out.encode("utf-8") if utf8 else encode8(out) or b""

    def one_byte(glyph: str) -> bool:
        return len(glyph) == 1 and glyph not in NOT_LETTERS and len(encode(glyph)) == 1

    diagramless = puzzle.diagramless or puzzle.kind == "diagramless"
    full = _full_solution(puzzle)
    lock = puzzle.locked if puzzle.solution is None and _locked_fits(puzzle) else None
    solution, fill, marks = bytearray(), bytearray(), bytearray()
    rebus: dict[int, str] = {}
    user_rebus: list[str] = []
    for r, row in enumerate(grid.cells):
        for c, given in enumerate(row):
            user_rebus.append("")
            if given is None:
                block = b":" if diagramless or (r, c) in puzzle.voids else b"."
                solution += block
                fill += block
                marks.append(0)
                continue
            answer = puzzle.solution[r][c] if puzzle.solution is not None else None
            if not answer:
                solution += b"X"
            elif one_byte(answer):
                solution += encode(answer)
            else:
                rebus[len(solution)] = answer
                solution += encode(answer[0]) if one_byte(answer[0]) else b"X"
            style = puzzle.styles.get((r, c), CellStyle())
            marks.append((CIRCLED if style.circle or style.shaded else 0) | (GIVEN if given else 0))
            if given and not one_byte(given):
                user_rebus[-1] = given
            fill += (encode(given[0]) if one_byte(given[0]) else b"X") if given else b"-"
    raw = RawPuz(grid.cols, grid.rows, b"2.0\0" if utf8 else b"1.3\0")
    raw.puzzle_type = TYPE_DIAGRAMLESS if diagramless else TYPE_NORMAL
    raw.solution, raw.fill = bytes(solution), bytes(fill)
    if lock is not None:
        raw.solution, raw.state, raw.scrambled_checksum = encode(lock.scrambled), STATE_LOCKED, lock.checksum
    elif not full:
        raw.state = STATE_NO_SOLUTION
    raw.title, raw.author, raw.copyright, raw.notes = (
        encode(text) for text in (puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes)
    )
    raw.clues = [encode(puzzle.clues.get(slot.id, "")) for slot in _clue_order(grid)]
    if rebus and full:
        keys = {answer: k for k, answer in enumerate(dict.fromkeys(rebus.values()))}
        if len(keys) > 254:
            raise InputError(f"the .puz format holds up to 254 different rebus answers, not {len(keys)}")
        raw.sections[b"GRBS"] = bytes(keys[rebus[k]] + 1 if k in rebus else 0 for k in range(len(solution)))
        raw.sections[b"RTBL"] = encode("".join(f"{k:2d}:{answer};" for answer, k in keys.items()))
    if any(user_rebus):
        raw.sections[b"RUSR"] = b"".join(encode(value) + b"\0" for value in user_rebus)
    if any(marks):
        raw.sections[b"GEXT"] = bytes(marks)
    return raw.tobytes()


def dumps_losses(puzzle: Puzzle) -> list[str]:
    """What the .puz written for ``puzzle`` leaves out or changes, one sentence each."""
    losses: list[str] = []
    grid = puzzle.grid
    styles = {cell: style for cell, style in puzzle.styles.items() if style and grid.in_bounds(*cell)}

    def count(test: Callable[[CellStyle], object]) -> int:
        return sum(1 for style in styles.values() if test(style))

    if shaded := count(lambda s: s.shaded and not s.circle):
        losses.append(f"shading is not part of the .puz format: {shaded} shaded cells are written as circles")
    if both := count(lambda s: s.shaded and s.circle):
        losses.append(f"{both} cells both circled and shaded keep only their circle in the .puz format")
    if colored := count(lambda s: s.color):
        losses.append(f"cell colours ({colored} cells) are not part of the .puz format")
    if barred := count(lambda s: s.bars):
        losses.append(f"bars ({barred} cells) are not part of the .puz format")
    if blocked := sum(1 for (r, c) in styles if grid.in_bounds(r, c) and grid.cells[r][c] is None):
        losses.append(f"the styles of {blocked} blocks are not part of the .puz format")
    diagramless = puzzle.diagramless or puzzle.kind == "diagramless"
    if diagramless and puzzle.voids:
        losses.append(f"{len(puzzle.voids)} void cells are written as blocks: a diagramless .puz marks blocks with ':'")
    if puzzle.kind not in ("", "diagramless"):
        losses.append(f"the puzzle kind {puzzle.kind} is not part of the .puz format; it is written as a crossword")
    if puzzle.freeform:
        losses.append("a freeform board's empty space is written as blocks in the .puz format")
    if puzzle.solution is None and puzzle.locked is not None and not _locked_fits(puzzle):
        losses.append("the locked solution does not fit this grid and was left out")
    if not _full_solution(puzzle) and not (puzzle.solution is None and _locked_fits(puzzle)):
        what = "no solution" if puzzle.solution is None else "an incomplete solution"
        losses.append(f"{what}: the .puz holds X placeholders and says it has no solution")
    labels = {cell: label for cell, label in puzzle.labels.items() if grid.in_bounds(*cell)}
    standard = {slot.cells[0]: str(slot.number) for slot in grid.slots}
    if odd := sum(1 for cell, label in labels.items() if standard.get(cell) != label):
        losses.append(f"{odd} cell numbers differ from standard numbering, which the .puz format always uses")
    if stray := len(set(puzzle.clues) - {slot.id for slot in grid.slots}):
        losses.append(f"{stray} clues for entries the grid does not have are left out")
    if extra := sum(len(group.clues) for group in puzzle.extra_clues):
        headings = ", ".join(group.heading for group in puzzle.extra_clues)
        losses.append(f"{extra} clues under {headings} are not part of the .puz format")
    if any("\0" in text for text in _texts(puzzle)):
        losses.append("NUL characters in the text are left out")
    return losses
