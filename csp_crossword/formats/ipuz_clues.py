"""The clues of an ipuz file, read: each attached to the slot it names (by its ``cells`` when
given, else by the cell its number labels), or kept in a clue group apart.

A clue is ``[number, "text"]``, ``"text"`` (in an Across or Down list, ``"12 Text"`` or ``"12. Text"``
gives its number) or an object (``number`` or ``numbers``, ``clue``, ``enumeration``, ``cells``).
A number is a whole number or text: ``"14"``, or a range such as ``"2-3"`` (the spec's own example,
the first crossword, labels its clues by the cells they run between), which is attached to the
slot of its first number, with a warning.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import InputError
from ..core.grid import Direction, Grid, Slot
from ..core.limits import MAX_CLUE_NUMBER, check_clue, clue_number
from . import ClueGroup, Position

#: A clue label made of several numbers (or cell marks): ``2-3``, ``14–16``, ``5/12``, ``1, 3``.
#: Its first part is the number of the slot the clue is attached to.
RANGE_LABEL = re.compile(r"\s*([^\s,/&\-–—]+)\s*[,/&\-–—]\s*\S.*")
#: A clue written as text in an Across or Down list with its number in front: ``12 Text``,
#: ``12. Text``, ``2-3 Text``.
NUMBERED_TEXT = re.compile(r"\s*(\d+(?:\s*[-–—/,&]\s*\w+)*)[.:)]?\s+(\S.*)", re.S)
#: Range labels a warning quotes before it only counts them.
QUOTED_RANGES = 3


def whole(value: Any) -> bool:
    """Whether a JSON value is a whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def clue_heading(name: str) -> str:
    """The heading of an extra clue list: its name without a ``Clues:`` prefix."""
    return name[len("Clues:") :] if name.startswith("Clues:") else name


def _clue_cells(value: Any) -> list[list[tuple[int, int]]] | None:
    """Every clue's ``cells`` as (x, y) pairs, to find whether the file counts them from 0 or 1."""
    if not isinstance(value, dict):
        return None
    found = []
    for items in value.values():
        for item in items if isinstance(items, list) else []:
            cells = item.get("cells") if isinstance(item, dict) else None
            if isinstance(cells, list) and all(
                isinstance(p, list) and len(p) == 2 and all(whole(v) for v in p) for p in cells
            ):
                found.append([(p[0], p[1]) for p in cells])
    return found


def read_clues(
    value: Any,
    grid: Grid,
    file_labels: dict[Position, str],
    barred: bool,
    own_numbers: bool,
    path: str,
    warnings: list[str],
) -> tuple[dict[str, str], list[ClueGroup]]:
    """(clue text by slot id, the clue groups no slot carries). A standard grid's clue with no
    slot is an error; in a barred grid or one with its own numbering it is kept apart (so is an
    Across or Down clue without a number in a barred grid, or a range whose first part labels no
    cell). Clues labelled with a range are counted in ``warnings``."""
    lenient = barred or own_numbers
    if not isinstance(value, dict):
        raise InputError("ipuz: clues must be an object (Across, Down)", path)
    listed = _clue_cells(value) or []
    base = 0 if any(v == 0 for cells in listed for p in cells for v in p) else 1
    by_cells = {(slot.cells, slot.direction): slot for slot in grid.slots}
    starts = {(slot.start, slot.direction): slot for slot in grid.slots}
    by_number = {(slot.number, slot.direction): slot for slot in grid.slots}
    labelled: dict[str, list[Position]] = {}
    for pos, label in sorted(file_labels.items()):
        labelled.setdefault(label, []).append(pos)
    found: dict[str, str] = {}
    extra: dict[str, ClueGroup] = {}
    ranges: list[str] = []
    for key, items in value.items():
        name = str(key)
        try:
            direction: Direction | None = Direction(name.split(":")[0].strip().lower())
        except ValueError:
            direction = None
        heading = clue_heading(name)
        if not isinstance(items, list):
            raise InputError(f"ipuz: clues.{name} must be a list", path)
        for i, item in enumerate(items):
            where = f"ipuz: clues.{name}[{i}]"
            raw, text, cells = _clue_item(item, where, path)
            text = check_clue(text, path, field=where)
            slot: Slot | None = None
            if direction is not None:
                numbered = NUMBERED_TEXT.fullmatch(text) if isinstance(item, str) else None
                if numbered:  # "12 Text": the number in front
                    raw, text = numbered.group(1), numbered.group(2)
                number = clue_number(raw)
                label = str(number) if number is not None else "" if raw is None else str(raw).strip()
                ranged = RANGE_LABEL.fullmatch(raw) if number is None and isinstance(raw, str) else None
                if ranged:  # "2-3": the slot of its first number
                    ranges.append(raw.strip())
                    number = clue_number(ranged.group(1))
                    label = str(number) if number is not None else ranged.group(1)
                if number is None and not (barred or cells or (ranged and lenient)):
                    raise InputError(
                        f"{where} has no clue number (a whole number from 1 to {MAX_CLUE_NUMBER:,}): {raw!r:.40}", path
                    )
                if cells:
                    key_cells = tuple((y - base, x - base) for x, y in cells)
                    slot = by_cells.get((key_cells, direction))
                elif file_labels:
                    slot = next(
                        (starts[p, direction] for p in labelled.get(label, []) if (p, direction) in starts), None
                    )
                    standard = by_number.get((number, direction)) if number is not None else None
                    unnumbered = standard is not None and not file_labels.get(standard.start, "").isdecimal()
                    if slot is None and label not in labelled and unnumbered:
                        slot = standard  # a clue of a slot whose start the file does not number
                elif number is not None:
                    slot = by_number.get((number, direction))
                if slot is None and not (lenient or cells):
                    raise InputError(f"{where}: the grid has no {number} {direction}", path)
            if slot is not None:
                if text:
                    found[slot.id] = text
            else:
                extra.setdefault(heading, ClueGroup(heading)).clues.append(("" if raw is None else str(raw), text))
    if ranges:
        shown = ", ".join(ranges[:QUOTED_RANGES]) + (", ..." if len(ranges) > QUOTED_RANGES else "")
        warnings.append(
            f"{len(ranges)} clue(s) labelled with a range ({shown}) are attached to the entry of their "
            "first number (kept apart when that number labels no cell)"
        )
    return found, list(extra.values())


def _clue_item(item: Any, where: str, path: str) -> tuple[Any, str, list[tuple[int, int]]]:
    """(number or label, text with its enumeration, cells as (x, y)) of one clue."""
    cells: list[tuple[int, int]] = []
    if isinstance(item, dict):
        raw = item.get("number")
        numbers = item.get("numbers")
        if raw is None and isinstance(numbers, list) and numbers:
            raw = numbers[0] if len(numbers) == 1 else "/".join(str(n) for n in numbers)
        text = item.get("clue", "")
        enumeration = item.get("enumeration")
        listed = item.get("cells")
        if isinstance(listed, list) and all(
            isinstance(p, list) and len(p) == 2 and all(whole(v) for v in p) for p in listed
        ):
            cells = [(p[0], p[1]) for p in listed]
    elif isinstance(item, list) and len(item) >= 2:
        raw, text, enumeration = item[0], item[1], None
    elif isinstance(item, str):
        raw, text, enumeration = None, item, None
    else:
        raise InputError(f"{where} must be [number, clue] or an object", path)
    if text is None:
        text = ""
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise InputError(f"{where}: the clue must be text", path)
    text = str(text)
    if isinstance(enumeration, (str, int)) and not isinstance(enumeration, bool) and str(enumeration).strip():
        suffix = f"({str(enumeration).strip().strip('()')})"
        if not text.rstrip().endswith(suffix):
            text = f"{text} {suffix}" if text else suffix
    return raw, text, cells
