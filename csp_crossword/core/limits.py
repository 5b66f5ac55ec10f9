"""Bounds on input size, checked where input enters (listed in ``docs/limits.md``).

Every reader checks its input against these and raises :class:`InputError` naming the file and
the line, column or field, so an oversized or absurd file is a clear bad-input error (exit 2),
never a traceback, a hang or an exhausted memory.
"""

from __future__ import annotations

import re

from .errors import InputError

#: The most rows, and the most columns, of a grid. The project's largest grids are 101x101; 255
#: is the most a .puz file holds (one byte per side), so every grid we read can be written as
#: .puz, and 65,025 cells keep numbering, slots and crossings well under a second.
MAX_GRID_SIDE = 255

#: The most glyphs of a word-list entry. A word longer than the largest grid side fits no slot;
#: such lines are skipped with a warning, like any other malformed line.
MAX_WORD_GLYPHS = MAX_GRID_SIDE

#: The most lines (or JSON items) of one word-list file. Ten times the largest lists in use
#: (UKACD and the built-in list have a few hundred thousand entries, the biggest public ones about
#: a million); loading is about 1 s per 100,000 entries, so this bounds a load to minutes.
MAX_WORD_LIST_LINES = 10_000_000

#: The most bytes of one input file (a grid, a word list, a crossword file, a spec): the largest
#: word list MAX_WORD_LIST_LINES allows at about 25 bytes a line. A larger file is not an input we
#: make sense of, and reading it whole would take the memory and minutes it did (2.5 GB in 7 s).
MAX_INPUT_BYTES = 256 * 2**20

#: The most characters of one clue (in a word list or a crossword file). Real clues are under 200;
#: 10,000 leaves room for notes-like clues while a clue cannot swamp a rendered page.
MAX_CLUE_CHARS = 10_000

#: The most characters of a cell's own label (an ipuz cell's ``"cell"`` that is not its standard
#: number; our JSON's ``labels``): a number or a short mark, never text to read.
MAX_LABEL_CHARS = 16

#: The largest clue number a file may give: a grid has at most one number per cell.
MAX_CLUE_NUMBER = MAX_GRID_SIDE * MAX_GRID_SIDE

#: The most parallel workers an option asks for (``--workers``, ``--jobs``): far more than any
#: machine's cores, while each is a process or a solver thread (CP-SAT counts them in 32 bits).
MAX_WORKERS = 1024


def check_grid_size(
    rows: int, cols: int, path: str | None, *, line: int | None = None, field: str | None = None
) -> None:
    """InputError (naming ``path`` and the ``line`` or ``field``) when a grid is larger than
    :data:`MAX_GRID_SIDE` either way."""
    for count, what in ((rows, "rows"), (cols, "columns")):
        if count > MAX_GRID_SIDE:
            where = f"{field}: " if field else ""
            raise InputError(
                f"{where}the grid has {count:,} {what}; the most a grid may have is {MAX_GRID_SIDE}",
                path,
                line,
            )


#: The most rows, and the most columns, of a grid laid out from nothing (``generate``, a
#: ``freeform`` board of a given size): the layout searches' work grows with the area, and a
#: 50x50 already takes seconds a pattern.
MAX_LAYOUT_SIDE = 50
_SIZE_TEXT = re.compile(r"([0-9]{1,9})[xX]([0-9]{1,9})")


def layout_size(value: object, what: str = "size") -> tuple[int, int]:
    """(rows, columns) of a grid to lay out, from ``"ROWSxCOLS"`` (ASCII digits), a whole number
    (a square) or a (rows, columns) pair; InputError naming ``what`` unless both are whole numbers
    from 2 to :data:`MAX_LAYOUT_SIDE`."""
    rows: object
    cols: object
    if isinstance(value, str):
        found = _SIZE_TEXT.fullmatch(value.strip())
        rows, cols = (int(found.group(1)), int(found.group(2))) if found else (None, None)
    elif isinstance(value, tuple | list) and len(value) == 2:
        rows, cols = value
    else:
        rows = cols = value
    for n in (rows, cols):
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_LAYOUT_SIDE:
            raise InputError(
                f"{what} {value!r}: write ROWSxCOLS, whole numbers from 2 to {MAX_LAYOUT_SIDE}, e.g. 15x15"
            )
    assert isinstance(rows, int) and isinstance(cols, int)  # checked just above
    return rows, cols


def clue_number(value: object) -> int | None:
    """A clue number from a file: a whole number (an int, or text or a float that holds one) from
    1 to :data:`MAX_CLUE_NUMBER`, else None. Booleans, NaN, infinities and huge numbers are not
    clue numbers (and never reach ``int()``, which would raise OverflowError or ValueError)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():  # NaN and infinities are not integers either
            return None
        if abs(value) > MAX_CLUE_NUMBER:
            return None
        number = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if not text.isdecimal() or len(text) > len(str(MAX_CLUE_NUMBER)):
            return None
        number = int(text)
    else:
        return None
    return number if 1 <= number <= MAX_CLUE_NUMBER else None


def check_clue(text: str, path: str | None, *, line: int | None = None, field: str | None = None) -> str:
    """``text`` when it is at most :data:`MAX_CLUE_CHARS` long, else InputError naming where."""
    if len(text) > MAX_CLUE_CHARS:
        where = f"{field}: " if field else ""
        raise InputError(
            f"{where}a clue of {len(text):,} characters; the most a clue may have is {MAX_CLUE_CHARS:,}", path, line
        )
    return text
