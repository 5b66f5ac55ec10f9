"""Entries the user wrote that the word list lacks: kept as given, never a reason for "unsatisfiable".

A grid with a theme entry typed in (BACKTRACK SEARCH), an opened puzzle, or a corner the constructor
filled by hand has complete entries the chosen list may not hold. They are the constructor's
decision: each is required in its slot (the ``require`` option, which adds it to the list for this
grid only, so the verifier accepts it too) and the result names them (``FillResult.given``). A word
the user banned stays banned: then the slot holding it is what makes the grid unfillable, and the
answer says so. A fill-in puzzle (``exact``) is left alone: its word list is the puzzle.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.errors import InputError
from ..core.glyphs import is_cell_glyph, normalize_entry, split_glyphs
from .rebus import cell_pieces

#: How a placement may name its direction.
DIRECTIONS = {"a": "across", "across": "across", "d": "down", "down": "down"}

if TYPE_CHECKING:
    from ..core.grid import Grid, Slot
    from ..words.lexicon import Lexicon


def entries_outside(grid: Grid, lexicon: Lexicon, *, min_score: int | None, ban: Iterable[str]) -> dict[str, str]:
    """Slot id -> entry, for every complete entry of ``grid`` that ``lexicon`` (after ``min_score``)
    does not offer and the user did not ban."""
    banned = {normalize_entry(word) for word in ban}
    outside = {}
    for slot in grid.slots:
        answer = grid.pattern_text(slot)
        if "?" in answer:
            continue
        entry = normalize_entry(answer)
        if not entry or entry in banned:
            continue
        listed = entry in lexicon and (min_score is None or lexicon.scores.get(entry, 0) >= min_score)
        if not listed:
            outside[slot.id] = entry
    return outside


@dataclass(frozen=True)
class Placement:
    """A theme entry placed by position: ``word`` in the slot of ``direction`` (``across`` or
    ``down``) that starts at cell (``row``, ``col``), counted from 0 at the top left (as an
    entry's ``row`` and ``col`` in a result). Valid whatever the slots' numbers, which change each
    time a block moves."""

    row: int
    col: int
    direction: str
    word: str


def place_entries(grid: Grid, placements: Iterable[Placement]) -> Grid:
    """``grid`` with each placement's glyphs in its slot's cells: given letters, which the fill
    keeps (a word the list lacks is kept as given). InputError, naming the placement, when the
    cell is outside the grid or a block, no slot of that direction starts there, the word's length
    is not the slot's, or a glyph clashes with a letter already there."""
    cells = [list(row) for row in grid.cells]
    for placed in placements:
        direction = DIRECTIONS.get(placed.direction.strip().lower())
        where = f"theme entry {placed.word} at row {placed.row + 1}, column {placed.col + 1}"
        if direction is None:
            raise InputError(f"{where}: the direction is across (A) or down (D), not {placed.direction!r}")
        where += f" {direction}"
        if (
            not (0 <= placed.row < grid.rows and 0 <= placed.col < grid.cols)
            or grid.cells[placed.row][placed.col] is None
        ):
            raise InputError(f"{where}: no open cell there (rows and columns count from 1)", grid.source)
        slot = next(
            (s for s, k in grid.slots_at.get((placed.row, placed.col), ()) if s.direction == direction and k == 0),
            None,
        )
        if slot is None:
            inside = [s for s, _ in grid.slots_at.get((placed.row, placed.col), ()) if s.direction == direction]
            hint = ""
            if inside:
                (r, c), slot_id = inside[0].cells[0], inside[0].id
                hint = f" (the {direction} slot there, {slot_id}, starts at row {r + 1}, column {c + 1})"
            raise InputError(f"{where}: no {direction} entry starts there{hint}", grid.source)
        glyphs = _through_rebus(cells, slot, split_glyphs(normalize_entry(placed.word)))
        if len(glyphs) != slot.length:
            raise InputError(f"{where}: {len(glyphs)} letters for a slot of {slot.length} ({slot.id})", grid.source)
        for (r, c), glyph in zip(slot.cells, glyphs, strict=True):
            if len(split_glyphs(glyph)) > 1:  # the rebus already in the cell, spelled by the word
                continue
            if not is_cell_glyph(glyph):
                raise InputError(f"{where}: {glyph!r} cannot fill a cell (letters and digits only)", grid.source)
            if cells[r][c] and cells[r][c] != glyph:
                raise InputError(
                    f"{where}: {glyph} clashes with {cells[r][c]} at row {r + 1}, column {c + 1}", grid.source
                )
            cells[r][c] = glyph
    return grid.with_cells(cells)


def _through_rebus(cells: list[list[str | None]], slot: Slot, glyphs: list[str]) -> list[str]:
    """A word's glyphs one per cell of ``slot``: a rebus cell it spells (HEART in SWEETHEART)
    takes all its letters; ``glyphs`` unchanged when the word does not spell the slot's rebus
    cells there."""
    if len(glyphs) == slot.length:
        return glyphs
    rebuses = [cells[r][c] or "" if len(split_glyphs(cells[r][c] or "")) > 1 else "" for r, c in slot.cells]
    pieces = cell_pieces(rebuses, glyphs)
    if pieces is None:
        return glyphs
    return [rebus if piece is None else piece for rebus, piece in zip(rebuses, pieces, strict=True)]


def parse_placement(text: str) -> Placement:
    """``ROW,COL,A|D=WORD`` (row and column counted from 1, as a constructor counts) as a
    :class:`Placement`; InputError saying the form when ``text`` is not one."""
    position, sep, word = text.partition("=")
    parts = [p.strip() for p in position.split(",")]
    if not sep or not word.strip() or len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        raise InputError(f"--theme {text!r}: write ROW,COL,A|D=WORD, e.g. 8,1,A=BACKTRACKSEARCH (counted from 1)")
    return Placement(int(parts[0]) - 1, int(parts[1]) - 1, parts[2], word.strip())
