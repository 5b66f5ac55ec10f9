"""A brute-force crossword solver for tests: independent of the package's solver code.

It finds runs of open cells itself and tries every word in every slot, so it is only for tiny
grids and word lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from csp_crossword.core.grid import Grid


def grid_of(rows: list[str]) -> Grid | None:
    """The package's grid of a generated puzzle (to hand to the solver under test), None when it
    has no slot (bad input the grid tests cover)."""
    from csp_crossword.core.errors import InputError
    from csp_crossword.core.grid import parse_grid

    try:
        return parse_grid("\n".join(rows))
    except InputError:
        return None


def runs(rows: list[str]) -> list[list[tuple[int, int]]]:
    height, width = len(rows), len(rows[0])
    found = []
    for r in range(height):
        c = 0
        while c < width:
            start = c
            while c < width and rows[r][c] != "#":
                c += 1
            if c - start >= 2:
                found.append([(r, k) for k in range(start, c)])
            c += 1
    for c in range(width):
        r = 0
        while r < height:
            start = r
            while r < height and rows[r][c] != "#":
                r += 1
            if r - start >= 2:
                found.append([(k, c) for k in range(start, r)])
            r += 1
    return found


def share_run(a: str, b: str, n: int) -> bool:
    """Whether ``a`` and ``b`` have a common substring of ``n`` letters."""
    return any(a[k : k + n] in b for k in range(len(a) - n + 1))


def solutions(
    rows: list[str],
    words: set[str],
    allow_duplicates: bool = False,
    shared_run: int | None = None,
    uses: dict[str, int] | None = None,
):
    """Yield every fill as a dict cell -> letter (pre-filled letters in ``rows`` are kept).
    With ``shared_run`` N, no two entries have a common substring of N letters; with ``uses``
    (word -> how many times it may appear), no word appears more often."""
    slots = runs(rows)
    fixed = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in "#."}

    def extend(k: int, cells: dict, used: list[str]):
        if k == len(slots):
            yield dict(cells)
            return
        slot = slots[k]
        for word in sorted(words):
            if len(word) != len(slot):
                continue
            if uses is not None and used.count(word) >= uses.get(word, 0):
                continue
            if uses is None and not allow_duplicates and word in used:
                continue
            if shared_run is not None and any(share_run(word, other, shared_run) for other in used):
                continue
            if any(cells.get(cell, ch) != ch for cell, ch in zip(slot, word)):
                continue
            added = [cell for cell in slot if cell not in cells]
            for cell, ch in zip(slot, word):
                cells[cell] = ch
            yield from extend(k + 1, cells, used + [word])
            for cell in added:
                del cells[cell]

    yield from extend(0, dict(fixed), [])


def count(rows: list[str], words: set[str], allow_duplicates: bool = False, shared_run: int | None = None) -> int:
    """Distinct fills (fills differing in at least one cell)."""
    return len({tuple(sorted(s.items())) for s in solutions(rows, words, allow_duplicates, shared_run)})


def scored_puzzles(max_height: int = 4, cells: str = ".....#", max_words: int = 40, min_score: int = 0):
    """A hypothesis strategy: (rows, word -> score) for a tiny grid over the letters ABC, with
    ``cells`` drawn per cell ("#" a block) and up to ``max_words`` words."""
    from hypothesis import strategies as st

    @st.composite
    def puzzles(draw):
        height = draw(st.integers(2, max_height))
        width = draw(st.integers(2, 4))
        rows = ["".join(draw(st.sampled_from(cells)) for _ in range(width)) for _ in range(height)]
        words = draw(st.sets(st.text(alphabet="ABC", min_size=2, max_size=width), min_size=1, max_size=max_words))
        scores = {w: draw(st.integers(min_score, 100)) for w in words}
        return rows, scores

    return puzzles()
