"""Entries the user wrote that the word list lacks: kept as given, not refused.

An opened puzzle, or a grid where the constructor typed a word of their own, has complete entries
the chosen list does not hold (ABOW, a name, a theme phrase). The library would report such a grid
as unfillable ("20A: no word matches ABOW"), and then every candidate list of the grid is empty.
The page treats them as the constructor's decision instead: each is required in its slot (the
library's ``require``, which adds it to the list for this grid only) and the answer names them.
A banned word stays banned: the user said so, and the answer then says which slot holds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.glyphs import normalize_entry

if TYPE_CHECKING:
    from ..core.grid import Grid
    from ..words.lexicon import Lexicon


def entries_outside(grid: Grid, lexicon: Lexicon, *, min_score: int | None, ban: list[str]) -> dict[str, str]:
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


def given_rows(outside: dict[str, str]) -> list[dict[str, Any]]:
    """The answer's ``given`` rows: the entries kept although the list lacks them."""
    return [{"slot": slot_id, "answer": entry} for slot_id, entry in outside.items()]
