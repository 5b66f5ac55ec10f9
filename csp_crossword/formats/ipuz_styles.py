"""Cell styles of ipuz files (``StyleSpec``): circles, shading and bars, read and written.

A cell's ``style`` is a StyleSpec object or the name of one in the top-level ``styles`` dict. We
keep ``shapebg: circle`` (a circle), ``highlight`` and ``color`` (shading; white is no shading),
and ``barred`` (bars on the cell's ``T``, ``R``, ``B``, ``L`` edges). Other specifiers (images,
corner marks, dotted edges) are counted so the reader can say what it left out.
"""

from __future__ import annotations

import re
from typing import Any

from . import EDGES, CellStyle

#: ipuz ``barred`` letters by edge, in the order the writer gives them.
BAR_LETTERS = {"top": "T", "right": "R", "bottom": "B", "left": "L"}
EDGE_OF_LETTER = {letter: edge for edge, letter in BAR_LETTERS.items()}
HEX_COLOR = re.compile(r"#?([0-9A-Fa-f]{6})")
KEPT = ("shapebg", "highlight", "color", "barred")
WHITE = "#ffffff"


def read_style(raw: Any, named: dict[str, Any], dropped: set[str]) -> CellStyle:
    """The :class:`CellStyle` of a cell's ``style`` value; names of what it drops go to ``dropped``."""
    if isinstance(raw, str):
        if raw not in named:
            dropped.add(f"style name {raw!r:.40} (not in the styles table)")
            return CellStyle()
        raw = named[raw]
    if not isinstance(raw, dict):
        return CellStyle()
    shape = raw.get("shapebg")
    circle = shape == "circle"
    if shape is not None and not circle:
        dropped.add(f"shapebg {shape!r:.20}")
    shaded = raw.get("highlight") is True
    color = ""
    value = raw.get("color")
    if isinstance(value, str) and HEX_COLOR.fullmatch(value):
        color = "#" + value.lstrip("#").lower()
        if color == WHITE:  # the plain background: no shading
            color = ""
        else:
            shaded = True
    elif isinstance(value, int) and not isinstance(value, bool):
        shaded = True  # a colour by number: shading whose colour the file's reader chooses
    elif value is not None:
        dropped.add(f"color {value!r:.20}")
    bars: set[str] = set()
    barred = raw.get("barred")
    if isinstance(barred, str):
        bars = {EDGE_OF_LETTER[ch] for ch in barred.upper() if ch in EDGE_OF_LETTER}
    dropped.update(key for key in raw if key not in KEPT)
    return CellStyle(circle=circle, shaded=shaded, color=color, bars=frozenset(bars))


def write_style(style: CellStyle) -> dict[str, Any]:
    """The ipuz StyleSpec of a cell style (empty when it has nothing to draw)."""
    out: dict[str, Any] = {}
    if style.circle:
        out["shapebg"] = "circle"
    if style.color and HEX_COLOR.fullmatch(style.color) and style.color.lower() != WHITE:
        out["color"] = style.color.lstrip("#").upper()
    elif style.shaded:
        out["highlight"] = True
    if style.bars:
        out["barred"] = "".join(BAR_LETTERS[edge] for edge in EDGES if edge in style.bars)
    return out
