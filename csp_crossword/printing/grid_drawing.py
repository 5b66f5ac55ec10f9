"""Drawing a puzzle's grid: the SVG picture, and the printed page's grid.

What the grid shows is decided once, in :func:`grid_view`: the cells inside the bounding box of
the puzzle's cells (voids, and a freeform board's unused cells, around it are cropped away), each
an open cell, a block, or nothing (a void, an unused freeform cell); the numbers (the file's
labels when it has them); the glyphs (given letters, or the solution for an answer key). A
diagramless solver's sheet draws every cell of the puzzle as open and numbers only what the file
labels.

The SVG draws one square per cell (``class="cell"``, grey or the file's colour when shaded,
``class="block"`` black), a circle (``class="circle"``) in circled cells, thick bars
(``class="bar"``) on barred edges, clue numbers as ``<text class="number">`` with ``data-row`` and
``data-col`` (top left, or top right in right-to-left grids) and with ``solution`` the answer
glyphs as ``<text class="letter">``. The page uses the same picture without its text and lays the
numbers and letters over it as HTML text, which WeasyPrint shapes (its SVG text is not shaped,
so Bangla vowel signs would print detached).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from ..core.errors import InputError
from ..formats import CellStyle, Puzzle

Position = tuple[int, int]

#: Side of one cell in SVG user units (pixels at 96 dpi in the standalone SVG).
CELL = 36
#: Room around the cells, in user units, so the outer lines are not clipped.
PAD = 2
#: Width of a cell's outline, of a rectangular grid's outline and of a bar, in user units.
LINE, FRAME, BAR = 1.0, 2.5, 4.5
#: The fill of a shaded cell when the file gives no colour.
SHADE = "#c4c4c4"
#: Font stack: Latin first, then scripts the Noto fonts cover; Pango falls back per glyph anyway.
FONTS = "'Noto Sans', 'Noto Sans Bengali', 'Noto Naskh Arabic', 'Noto Sans Arabic', 'DejaVu Sans', sans-serif"
#: A colour the SVG and the page may carry as it is (anything else prints as the default shade).
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass
class GridView:
    """What a printed grid shows.

    Attributes:
        puzzle: The puzzle drawn.
        top, left, rows, cols: The box of the grid that is drawn (the rest is cropped away).
        kinds: ``"open"`` or ``"block"`` by cell; cells not in it are drawn as nothing.
        numbers: The number (or the file's label) printed in a cell.
        glyphs: The glyph printed in a cell (given letters, or the answer key's letters).
    """

    puzzle: Puzzle
    top: int
    left: int
    rows: int
    cols: int
    kinds: dict[Position, str]
    numbers: dict[Position, str]
    glyphs: dict[Position, str]

    @property
    def rtl(self) -> bool:
        return self.puzzle.grid.rtl

    def style(self, position: Position) -> CellStyle:
        return self.puzzle.styles.get(position) or CellStyle()

    def fill(self, position: Position) -> str:
        """The colour of a cell: black for a block, the shade of a shaded cell, else white."""
        if self.kinds.get(position) == "block":
            return "#000"
        style = self.style(position)
        if style.color and _COLOR.fullmatch(style.color):
            return style.color
        return SHADE if style.shaded or style.color else "#fff"

    def origin(self, position: Position) -> tuple[float, float]:
        """The top left corner of a cell in user units."""
        r, c = position
        return PAD + (c - self.left) * CELL, PAD + (r - self.top) * CELL

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture in user units."""
        return self.cols * CELL + 2 * PAD, self.rows * CELL + 2 * PAD


def grid_view(puzzle: Puzzle, solution: bool = False) -> GridView:
    """What the grid of ``puzzle`` shows on the solver's sheet, or with ``solution`` the key."""
    grid = puzzle.grid
    if solution and puzzle.solution is None:
        raise InputError("this puzzle has no solution to show")
    hide_blocks = puzzle.diagramless and not solution
    kinds: dict[Position, str] = {}
    for r in range(grid.rows):
        for c in range(grid.cols):
            if (r, c) in puzzle.voids:
                continue
            if grid.cells[r][c] is None:
                if not puzzle.freeform:
                    kinds[(r, c)] = "open" if hide_blocks else "block"
            else:
                kinds[(r, c)] = "open"
    if kinds:
        top, bottom = min(r for r, _ in kinds), max(r for r, _ in kinds)
        left, right = min(c for _, c in kinds), max(c for _, c in kinds)
    else:
        top, bottom, left, right = 0, grid.rows - 1, 0, grid.cols - 1
    numbers: dict[Position, str] = {}
    if not hide_blocks:
        numbers = {slot.start: puzzle.label(slot) for slot in grid.slots}
    numbers.update(puzzle.labels)
    letters = puzzle.solution if solution and puzzle.solution is not None else grid.cells
    glyphs = {}
    for position, kind in kinds.items():
        glyph = letters[position[0]][position[1]] if kind == "open" else None
        if glyph:
            glyphs[position] = glyph
    numbers = {p: n for p, n in numbers.items() if kinds.get(p) == "open" and n}
    return GridView(puzzle, top, left, bottom - top + 1, right - left + 1, kinds, numbers, glyphs)


def _shapes(view: GridView) -> list[str]:
    """The cells, circles and bars as SVG elements (cells first, so outlines and bars lie on top)."""
    parts = []
    for position in sorted(view.kinds):
        x, y = view.origin(position)
        kind = view.kinds[position]
        fill = view.fill(position)
        classes = "block" if kind == "block" else ("cell shaded" if fill != "#fff" else "cell")
        parts.append(
            f'<rect class="{classes}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
            f'stroke="#000" stroke-width="{LINE}"/>'
        )
    for position in sorted(view.kinds):
        if view.kinds[position] == "open" and view.style(position).circle:
            x, y = view.origin(position)
            parts.append(
                f'<circle class="circle" cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="{CELL / 2 - 1.5:g}" '
                f'fill="none" stroke="#000" stroke-width="{LINE}"/>'
            )
    if not view.puzzle.freeform and not view.puzzle.voids and len(view.kinds) == view.rows * view.cols:
        parts.append(  # a rectangular grid's outline, heavier than its inner lines
            f'<rect class="frame" x="{PAD}" y="{PAD}" width="{view.cols * CELL}" height="{view.rows * CELL}" '
            f'fill="none" stroke="#000" stroke-width="{FRAME}"/>'
        )
    for position in sorted(view.kinds):
        x, y = view.origin(position)
        ends = {
            "top": (x, y, x + CELL, y),
            "right": (x + CELL, y, x + CELL, y + CELL),
            "bottom": (x, y + CELL, x + CELL, y + CELL),
            "left": (x, y, x, y + CELL),
        }
        for edge in sorted(view.style(position).bars & ends.keys()):
            x1, y1, x2, y2 = ends[edge]
            parts.append(
                f'<line class="bar" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" '
                f'stroke-width="{BAR}" stroke-linecap="square"/>'
            )
    return parts


def _text(view: GridView, solution: bool) -> list[str]:
    parts = []
    for (r, c), number in sorted(view.numbers.items()):
        x, y = view.origin((r, c))
        nx, anchor = (x + CELL - 2, "end") if view.rtl else (x + 2, "start")
        parts.append(
            f'<text class="number" x="{nx}" y="{y + 10}" font-size="9" text-anchor="{anchor}" '
            f'data-row="{r}" data-col="{c}">{escape(number)}</text>'
        )
    for (r, c), glyph in sorted(view.glyphs.items()):
        x, y = view.origin((r, c))
        size = 20 if len(glyph) <= 2 else max(8, int(40 / len(glyph)))
        cls = "letter" if solution else "letter given"
        parts.append(
            f'<text class="{cls}" x="{x + CELL / 2:g}" y="{y + CELL * 0.78:g}" font-size="{size}" '
            f'text-anchor="middle">{escape(glyph)}</text>'
        )
    return parts


def grid_svg(puzzle: Puzzle, solution: bool = False) -> str:
    """The grid as an SVG document (numbers, and the letters of the key with ``solution``)."""
    view = grid_view(puzzle, solution)
    width, height = view.size
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONTS}" class="crossword">'
    )
    return "\n".join([head, *_shapes(view), *_text(view, solution), "</svg>"]) + "\n"


def grid_html(view: GridView, cell_mm: float, place: str = "") -> str:
    """The grid for the page, ``cell_mm`` millimetres a cell: the SVG picture without text, and
    the numbers and letters as HTML text laid over it."""
    unit = cell_mm / CELL  # millimetres per user unit
    width, height = view.size
    parts = [
        f'<div class="grid" dir="ltr" style="{place};width:{width * unit:.2f}mm;height:{height * unit:.2f}mm">',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * unit:.2f}mm" height="{height * unit:.2f}mm" '
        f'viewBox="0 0 {width} {height}">',
        *_shapes(view),
        "</svg>",
    ]
    number_pt = round(min(7.5, max(4.5, cell_mm * 0.85)), 1)
    for position, number in sorted(view.numbers.items()):
        x, y = view.origin(position)
        side = "right" if view.rtl else "left"
        parts.append(
            f'<span class="n" style="left:{x * unit + 0.35:.2f}mm;top:{y * unit + 0.25:.2f}mm;'
            f'width:{cell_mm - 0.7:.2f}mm;font-size:{number_pt}pt;text-align:{side}">{escape(number)}</span>'
        )
    for position, glyph in sorted(view.glyphs.items()):
        x, y = view.origin(position)
        size = cell_mm * 1.75 / max(1.0, len(glyph) / 1.6)
        parts.append(
            f'<span class="l" style="left:{x * unit:.2f}mm;top:{y * unit + cell_mm * 0.12:.2f}mm;'
            f'width:{cell_mm:.2f}mm;line-height:{cell_mm * 0.88:.2f}mm;font-size:{size:.1f}pt">{escape(glyph)}</span>'
        )
    parts.append("</div>")
    return "\n".join(parts)
