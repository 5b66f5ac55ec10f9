"""The ``## Design`` section of xd files (Puzzmo's extension): cell styles by one-letter rules.

The section holds a ``<style>`` block of rules such as ``O { background: circle }`` (a name of
one glyph, then CSS-like ``property: value`` pairs) and a grid of those names, one glyph a cell
(``.``, ``#`` and spaces: no style). Kept: ``background: circle``; shading as ``background:
shaded`` or a colour in ``background``, ``background-color`` or ``background-light``, or
``shaded: true``; bars as ``bar-top``, ``bar-right``, ``bar-bottom``, ``bar-left: true``. Other
properties are reported as not kept.
"""

from __future__ import annotations

import re
import string

from ..core.errors import InputError
from ..core.glyphs import split_glyphs
from . import EDGES, CellStyle, Position

#: Names the writer gives its rules, in order.
DESIGN_NAMES = string.ascii_uppercase + string.ascii_lowercase + string.digits
RULE = re.compile(r"([^\s{}]+)\s*\{([^{}]*)\}")
PROPERTY = re.compile(r"([\w-]+)\s*:\s*((?:'[^']*'|\"[^\"]*\"|\([^)]*\)|[^;'\"(])*)")
HEX_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
SHADES = ("shaded", "shade", "gray", "grey", "highlight")
COLOR_PROPERTIES = ("background", "background-color", "background-light")


def _rule(body: str, dropped: set[str]) -> CellStyle:
    circle = shaded = False
    color = ""
    bars: set[str] = set()
    for name, raw in PROPERTY.findall(body):
        name, value = name.lower(), raw.strip().strip("'\"").lower()
        if name == "background" and value == "circle":
            circle = True
        elif (name in COLOR_PROPERTIES and value in SHADES) or (name == "shaded" and value == "true"):
            shaded = True
        elif name in COLOR_PROPERTIES and HEX_COLOR.fullmatch(value):
            shaded, color = True, value
        elif name.startswith("bar-") and name[4:] in EDGES and value == "true":
            bars.add(name[4:])
        else:
            dropped.add(f"{name}: {value:.30}")
    return CellStyle(circle=circle, shaded=shaded, color=color, bars=frozenset(bars))


def parse_design(
    lines: list[tuple[int, str]], rows: int, cols: int, path: str, warnings: list[str]
) -> dict[Position, CellStyle]:
    """The cell styles of a ``## Design`` section's lines (number, text)."""
    style_text: list[str] = []
    style_line: int | None = None
    grid: list[tuple[int, str]] = []
    inside = False
    for number, line in lines:
        text = line.strip()
        if not inside and text.startswith("<style>"):
            style_line, inside, text = number, True, text[len("<style>") :]
        if inside:
            body, closed, _ = text.partition("</style>")
            style_text.append(body)
            inside = not closed
        elif text:
            grid.append((number, text))
    if inside:
        raise InputError("the design's <style> block has no </style>", path, style_line, 1)
    if grid and style_line is None:
        raise InputError("the design section has no <style> block", path, grid[0][0], 1)
    text = "\n".join(style_text)
    leftover = RULE.sub("", text).strip()
    if leftover:
        raise InputError(f"cannot read the design's style rules near {leftover!r:.30}", path, style_line, 1)
    dropped: set[str] = set()
    rules: dict[str, CellStyle] = {}
    for name, body in RULE.findall(text):
        if len(split_glyphs(name)) != 1:
            raise InputError(f"a design style name is one character, not {name!r:.20}", path, style_line, 1)
        rules[name] = _rule(body, dropped)
    if dropped:
        warnings.append(f"design properties not kept: {', '.join(sorted(dropped))}")
    styles: dict[Position, CellStyle] = {}
    for r, (number, row) in enumerate(grid):
        for c, ch in enumerate(split_glyphs(row)):
            if ch in " .#":
                continue
            if ch not in rules:
                raise InputError(f"the design cell {ch!r} has no rule in the <style> block", path, number, c + 1)
            if r >= rows or c >= cols:
                raise InputError(f"the design grid is larger than the puzzle's {rows}x{cols}", path, number, c + 1)
            if rules[ch]:
                styles[(r, c)] = rules[ch]
    return styles


def write_rule(name: str, style: CellStyle) -> str:
    """The design rule of one cell style, e.g. ``A { background: circle }``."""
    props = []
    if style.circle:
        props.append("background: circle")
    if style.shaded or style.color:
        key = "background-light" if style.circle else "background"
        if style.color and HEX_COLOR.fullmatch(style.color):
            props.append(f"{key}: {style.color.lower()}")
        else:
            props.append("shaded: true" if style.circle else "background: shaded")
    props.extend(f"bar-{edge}: true" for edge in EDGES if edge in style.bars)
    return f"{name} {{ {'; '.join(props)} }}"
