"""Replacing one word of a laid-out freeform board with another word that fits the same cells.

The new word keeps the letters where other words cross the old one and may change the others: on
a freeform board a cell that crosses nothing has no letter beside it across the word, so no other
word changes. It is drawn at random from a word list by the list's word index (one bitset match
of the pattern, not a scan), less the words already on the board and the banned ones.

>>> from csp_crossword.core.grid import ACROSS, Grid
>>> board = ((None, "C", None), ("B", "A", "T"), (None, "T", None))
>>> lexicon = Lexicon.from_words(["CAT", "BAT", "RAT", "DOG"])
>>> found = replace_word(Grid(board), (1, 0), ACROSS, lexicon, rng=random.Random(1))
>>> found.pattern, found.word
('?A?', 'RAT')
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from ...core.errors import InputError
from ...core.glyphs import normalize_entry
from ...core.grid import Direction, Grid, Slot
from ...words.lexicon import Lexicon
from ...words.word_index import DEFAULT_SCORE

Cell = tuple[int, int]
#: Shown for a cell the new word may change, in the pattern of a message ("?A?E?").
FREE = "?"
#: Words drawn first come from those scored at least this (a list's plain words, not its
#: fill-only scraps); when none of them fits, any word of the list.
PREFERRED_SCORE = DEFAULT_SCORE


@dataclass(frozen=True)
class Replacement:
    """A word for a board's entry.

    Attributes:
        word: The new entry (the list's entry form).
        slot: The board's entry it goes in.
        pattern: The letters kept where other words cross it, ``?`` for the others.
        choices: How many words of the list fitted (the word is one of them, at random).
    """

    word: str
    slot: Slot
    pattern: str
    choices: int


def board_slot(grid: Grid, start: Cell, direction: Direction) -> Slot:
    """The board's entry that starts at ``start`` and runs in ``direction`` (InputError if none)."""
    for slot in grid.slots:
        if slot.start == start and slot.direction is direction:
            return slot
    raise InputError(f"no {direction.value} word starts at row {start[0] + 1}, column {start[1] + 1}", "row")


def kept_pattern(grid: Grid, slot: Slot) -> tuple[str | None, ...]:
    """The slot's glyphs where another word crosses it, None where it crosses nothing."""
    crossed = {cell for other in grid.slots if other.direction is not slot.direction for cell in other.cells}
    return tuple(grid.cells[r][c] or None if (r, c) in crossed else None for r, c in slot.cells)


def replace_word(
    grid: Grid,
    start: Cell,
    direction: Direction,
    lexicon: Lexicon,
    *,
    rng: random.Random,
    exclude: Iterable[str] = (),
) -> Replacement:
    """A random word of ``lexicon`` for the board entry at ``start`` running in ``direction``:
    same length, the crossing letters kept, not on the board, not the entry itself, not in
    ``exclude``. InputError naming the pattern when no word of the list fits."""
    slot = board_slot(grid, start, direction)
    pattern = kept_pattern(grid, slot)
    shown = "".join(glyph or FREE for glyph in pattern)
    on_board = {normalize_entry(grid.pattern_text(s).replace(" ", "")) for s in grid.slots}
    banned = on_board | {normalize_entry(w) for w in exclude}
    length = slot.length
    bits = 0
    if length in lexicon.lengths():
        index = lexicon.index(length)
        bits = index.match(pattern)
        for word in banned:
            word_id = index.id_of(word)
            if word_id is not None:
                bits &= ~(1 << word_id)
    if not bits:
        raise InputError(f"no word of the list fits {shown}", "word")
    preferred = bits & ((1 << index.count_at_least(PREFERRED_SCORE)) - 1)  # ids are best first
    ids = index.id_array(preferred or bits)
    word = index.words[int(ids[rng.randrange(len(ids))])]
    return Replacement(word, slot, shown, bits.bit_count())


__all__ = ["FREE", "PREFERRED_SCORE", "Replacement", "board_slot", "kept_pattern", "replace_word"]
