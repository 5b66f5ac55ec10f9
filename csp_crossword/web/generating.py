"""The ``generate`` job a worker runs: a grid made from a size (docs/web.md "Generate jobs").

An American-style request with ``fill`` false draws the pattern alone (``api.american_pattern``:
blocks and theme entries, every other cell empty, for filling by hand); any other request runs
``api.generate``, which fills the grid too. The library verifies both before they come back: the
pattern keeps the American rules and holds every theme entry, a fill passes ``verify_fill``.

A fill uses only entries that get a clue, as ``generate -o puzzle.puz`` does: ``api.generate``'s
``clued_by`` is the clue chain (the word list's own clues, the clue database, the built-in clues),
unless the request's ``allow_unclued``.
"""

from __future__ import annotations

import time
from typing import Any

from ..words.lexicon import Lexicon


def run_generate(request: dict[str, Any], lexicon: Lexicon, stop: Any, progress: Any) -> dict[str, Any]:
    """The JSON document of one generate job (a validated ``GenerateJobRequest``'s dict: each
    style's fields are checked there):
    ``status``, ``cells`` (the grid to load, letters in it), ``pattern`` (the blocks and theme
    letters alone), ``method``, ``patterns_tried``, ``theme``, and for a fill its entries, score
    and statistics."""
    from .. import api

    if request["ban"] or request["min_score"] is not None:
        lexicon = lexicon.filtered(min_score=request["min_score"], banned=request["ban"])
    american = {
        "blocks": request["blocks"],
        "max_words": request["max_words"],
        "entries": request["entries"],
    }
    if request["symmetry"] is not None:  # else the library's default
        american["symmetry"] = request["symmetry"]
    if not request["fill"]:
        return _pattern_only(request, lexicon, american, stop)
    made = api.generate(
        request["rows"],
        request["cols"],
        lexicon,
        clued_by=None if request.get("allow_unclued") else clue_chain(request.get("clue_db")),
        lang=request["lang"],
        max_run=request["max_run"],
        symmetric=request["symmetric"],
        method=request["method"],
        style=request["style"],
        progressive=request["progressive"],
        allow_duplicates=request["allow_duplicates"],
        allow_shared_roots=request.get("allow_shared_roots", False),
        no_shared_substring=request["no_shared_substring"],
        time_limit=request["time_limit"],
        seed=request["seed"],
        stop=stop,
        progress=progress,
        **(american if request["style"] == "american" else {}),
    )
    from ..formats.documents import result_to_dict

    extra: dict[str, Any] = {
        "style": request["style"],
        "method": made.method,
        "patterns_tried": made.patterns_tried,
        "pattern": [list(row) for row in made.grid.cells],
        "theme": made.theme,
        "blocks": made.grid.stats().blocks,
    }
    if made.method == "american":
        extra["repairs"] = made.repairs
    if made.method == "progressive":
        extra.update(unknown=made.unknown, scrambled=made.scrambled)
    document = result_to_dict(made.grid, made.result, extra)
    if document["cells"] is None:
        document["cells"] = extra["pattern"]  # nothing placed: the layout alone is still the answer
    return document


def clue_chain(database: str | None) -> list[Any]:
    """The clue sources a clued fill draws on: the clue database (``database``, else the user's
    when it exists), then the built-in clues; the word list's own clues count too (``api.generate``)."""
    from ..clues.chain import clue_sources

    return clue_sources("db", database=database)


def _pattern_only(request: dict[str, Any], lexicon: Lexicon, american: dict[str, Any], stop: Any) -> dict[str, Any]:
    from .. import api
    from ..formats.documents import cells_fields, header

    started = time.monotonic()
    made = api.american_pattern(
        request["rows"],
        request["cols"],
        lexicon,
        lang=request["lang"],
        max_run=request["max_run"],
        allow_duplicates=request["allow_duplicates"],
        time_limit=request["time_limit"],
        seed=request["seed"],
        stop=stop,
        **american,
    )
    grid = made.grid
    status = "pattern" if grid is not None else ("interrupted" if stop.is_set() else "timeout")
    rtl = grid.rtl if grid is not None else request["lang"] == "ar"
    document = header(status, request["rows"], request["cols"], rtl)
    document.update(cells_fields(grid.cells if grid is not None else None))
    document.update(
        style="american",
        method="pattern",
        patterns_tried=made.patterns_tried,
        pattern=document["cells"],
        theme=made.theme,
        entries=[],
        blocks=grid.stats().blocks if grid is not None else None,
        stats={"seconds": round(time.monotonic() - started, 3)},
    )
    if grid is None:
        document["reason"] = "no pattern within the rules was drawn in the time limit"
    return document
