"""A puzzle as one self-contained HTML file that plays in a browser, offline.

The file holds the web constructor's player (``grid.js``, ``play.js`` and ``play.css`` from
``csp_crossword/web/static``, inlined) and the puzzle as JSON in a
``<script type="application/json">`` element; nothing is fetched, and the file's content security
policy forbids fetching anything. Checking and revealing need the answers, so the answers are in
the file: it is a handout for solvers, not a way to keep the solution secret.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.formats import Puzzle
>>> puzzle = Puzzle(parse_grid("..\\n.."), solution=(("A", "B"), ("C", "D")), clues={"1A": "First"}, title="Tiny")
>>> page = playable_html(puzzle)
>>> "<title>Tiny</title>" in page and '"1A":"First"' in page
True
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import Any

from ..core.errors import InputError
from ..formats import Puzzle

#: The package whose ``static`` folder holds the player (the web constructor's files).
STATIC_PACKAGE = "csp_crossword.web"
PLAYER_SCRIPT = "play.js"
GRID_SCRIPT = "grid.js"
PLAYER_STYLE = "play.css"
#: What the embedded JSON says it is, and its version (a later player can read older files).
DATA_FORMAT = "csp-crossword-play"
DATA_VERSION = 1
#: Characters that JSON leaves as they are but that could end the script element or start an
#: HTML comment in it: written as JSON escapes, which JSON.parse reads back unchanged.
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
#: Text that must not appear inside an inlined script or style element (it would end it early).
_ENDS_ELEMENT = re.compile(r"</(script|style)|<!--", re.IGNORECASE)
#: The exported page around the player (inlined after play.css).
_PAGE_STYLE = "\nbody { margin: 0; padding: 16px 20px; background: #fff; }\n@media print { body { padding: 0; } }\n"
#: Starts the player on the embedded puzzle once the page is parsed.
_BOOT = (
    'const cwpData = JSON.parse(document.getElementById("cwp-data").textContent);\n'
    'const cwpPlayer = CWPlay.mount(document.getElementById("cwp-root"), cwpData, { header: true, print: true });\n'
    "if (cwpPlayer) cwpPlayer.focus();\n"
)


def play_data(puzzle: Puzzle) -> dict[str, Any]:
    """The player's view of ``puzzle``: every open cell's answer, the clues, the drawing.

    InputError when the puzzle has no solution to play against (or a locked, scrambled one)."""
    if puzzle.locked is not None:
        raise InputError("the solution of this puzzle is locked (scrambled): it cannot be played", "puzzle")
    if puzzle.solution is None:
        raise InputError("a playable puzzle needs its solution: fill every open cell first", "puzzle")
    grid = puzzle.grid
    solution = puzzle.solution
    if len(solution) != grid.rows or any(len(row) != grid.cols for row in solution):
        raise InputError(f"the solution must be {grid.rows} x {grid.cols} like the grid", "puzzle")
    cells: list[list[str | None]] = []
    given: list[list[int]] = []
    for r in range(grid.rows):
        row: list[str | None] = []
        for c in range(grid.cols):
            if grid.is_block(r, c):
                row.append(None)
                continue
            answer = solution[r][c]
            if not answer:
                raise InputError(f"cell ({r + 1}, {c + 1}) has no answer: a playable puzzle needs them all", "puzzle")
            row.append(answer)
            if grid.cells[r][c]:
                given.append([r, c])
        cells.append(row)
    data: dict[str, Any] = {
        "format": DATA_FORMAT,
        "version": DATA_VERSION,
        "title": puzzle.title,
        "author": puzzle.author,
        "copyright": puzzle.copyright,
        "notes": puzzle.notes,
        "rtl": grid.rtl,
        "freeform": puzzle.freeform,
        "solution": cells,
        "clues": {slot.id: clue for slot, _, clue in puzzle.entries() if clue},
    }
    if given:
        data["given"] = given
    if puzzle.voids:
        data["voids"] = [list(position) for position in sorted(puzzle.voids)]
    if puzzle.labels:
        data["labels"] = {f"{r},{c}": label for (r, c), label in sorted(puzzle.labels.items())}
    styles = {
        f"{r},{c}": {"circle": style.circle, "shaded": style.shaded, "color": style.color, "bars": sorted(style.bars)}
        for (r, c), style in sorted(puzzle.styles.items())
        if style
    }
    if styles:
        data["styles"] = styles
    return data


def embed_json(data: Any) -> str:
    """``data`` as JSON that is safe as the text of a script element: no ``<``, ``>`` or ``&``
    (``</script>`` in a clue cannot end the element), each written as its JSON escape."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return "".join(_JSON_ESCAPES.get(ch, ch) for ch in text)


def _static_text(name: str) -> str:
    text = resources.files(STATIC_PACKAGE).joinpath("static", name).read_text(encoding="utf-8")
    if _ENDS_ELEMENT.search(text):
        # Our own file, not user input: a broken build of the package, not a bad request.
        raise RuntimeError(f"{name} contains text that would end its inlined element")
    return text


def _hash_source(text: str) -> str:
    """A content-security-policy source that allows exactly this inline element's text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def playable_html(puzzle: Puzzle) -> str:
    """One HTML file that plays ``puzzle`` offline: player, style and puzzle (answers included)."""
    data = embed_json(play_data(puzzle))
    style = _static_text(PLAYER_STYLE) + _PAGE_STYLE
    # grid.js first: the player takes its glyph rules and numbering from it (CW.grid)
    script = _static_text(GRID_SCRIPT) + "\n" + _static_text(PLAYER_SCRIPT) + "\n" + _BOOT
    policy = (
        f"default-src 'none'; script-src {_hash_source(script)}; style-src {_hash_source(style)}; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    title = html.escape(puzzle.title or "Crossword")
    return (
        "<!DOCTYPE html>\n"
        '<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">\n'
        f"<title>{title}</title>\n"
        '<link rel="icon" href="data:,">\n'
        f"<style>{style}</style>\n"
        "</head>\n<body>\n"
        '<main id="cwp-root"><noscript>This crossword needs JavaScript to be played.</noscript></main>\n'
        f'<script type="application/json" id="cwp-data">{data}</script>\n'
        f"<script>{script}</script>\n"
        "</body>\n</html>\n"
    )
