"""Across Lite ``.puz`` files through puzpy (import name ``puz``).

Version 1.3 files (Latin-1) are written unless a glyph needs UTF-8, then version 2.0. Cells with
more than one character (rebus squares, or a multi-code-point glyph such as a Bangla conjunct) go
in the rebus tables. ``.puz`` has no right-to-left grids.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..glyphs import normalize_glyph
from ..grid import Direction, Grid
from ..limits import check_clue
from . import Puzzle


def _load(path: str) -> Any:
    import puz

    try:
        return puz.read(path)
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except (puz.PuzzleFormatError, UnicodeDecodeError, ValueError, IndexError) as error:
        raise InputError(f"not a readable .puz file: {error}", path) from None


#: The largest grid side a .puz file holds (one byte each for width and height).
MAX_SIDE = 255


def read(path: str) -> Puzzle:
    """The puzzle of a .puz file (InputError, naming the file, for anything puzpy cannot read:
    checksums that pass but clue counts, rebus tables or strings that do not)."""
    import puz

    try:
        return _read(path)
    except InputError:
        raise
    except (puz.PuzzleFormatError, UnicodeDecodeError, ValueError, IndexError, KeyError, TypeError) as error:
        raise InputError(f"not a readable .puz file: {type(error).__name__}: {error}", path) from None


def _read(path: str) -> Puzzle:
    p = _load(path)
    width, height = p.width, p.height
    if width <= 0 or height <= 0 or len(p.solution) != width * height:
        raise InputError("not a readable .puz file: the grid does not match its size", path)
    rebus = p.rebus() if p.has_rebus() else None
    cells: list[tuple[str | None, ...]] = []
    for r in range(height):
        row: list[str | None] = []
        for c in range(width):
            k = r * width + c
            ch = p.solution[k]
            if ch == ".":
                row.append(None)
            elif rebus is not None and rebus.is_rebus_square(k):
                row.append(normalize_glyph(rebus.get_rebus_solution(k) or ch))
            else:
                row.append(normalize_glyph(ch) if ch not in "-" else "")
        cells.append(tuple(row))
    pattern = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells), source=path)
    numbering = p.clue_numbering()
    by_number = {(slot.number, slot.direction): slot.id for slot in pattern.slots}
    clues = {}
    for direction, items in ((Direction.ACROSS, numbering.across), (Direction.DOWN, numbering.down)):
        for item in items:
            slot_id = by_number.get((item["num"], direction))
            if slot_id is not None and item["clue"]:
                clues[slot_id] = check_clue(item["clue"], path, field=f"clue {item['num']} {direction}")
    filled = all(v for row in cells for v in row if v is not None)
    scrambled = getattr(p, "is_solution_locked", lambda: False)()
    return Puzzle(
        pattern if filled else Grid(tuple(cells), source=path),
        solution=tuple(cells) if filled and not scrambled else None,
        clues=clues,
        title=p.title or "",
        author=p.author or "",
        copyright=p.copyright or "",
        notes=p.notes or "",
    )


def dumps(puzzle: Puzzle) -> bytes:
    import puz

    if puzzle.grid.rtl:
        raise InputError("the .puz format has no right-to-left grids; write .ipuz or .json instead")
    grid = puzzle.grid
    if grid.rows > MAX_SIDE or grid.cols > MAX_SIDE:
        raise InputError(f"the .puz format holds grids up to {MAX_SIDE}x{MAX_SIDE}, not {grid.rows}x{grid.cols}")
    cells = puzzle.solution if puzzle.solution is not None else grid.cells
    texts = [v for row in cells for v in row if v]
    needs_utf8 = any(
        ch.encode("latin-1", "ignore").decode("latin-1") != ch
        for ch in texts + [puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes] + list(puzzle.clues.values())
    )
    p = puz.Puzzle(version="2.0" if needs_utf8 else "1.3")
    p.width, p.height = grid.cols, grid.rows
    solution, fill, rebus_cells = [], [], {}
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            if value is None:
                solution.append(".")
                fill.append(".")
                continue
            limit = 128 if needs_utf8 else 256  # one byte per square in the file's encoding
            one_byte = len(value) == 1 and ord(value) < limit
            if value and not one_byte:  # rebus square, or a glyph beyond Latin-1 (grids are one byte a cell)
                rebus_cells[r * grid.cols + c] = value
            solution.append(value if one_byte else (value[0] if value and ord(value[0]) < limit else "X"))
            fill.append("-")
    p.solution, p.fill = "".join(solution), "".join(fill)
    p.title, p.author, p.copyright, p.notes = puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes
    # .puz lists clues by number, across before down at the same number
    ordered = sorted(puzzle.entries(), key=lambda e: (e[0].number, e[0].direction is not Direction.ACROSS))
    p.clues = [clue for _, _, clue in ordered]
    if rebus_cells:
        rebus = p.rebus()
        for index, value in rebus_cells.items():
            rebus.add_rebus_squares(index, value)
    data: bytes = p.tobytes()
    return data
