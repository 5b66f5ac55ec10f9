"""Every JSON document and text grid the front ends write, built in one place.

Each JSON document starts with the same header (:func:`header`): the document format version,
its kind where it has one, the status, the size and the reading direction (docs/formats.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..core.grid import BLOCK, EMPTY, Cell, Grid, format_grid
from ..core.result import MISMATCH_PREFIX, Entry, FillResult

if TYPE_CHECKING:
    from ..analysis.checking import CheckReport
    from ..analysis.counting import CountResult
    from ..core.grid import GridStats
    from ..core.result import Candidates
    from ..layout.freeform import FreeformResult
    from . import Puzzle

#: Version of the JSON documents (docs/formats.md); bump on incompatible change.
JSON_FORMAT_VERSION = 1

Cells = tuple[tuple[Cell, ...], ...]
Document = dict[str, Any]


def grid_rows(cells: Cells) -> list[str]:
    """Row strings: ``#`` blocks, ``.`` empty cells; cells joined with spaces when any cell
    holds more than one character."""
    texts = [[BLOCK if v is None else (v or EMPTY) for v in row] for row in cells]
    single = all(len(t) == 1 for row in texts for t in row)
    sep = "" if single else " "
    return [sep.join(row) for row in texts]


def header(status: str, rows: int, cols: int, rtl: bool, *, kind: str | None = None) -> Document:
    """The fields every grid document starts with."""
    data: Document = {"format": JSON_FORMAT_VERSION}
    if kind is not None:
        data["kind"] = kind
    data.update(status=status, rows=rows, cols=cols, rtl=rtl)
    return data


def cells_fields(cells: Cells | None) -> Document:
    """``grid`` (row strings) and ``cells`` (one value per cell) of a grid document."""
    if cells is None:
        return {"grid": None, "cells": None}
    return {"grid": grid_rows(cells), "cells": [list(row) for row in cells]}


def result_to_dict(grid: Grid, result: FillResult, extra: Mapping[str, Any] | None = None) -> Document:
    """The JSON document of a fill result (``fill``, ``generate``)."""
    data = header(result.status.value, grid.rows, grid.cols, grid.rtl)
    data = {"format": data.pop("format"), "status": data.pop("status"), "backend": result.backend, **data}
    data.update(cells_fields(result.cells))
    data["entries"] = [entry.to_dict() for entry in result.entries]
    score: Document = {
        "total": result.total_score,
        "mean": result.mean_score,
        "weakest": [{"id": e.id, "answer": e.answer, "score": e.score} for e in result.weakest()],
    }
    if result.bound is not None:
        score.update(bound=result.bound, gap=result.gap)
    if result.floor is not None:
        score.update(floor=result.floor, floor_proved=result.floor_proved)
    data["score"] = score
    data["weak_spots"] = None if result.weak_spots is None else result.weak_spots.to_dict()
    data["shared_roots"] = [list(pair) for pair in result.shared_roots]
    data["given"] = [{"slot": slot_id, "answer": entry} for slot_id, entry in result.given]
    # entries that read a rebus cell as its first letter: the list has no entry spelling it there
    data["rebus_first_letter"] = [{"slot": slot_id, "rebus": letters} for slot_id, letters in result.rebus_first_letter]
    data["stats"] = result.stats.to_dict()
    if result.reason:
        data["reason"] = result.reason
    if result.empty_slots:
        data["empty"] = result.empty_slots
    if result.member:
        data["member"] = result.member
    if extra:
        data.update(extra)
    return data


def puzzle_to_dict(puzzle: Puzzle) -> Document:
    """A crossword file as our JSON document (``convert``, ``--output x.json`` of a puzzle)."""
    from .native_extras import extras_to_dict

    cells = puzzle.solution if puzzle.solution is not None else puzzle.grid.cells
    entries = []
    for slot, answer, clue in puzzle.entries():
        entry = slot.to_dict()
        if puzzle.labels and puzzle.label(slot) != str(slot.number):
            entry["label"] = puzzle.label(slot)
        if answer:
            entry["answer"] = answer
        if clue:
            entry["clue"] = clue
        entries.append(entry)
    status = "filled" if puzzle.solution is not None else "pattern"
    kind = "freeform" if puzzle.freeform else "crossword"
    data = header(status, puzzle.grid.rows, puzzle.grid.cols, puzzle.grid.rtl, kind=kind)
    data.update(cells_fields(cells))
    data["entries"] = entries
    for key in ("title", "author", "copyright", "notes"):
        if getattr(puzzle, key):
            data[key] = getattr(puzzle, key)
    data.update(extras_to_dict(puzzle))
    return data


def freeform_to_dict(
    result: FreeformResult,
    *,
    entries: list[Document],
    words_listed: int,
    symmetric: bool,
    wordsearch: Cells,
    show: Any,
) -> Document:
    """The JSON document of a freeform board; ``show`` gives each word as the user wrote it."""
    status = "interrupted" if result.interrupted else "timeout" if result.timed_out else "filled"
    data = header(status, result.grid.rows, result.grid.cols, result.grid.rtl, kind="freeform")
    data["symmetric"] = symmetric
    data.update(cells_fields(result.cells))
    placed = len(result.placed)
    data.update(
        entries=entries,
        placed=[show(w) for w in result.placed],
        failed=[show(w) for w in result.failed],
        isolated=[show(w) for w in result.isolated],
        wordsearch=grid_rows(wordsearch),
        stats={
            "words_listed": words_listed,
            "words_placed": placed,
            "crossings": result.crossings,
            "crossings_per_word": round(2 * result.crossings / placed, 3) if placed else 0.0,
            "fill": round(result.fill, 3),
            "boards": result.boards,
            "seconds": round(result.seconds, 3),
        },
    )
    return data


def check_to_dict(report: CheckReport) -> Document:
    """The JSON document of ``check``."""
    return {
        "status": report.status,
        "grid": grid_rows(report.witness.cells) if report.witness and report.witness.cells else None,
        "core": report.core,
        "core_minimal": report.core_minimal if report.core is not None else None,
        "patterns": report.patterns,
        "empty": [slot_id for slot_id, _ in report.empty if not slot_id.startswith(MISMATCH_PREFIX)],
        "empty_reasons": dict(report.empty),
        "reason": report.reason,
        "filter_is_cause": report.filter_is_cause,
        "trouble": [
            {"slot": slot_id, "candidates": candidates, "conflicts": conflicts}
            for slot_id, candidates, conflicts in report.trouble
        ],
        "structure": report.structure,
        "seconds": round(report.seconds, 4),
        "proof_seconds": round(report.proof_seconds, 4),
        "core_seconds": round(report.core_seconds, 4),
        "core_tests": report.core_tests,
        "interrupted": report.interrupted,
    }


def count_to_dict(result: CountResult, *, limit: int | None, backend: str, stopped: str | None) -> Document:
    """The JSON document of ``count``."""
    return {**result.to_dict(), "limit": limit, "backend": backend, "stopped": stopped}


def enumerated_fill(index: int, cells: Cells, entries: Iterable[Entry]) -> Document:
    """One JSON line of ``enumerate``."""
    return {"index": index, "grid": grid_rows(cells), "entries": [e.to_dict() for e in entries]}


def slots_to_dict(grid: Grid, stats: GridStats) -> Document:
    """The JSON document of ``slots``."""
    return {
        "slots": [{**slot.to_dict(), "pattern": grid.pattern_text(slot)} for slot in grid.slots],
        "stats": stats.to_dict(),
    }


def candidates_to_dict(found: Candidates) -> Document:
    """The JSON document of ``candidates``: per word its look-ahead ``status`` (``viable``,
    ``dead_end``, ``unknown``), the slot a dead end empties and the words each crossing keeps;
    the totals cover every word that fits, not only those listed."""
    rows = [
        {"word": word, "display": shown, "score": score, "status": status, "crossings": kept, "emptied": emptied}
        for (word, shown, score), status, kept, emptied in zip(
            found.words, found.statuses, found.crossings, found.emptied, strict=True
        )
    ]
    return {
        "slot": found.slot.id,
        "pattern": found.pattern,
        "total": found.total,
        "dead_ends": found.dead_ends,
        "viable": found.viable,
        "unknown": found.unknown,
        "examined": found.examined,
        "budget_spent": found.budget_spent,
        "viable_only": found.viable_only,
        "candidates": rows,
    }


def result_to_text(grid: Grid, result: FillResult, block: str = BLOCK, empty: str = EMPTY) -> str:
    """The filled (or partial) grid in the grid text format; empty when there is no grid."""
    if result.cells is None:
        return ""
    return format_grid(grid, result.cells, block=block, empty=empty)


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def to_json_line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"
