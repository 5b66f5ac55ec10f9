"""Every real puzzle file of ../shared/data/realfiles, through every format we write and back.

A well-formed file loads; written as .puz, .ipuz, .xd and .json and read back, it keeps its
solution, clues, circles, shading, void cells and metadata, unless the writer announced the loss
(``write_crossword``'s list, which the CLI prints): no conversion drops anything silently. A
broken file is refused with an InputError that names the problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.formats import Puzzle, read_crossword, write_crossword

from conftest import REALFILES

REAL = REALFILES
FILES = sorted(p for p in REAL.glob("*") if p.suffix in (".puz", ".ipuz", ".xd")) if REAL.is_dir() else []

#: Files broken on purpose, and a word the error must contain.
BROKEN = {
    "puzpy__ONE_bad.puz": "puz",
    "puzzmo__truncated-strings.puz": "clue",
    "puzzmo__bad_meta.xd": "header",
}
TARGETS = (".puz", ".ipuz", ".xd", ".json")

pytestmark = pytest.mark.skipif(not FILES, reason=f"no real puzzle files in {REAL}")


def _circles(puzzle: Puzzle) -> set[tuple[int, int]]:
    return {cell for cell, style in puzzle.styles.items() if style.circle}


def _shaded(puzzle: Puzzle) -> set[tuple[int, int]]:
    return {cell for cell, style in puzzle.styles.items() if style.shaded or style.color}


def _announced(losses: list[str], *words: str) -> bool:
    return any(word in loss.lower() for loss in losses for word in words)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_real_file_loads_or_is_refused_clearly(path: Path) -> None:
    if path.name in BROKEN:
        with pytest.raises(InputError) as caught:
            read_crossword(path)
        message = str(caught.value)
        assert str(path) in message and BROKEN[path.name] in message.lower()
        assert "invalid literal" not in message and "Traceback" not in message
        return
    puzzle = read_crossword(path)
    assert puzzle.grid.rows > 0 and puzzle.grid.cols > 0
    open_cells = sum(1 for row in puzzle.grid.cells for v in row if v is not None)
    assert open_cells > 0


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("path", [p for p in FILES if p.name not in BROKEN], ids=lambda p: p.name)
def test_conversion_keeps_or_announces(path: Path, target: str, tmp_path: Path) -> None:
    puzzle = read_crossword(path)
    out = tmp_path / f"out{target}"
    try:
        losses = write_crossword(out, puzzle)
    except InputError as error:  # the format cannot hold this puzzle at all: said, never a traceback
        assert str(error) and "Traceback" not in str(error)
        return
    back = read_crossword(out)
    assert (back.grid.rows, back.grid.cols) == (puzzle.grid.rows, puzzle.grid.cols)
    if not _announced(losses, "solution"):
        assert back.solution == puzzle.solution
        assert (back.locked is None) == (puzzle.locked is None)
    if not _announced(losses, "clue"):
        kept = {slot: text for slot, text in puzzle.clues.items() if text.strip()}
        assert {slot: back.clues.get(slot, "") for slot in kept} == kept
    if not _announced(losses, "circle"):
        assert _circles(back) == _circles(puzzle)
    if not _announced(losses, "shad", "colour", "color"):
        assert _shaded(back) == _shaded(puzzle)
    if not _announced(losses, "void"):
        assert back.voids == puzzle.voids
    for key in ("title", "author", "copyright"):
        if not _announced(losses, key, "metadata"):
            # xd header lines hold no surrounding spaces
            assert getattr(back, key).strip() == getattr(puzzle, key).strip(), key
