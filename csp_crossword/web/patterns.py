"""The pattern library the page starts grids from: ``GET /api/patterns`` and
``GET /api/patterns/{id}`` (docs/web.md "Patterns").

The server reads the grid files of its pattern folders (``serve --patterns DIR``; by default the
``grids/`` folder of a source checkout, or the copy an installed package holds) once, on the
first request, and keeps every grid in memory. A request names a pattern by an id of that
listing only: no part of a request ever becomes a path, so no request can read a file the
listing did not offer.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException

from ..core.errors import InputError
from .models import MAX_WEB_GRID_SIDE

#: The grids/ folder beside the package: there in a source checkout or an editable install.
CHECKOUT_GRIDS = Path(__file__).resolve().parents[2] / "grids"
#: The same grids inside an installed package (setup.py copies them there when it builds).
PACKAGED_GRIDS = Path(__file__).resolve().parents[1] / "grids"
#: Grid files read per folder tree at most, and the largest file read: a pattern folder holds
#: grids, not whole archives (a 25x25 grid written token by token is a few kB).
MAX_PATTERN_FILES = 2000
MAX_PATTERN_FILE_BYTES = 64 * 1024
#: The file kinds read: grid text (``#`` blocks, ``.`` open cells, docs/formats.md) and the
#: crossword files whose pattern and given letters ``api.open_grid`` reads.
PATTERN_EXTENSIONS = (".txt", ".puz", ".ipuz", ".xd")
#: A manifest beside the grids (grids/manifest.json) gives each file a description.
MANIFEST = "manifest.json"
#: What an id is made of; anything else (a slash, "..") is not an id and is refused with 400.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
MAX_ID_CHARS = 200


@dataclass(frozen=True)
class Pattern:
    """One grid of the library: its id and where it came from, and its cells."""

    id: str
    name: str
    folder: str
    cells: tuple[tuple[str | None, ...], ...]
    description: str = ""

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "folder": self.folder,
            "rows": len(self.cells),
            "cols": len(self.cells[0]),
            "blocks": sum(v is None for row in self.cells for v in row),
            "prefilled": sum(bool(v) for row in self.cells for v in row),
            "description": self.description,
        }


def default_pattern_dirs() -> list[Path]:
    """The checkout's grids/ folder when there is one, else the package's copy of it (an
    installed wheel), else none."""
    for folder in (CHECKOUT_GRIDS, PACKAGED_GRIDS):
        if folder.is_dir():
            return [folder]
    return []


class PatternLibrary:
    """The grids of ``dirs`` (read on first use; files that are no grid, or a larger one than the
    page edits, are skipped and counted in ``skipped``)."""

    def __init__(self, dirs: Iterable[str | Path] | None = None):
        self.dirs = [Path(d) for d in dirs] if dirs is not None else default_pattern_dirs()
        self.skipped = 0
        self._patterns: dict[str, Pattern] | None = None
        self._lock = threading.Lock()

    def patterns(self) -> dict[str, Pattern]:
        with self._lock:
            if self._patterns is None:
                self._patterns = {}
                for root in self.dirs:
                    self._read_folder(root)
            return self._patterns

    def listing(self) -> list[dict[str, Any]]:
        return [p.summary() for p in self.patterns().values()]

    def get(self, pattern_id: str) -> Pattern | None:
        return self.patterns().get(pattern_id)

    def _read_folder(self, root: Path) -> None:
        from ..api import open_grid

        assert self._patterns is not None
        descriptions = _descriptions(root)
        files = sorted(p for p in root.rglob("*") if p.suffix.lower() in PATTERN_EXTENSIONS and p.is_file())
        if len(files) > MAX_PATTERN_FILES:
            self.skipped += len(files) - MAX_PATTERN_FILES
            files = files[:MAX_PATTERN_FILES]
        for path in files:
            try:
                if path.stat().st_size > MAX_PATTERN_FILE_BYTES:
                    raise InputError("too large for a pattern", str(path))
                grid = open_grid(path).grid
            except (InputError, OSError, ValueError):
                self.skipped += 1
                continue
            if max(grid.rows, grid.cols) > MAX_WEB_GRID_SIDE:
                self.skipped += 1
                continue
            relative = path.relative_to(root)
            folder = "/".join((root.name, *relative.parent.parts))
            pattern_id = self._new_id([*relative.parent.parts, path.stem])
            description = descriptions.get(relative.as_posix(), "")
            self._patterns[pattern_id] = Pattern(pattern_id, path.stem, folder, grid.cells, description)

    def _new_id(self, parts: list[str]) -> str:
        """The parts' id: characters outside the id's alphabet become ``_``; a taken id (the same
        name in two folders given) gets ``-2``, ``-3``..."""
        assert self._patterns is not None
        base = ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", part) or "_" for part in parts)[:MAX_ID_CHARS]
        found, n = base, 1
        while found in self._patterns:
            n += 1
            suffix = f"-{n}"
            found = base[: MAX_ID_CHARS - len(suffix)] + suffix  # still an id get_pattern takes
        return found


def _descriptions(root: Path) -> dict[str, str]:
    """File (relative to ``root``) -> description, from ``root``'s manifest when it has one (its
    ``file`` paths may start with the folder's own name, as grids/manifest.json's do)."""
    try:
        entries = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            continue
        file = entry["file"].removeprefix(root.name + "/")
        text = entry.get("description") or entry.get("origin") or ""
        if isinstance(text, str):
            found[file] = text
    return found


def add_pattern_routes(app: FastAPI, library: PatternLibrary) -> None:
    """``GET /api/patterns`` (the listing) and ``GET /api/patterns/{id}`` (one grid)."""

    @app.get("/api/patterns")
    async def list_patterns() -> dict[str, Any]:
        return {"patterns": library.listing(), "folders": [d.name for d in library.dirs]}

    @app.get("/api/patterns/{pattern_id}")
    async def get_pattern(pattern_id: str) -> dict[str, Any]:
        if len(pattern_id) > MAX_ID_CHARS or not ID_PATTERN.fullmatch(pattern_id):
            raise HTTPException(400, "not a pattern id: use an id from GET /api/patterns")
        pattern = library.get(pattern_id)
        if pattern is None:
            raise HTTPException(404, f"no pattern {pattern_id!r}: GET /api/patterns lists them")
        return {**pattern.summary(), "grid": {"cells": [list(row) for row in pattern.cells], "rtl": False}}
