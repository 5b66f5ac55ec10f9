"""Result rows appended to a benchmark CSV as runs end (a header when the file is new), so an
interrupted run keeps what it measured."""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Sequence


def append_rows(path: str | None, columns: Sequence[str], rows: Iterable[dict]) -> None:
    """Append ``rows`` to the CSV at ``path`` (nothing when ``path`` is None)."""
    if not path:
        return
    new = not os.path.exists(path)
    with open(path, "a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        if new:
            writer.writeheader()
        writer.writerows(rows)
