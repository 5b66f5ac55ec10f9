"""The clue lines of an ``.xd`` file (``A1. Clue text ~ ANSWER``), read and written.

A clue's line breaks are written as backslashes (the spec's line separator in a clue); the answer
is the word after the last `` ~ ``, so a clue may hold `` ~ `` itself, and a clue without an answer
that would read as one is closed with a bare `` ~``. The lines that are no clue are the notes.
"""

from __future__ import annotations

import re

from ..core.errors import InputError
from ..core.grid import Grid, Slot
from ..core.limits import MAX_CLUE_NUMBER, check_clue, clue_number

#: The (line number, text) pairs of a part of the file.
Lines = list[tuple[int, str]]

#: A clue line: ``A1. Clue text ~ ANSWER``. The answer is the one word after the last `` ~ ``, so
#: a clue may hold `` ~ `` itself; a bare `` ~`` at the end closes a clue that has no answer.
CLUE_LINE = re.compile(r"^([AD])(\d+)\.\s?(.*?)(?:(?<=[.\s])~(?:\s+([^\s~]\S*))?)?$")
CLUE_METADATA = re.compile(r"^[A-Za-z]\d+\s*\^")
#: Line numbers a warning about clue lines names before it only counts them.
QUOTED_LINES = 5


def read_clues(lines: Lines, pattern: Grid, path: str, warnings: list[str]) -> tuple[dict[str, str], str]:
    """Clue text by slot id, and the lines that are not clues (notes)."""
    clues: dict[str, str] = {}
    by_number = {(slot.number, slot.direction.letter): slot.id for slot in pattern.slots}
    notes: list[str] = []
    skipped = 0
    empty: list[int] = []
    twice: list[int] = []
    for lineno, line in lines:
        text = line.strip()
        if not text:
            if notes:
                notes.append("")
            continue
        match = CLUE_LINE.match(text)
        if not match:
            if CLUE_METADATA.match(text):
                skipped += 1
            else:
                notes.append(text)
            continue
        number = clue_number(match.group(2))
        if number is None:
            raise InputError(
                f"clue {match.group(1)}{match.group(2):.12}: a clue number is a whole number from 1 to "
                f"{MAX_CLUE_NUMBER:,}",
                path,
                lineno,
                2,
            )
        slot_id = by_number.get((number, match.group(1)))
        if slot_id is None:
            raise InputError(f"clue {match.group(1)}{number}: the grid has no such entry", path, lineno, 1)
        clue = match.group(3).strip().replace("\\", "\n")  # the spec's line separator in a clue
        if not clue:
            empty.append(lineno)
        elif slot_id in clues:
            twice.append(lineno)
        if clue:
            clues[slot_id] = check_clue(clue, path, line=lineno)
    if skipped:
        warnings.append(f"{skipped} clue metadata line(s) ('A1 ^Key: value') are not kept")
    if empty:
        warnings.append(
            f"{_lines(empty)} no clue text: {'its entry has' if len(empty) == 1 else 'their entries have'} no clue"
        )
    if twice:
        warnings.append(f"{_lines(twice)} a clue for an entry clued before: the later clue is kept")
    return clues, "\n".join(notes).strip("\n")


def _lines(numbers: list[int]) -> str:
    """``the clue line 7 has`` / ``the clue lines 7, 9, 12, ... have``: the first few named."""
    shown = ", ".join(map(str, numbers[:QUOTED_LINES])) + (", ..." if len(numbers) > QUOTED_LINES else "")
    return f"the clue line {shown} has" if len(numbers) == 1 else f"the clue lines {shown} ({len(numbers)}) have"


def clue_line(slot: Slot, answer: str | None, clue: str) -> str:
    """The clue line of ``slot``; a clue without an answer that would read as one (``a ~ b``)
    is closed with a bare `` ~``."""
    text = clue.replace("\n", "\\")  # the spec's line separator in a clue
    line = f"{slot.direction.letter}{slot.number}." + (f" {text}" if text else "")
    if answer:
        return f"{line} ~ {answer}"
    match = CLUE_LINE.match(line.strip())
    whole = match is not None and match.group(4) is None and match.group(3).strip() == text.strip()
    return line if whole else f"{line} ~"
