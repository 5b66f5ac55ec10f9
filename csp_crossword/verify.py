"""An independent check of a fill.

Nothing here uses the backends, the word index or the grid's slot code: the runs of open cells are
found again from the cells, and every run is looked up in the lexicon's plain entry table.

>>> from csp_crossword.grid import parse_grid
>>> from csp_crossword.lexicon import Lexicon
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

from .grid import Cell, Direction, Grid

if TYPE_CHECKING:
    from .lexicon import Lexicon


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
    ``extra_words``, such as words the user required); no entry twice unless allowed. With
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
    extra = set(extra_words)
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
