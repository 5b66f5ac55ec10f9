"""Writing results: the text grid, the JSON document, and atomic file output."""

from __future__ import annotations

import json

from .grid import BLOCK, EMPTY, Cell, Grid, format_grid
from .result import FillResult

#: Version of the JSON result document (docs/formats.md); bump on incompatible change.
JSON_FORMAT_VERSION = 1


def grid_rows(cells: tuple[tuple[Cell, ...], ...]) -> list[str]:
    """Row strings: ``#`` blocks, ``.`` empty cells; cells joined with spaces when any cell
    holds more than one character."""
    texts = [[BLOCK if v is None else (v or EMPTY) for v in row] for row in cells]
    single = all(len(t) == 1 for row in texts for t in row)
    sep = "" if single else " "
    return [sep.join(row) for row in texts]


def result_to_dict(grid: Grid, result: FillResult, extra: dict | None = None) -> dict:
    """The JSON document of a fill result (see docs/formats.md)."""
    cells = result.cells
    data: dict = {
        "format": JSON_FORMAT_VERSION,
        "status": result.status.value,
        "backend": result.backend,
        "rows": grid.rows,
        "cols": grid.cols,
        "rtl": grid.rtl,
    }
    if cells is not None:
        data["grid"] = grid_rows(cells)
        data["cells"] = [[v if v is not None else None for v in row] for row in cells]
    else:
        data["grid"] = None
        data["cells"] = None
    data["entries"] = [entry.to_dict() for entry in result.entries]
    data["score"] = {"total": result.total_score, "mean": result.mean_score}
    if result.bound is not None:
        data["score"].update(bound=result.bound, gap=result.gap)
    data["stats"] = result.stats.to_dict()
    if result.reason:
        data["reason"] = result.reason
    if result.empty_slots:
        data["empty"] = result.empty_slots
    if extra:
        data.update(extra)
    return data


def result_to_text(grid: Grid, result: FillResult, block: str = BLOCK, empty: str = EMPTY) -> str:
    """The filled (or partial) grid in the grid text format; empty when there is no grid."""
    if result.cells is None:
        return ""
    return format_grid(grid, result.cells, block=block, empty=empty)


def to_json(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
