"""An independent check of a fill.

Nothing here uses the backends, the word index or the grid's slot code: the runs of open cells are
found again from the cells, and every run is looked up in the lexicon's plain entry table.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.words.lexicon import Lexicon
>>> grid = parse_grid("..\\n..")
>>> lex = Lexicon.from_words(["AB", "CD", "AC", "BD"])
>>> verify_fill(grid, (("A", "B"), ("C", "D")), lex)
[]
>>> verify_fill(grid, (("A", "B"), ("C", "C")), lex)
['across entry at row 2, col 1: CC is not in the word list', 'down entry at row 1, col 2: BC is not in the word list']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from ..core.grid import Cell, Direction, Grid

if TYPE_CHECKING:
    from ..words.lexicon import Lexicon


def _line_runs(blocks: list[list[bool]]) -> Iterator[tuple[int, int, int]]:
    """(row, first col, last col + 1) of every run of >= 2 open cells in the rows of ``blocks``."""
    for r, row in enumerate(blocks):
        c = 0
        while c < len(row):
            start = c
            while c < len(row) and not row[c]:
                c += 1
            if c - start >= 2:
                yield r, start, c
            c += 1


def _runs(blocks: list[list[bool]], rtl: bool) -> Iterator[tuple[Direction, list[tuple[int, int]]]]:
    """Yield (direction, [(r, c), ...]) for every run of >= 2 open cells, across then down."""
    for r, start, end in _line_runs(blocks):
        run = [(r, k) for k in range(start, end)]
        yield Direction.ACROSS, run[::-1] if rtl else run
    columns = [list(col) for col in zip(*blocks)]
    for c, start, end in _line_runs(columns):
        yield Direction.DOWN, [(k, c) for k in range(start, end)]


def verify_fill(
    grid: Grid,
    cells: tuple[tuple[Cell, ...], ...] | list[list[Cell]],
    lexicon: Lexicon,
    *,
    allow_duplicates: bool = False,
    extra_words: Iterable[str] = (),
    exact_uses: Mapping[str, int] | None = None,
    no_shared_substring: int | None = None,
) -> list[str]:
    """Every problem with a fill, as sentences; an empty list means the fill is valid.

    Checks: same shape and blocks as the grid; every open cell of an entry holds a glyph; every
    pre-filled glyph kept; every across and down run is an entry of ``lexicon`` (or of
    ``extra_words``, such as words the user required: a word the list lacks at most as often as
    ``extra_words`` names it); no entry twice unless allowed. With
    ``exact_uses`` (a fill-in puzzle), the entries must be exactly that multiset of words. With
    ``no_shared_substring`` N, no two entries share a run of N or more consecutive glyphs.
    """
    problems: list[str] = []
    if len(cells) != grid.rows or any(len(row) != grid.cols for row in cells):
        return [f"the fill is not {grid.rows}x{grid.cols}"]
    blocks = [[grid.cells[r][c] is None for c in range(grid.cols)] for r in range(grid.rows)]
    for r in range(grid.rows):
        for c in range(grid.cols):
            given, got = grid.cells[r][c], cells[r][c]
            if (given is None) != (got is None):
                problems.append(f"cell row {r + 1}, col {c + 1}: block pattern changed")
            elif given and got != given:
                problems.append(f"cell row {r + 1}, col {c + 1}: pre-filled {given} became {got}")
    if problems:
        return problems
    extra = Counter(extra_words)
    seen: Counter[str] = Counter()
    entries: list[tuple[str, list[str]]] = []
    for direction, run in _runs(blocks, grid.rtl):
        r0, c0 = run[0]
        where = f"{direction} entry at row {r0 + 1}, col {c0 + 1}"
        glyphs = [cells[r][c] or "" for r, c in run]
        if not all(glyphs):
            problems.append(f"{where}: not every cell is filled")
            continue
        word = "".join(glyphs)
        if word not in lexicon and word not in extra:
            problems.append(f"{where}: {word} is not in the word list")
        seen[word] += 1
        entries.append((where, glyphs))
    for word, count in seen.items():
        if word not in lexicon and 0 < extra[word] < count:  # a word of no list: named above
            problems.append(f"{word} is not in the word list and is given {extra[word]} time(s), used {count}")
    if no_shared_substring is not None:
        problems += _shared_runs(entries, no_shared_substring)
    if exact_uses is not None:
        wanted = Counter({w: n for w, n in exact_uses.items() if n})
        for word in sorted(set(wanted) | set(seen)):
            if seen[word] != wanted[word]:
                problems.append(f"{word} is used {seen[word]} times, listed {wanted[word]} times")
    elif not allow_duplicates:
        for word, count in seen.items():
            if count > 1:
                problems.append(f"{word} is used {count} times")
    return problems


def _shared_runs(entries: list[tuple[str, list[str]]], n: int) -> list[str]:
    """A sentence for every two entries that share a run of ``n`` consecutive glyphs (each
    pair once, with the first such run of the later entry)."""
    first: dict[tuple[str, ...], int] = {}
    reported: set[tuple[int, int]] = set()
    problems = []
    for k, (where, glyphs) in enumerate(entries):
        mine: set[tuple[str, ...]] = set()
        for start in range(len(glyphs) - n + 1):
            piece = tuple(glyphs[start : start + n])
            other = first.get(piece)
            if other is not None and other != k and (other, k) not in reported:
                reported.add((other, k))
                other_where, other_glyphs = entries[other]
                problems.append(
                    f"{where}: {''.join(glyphs)} shares the run {''.join(piece)} with "
                    f"{''.join(other_glyphs)} ({other_where}); no two entries may share a run of {n} glyphs"
                )
            mine.add(piece)
        for piece in mine:
            first.setdefault(piece, k)
    return problems


def pattern_problems(
    cells: Iterable[Iterable[Cell]],
    *,
    symmetry: str = "rotational",
    max_words: int | None = None,
    max_run: int | None = None,
    min_entry: int = 3,
) -> list[str]:
    """Every American-style rule a block pattern breaks, as sentences (empty: it keeps them all).

    The rules: blocks (``None`` cells) symmetric by ``symmetry`` (``rotational``: 180 degrees;
    ``mirror``: left to right), the open cells connected, every run of open cells across and down
    at least ``min_entry`` long (so every cell is checked) and at most ``max_run``, at most
    ``max_words`` entries, no 3x3 square of blocks. Read from the cells alone.

    >>> pattern_problems([[None, "", ""], ["", "", ""], ["", "", None]])[:2]
    ['row 1 has a run of 2 open cells', 'row 3 has a run of 2 open cells']
    """
    blocks = [[v is None for v in row] for row in cells]
    n, m = len(blocks), len(blocks[0]) if blocks else 0
    problems = []

    def mirror(r: int, c: int) -> tuple[int, int]:
        return (n - 1 - r, m - 1 - c) if symmetry == "rotational" else (r, m - 1 - c)

    asymmetric = [
        (r, c) for r in range(n) for c in range(m) if blocks[r][c] != blocks[mirror(r, c)[0]][mirror(r, c)[1]]
    ]
    if asymmetric:
        problems.append(f"blocks not {symmetry}-symmetric at row {asymmetric[0][0] + 1}, col {asymmetric[0][1] + 1}")
    words = 0
    for name, lines in (("row", blocks), ("column", [list(col) for col in zip(*blocks)])):
        for k, line in enumerate(lines):
            for length in _open_run_lengths(line):
                words += 1
                if length < min_entry or (max_run is not None and length > max_run):
                    problems.append(f"{name} {k + 1} has a run of {length} open cells")
    if max_words is not None and words > max_words:
        problems.append(f"{words} entries, more than {max_words}")
    for r in range(n - 2):
        for c in range(m - 2):
            if all(blocks[r + i][c + j] for i in range(3) for j in range(3)):
                problems.append(f"a 3x3 square of blocks at row {r + 1}, col {c + 1}")
    if not _open_cells_connected(blocks):
        problems.append("the open cells are not connected")
    return problems


def _open_run_lengths(line: list[bool]) -> Iterator[int]:
    """Lengths of the runs of open cells (``False``) in a line of block flags, 1 included."""
    run = 0
    for is_block in [*line, True]:
        if not is_block:
            run += 1
        elif run:
            yield run
            run = 0


def _open_cells_connected(blocks: list[list[bool]]) -> bool:
    open_cells = {(r, c) for r, row in enumerate(blocks) for c, is_block in enumerate(row) if not is_block}
    if not open_cells:
        return False
    start = next(iter(open_cells))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if cell in open_cells and cell not in seen:
                seen.add(cell)
                stack.append(cell)
    return len(seen) == len(open_cells)
