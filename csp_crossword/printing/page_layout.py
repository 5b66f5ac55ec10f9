"""The printed page: clue columns beside and below the grid, as a newspaper lays a crossword out.

The page is planned before it is laid out. The page's width is cut into narrow columns (four on
Letter and A4); the grid sits at the top right (top left in right-to-left puzzles) in the width of
some of them, the first clue columns stand beside it, and the rest run below it across the page.
Every clue is measured once per font size: WeasyPrint lays the clues out in one column of that
width and reports where each begins and ends (its anchors). Then the clues are packed into the
columns in order, a heading never last in its column, for each font size (9 pt down to 7.5 pt)
and each number of columns beside the grid; the plan that fits one page with the largest font and
grid wins, a grid of at least 6 mm cells before a larger font. When no plan fits one page, the
clues go on at 9 pt in full columns on the pages after the first. The last columns are balanced.
Without WeasyPrint (an HTML page only) the heights are estimated from the text's length.

Grid-only pages (a puzzle without clues, the answer key of ``key``) centre the grid.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from ..core.grid import Direction, Slot
from ..formats import Puzzle
from .grid_drawing import CELL, FONTS, GridView, grid_html, grid_view

#: Paper sizes in millimetres (width, height).
PAGE_SIZES = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
#: Page margin and the gap between columns, in millimetres.
MARGIN, GAP = 12.0, 4.0
#: The narrowest clue column, in millimetres: the page has as many columns as fit.
MIN_COLUMN = 42.0
#: Clue font sizes tried, in points, largest first.
FONT_SIZES = (9.0, 8.5, 8.0, 7.5)
#: Cell sides in millimetres: the largest drawn, the largest worth more room, the smallest a
#: plan should have, the smallest allowed on one page.
MAX_CELL, COMFORT_CELL, GOOD_CELL, MIN_CELL = 10.0, 8.0, 6.0, 4.8
#: The largest cell of a page with the grid alone (no clues, the answer key), in millimetres.
SHEET_CELL = 12.0
#: Below the grid when no column stands beside it, at least this much room for clues (mm).
BELOW_MIN = 40.0
#: Millimetres per CSS pixel.
PX = 25.4 / 96


@dataclass
class Item:
    """One block of a clue column: a heading or a clue."""

    html: str
    heading: bool = False
    length: int = 0  # characters, for estimates without WeasyPrint


@dataclass
class Plan:
    """Where everything goes: font, cell size, columns beside the grid, the clues of each column
    (page 1: ``beside`` columns, then ``per_page`` below the grid; then ``per_page`` a page)."""

    font: float
    cell: float
    beside: int
    per_page: int
    column: float
    columns: list[list[int]]
    pages: int


def has_clues(puzzle: Puzzle) -> bool:
    return any(puzzle.clues.get(slot.id) for slot in puzzle.grid.slots) or any(g.clues for g in puzzle.extra_clues)


def listed_entries(puzzle: Puzzle) -> list[tuple[Slot, str | None, str]]:
    """The entries the Across and Down lists print: none when no entry has a clue (a puzzle whose
    clues are all in other groups, such as Rows and Bands), else every entry but those without a
    clue the file does not number (an empty label)."""
    if not any(puzzle.clues.get(slot.id) for slot in puzzle.grid.slots):
        return []
    return [(slot, answer, clue) for slot, answer, clue in puzzle.entries() if clue or puzzle.label(slot)]


#: A clue that already ends with its enumeration: "(3)", "(5,2)", "(4-6)".
ENUMERATION = re.compile(r"\(\s*\d+(?:\s*[-,\u2013 ]\s*\d+)*\s*\)\s*$")


def _enumerated(clue: str, length: int) -> bool:
    """Whether ``clue`` ends with an enumeration of an entry of ``length`` cells (the numbers add
    up to it, so "Magna Carta year (1215)" is not one)."""
    match = ENUMERATION.search(clue)
    return match is not None and sum(int(n) for n in re.findall(r"\d+", match.group())) == length


def _clue(label: str, body: str) -> str:
    return f'<p class="clue"><b class="num">{escape(label)}</b>{body}</p>'


def clue_items(puzzle: Puzzle, solution: bool) -> list[Item]:
    """The headings and clues in print order: Across, Down, then the file's other groups."""
    if not has_clues(puzzle):
        return []
    items = []
    for direction, heading in ((Direction.ACROSS, "Across"), (Direction.DOWN, "Down")):
        entries = [entry for entry in listed_entries(puzzle) if entry[0].direction == direction]
        if entries:
            items.append(Item(f"<h2>{heading}</h2>", True, len(heading)))
        for slot, answer, clue in entries:
            text = escape(clue) if clue else '<span class="blank">' + "_" * 10 + "</span>"
            extra = f" <b>{escape(answer)}</b>" if solution and answer else ""
            # the file's own enumeration, "(5,2)", is not repeated
            enumeration = "" if _enumerated(clue, slot.length) else f"({slot.length})"
            length = len(clue or "_" * 10) + len(puzzle.label(slot)) + 5 + len(extra)
            # the length and answer in one span: WeasyPrint breaks a line after its first word
            # when a bold answer ends a paragraph without it
            tail = f' <span class="tail">{enumeration}{extra}</span>' if enumeration or extra else ""
            items.append(Item(_clue(puzzle.label(slot), f"{text}{tail}"), False, length))
    for group in puzzle.extra_clues:
        if group.clues:
            items.append(Item(f"<h2>{escape(group.heading)}</h2>", True, len(group.heading)))
        for label, text in group.clues:
            items.append(Item(_clue(label, escape(text)), False, len(label) + len(text)))
    return items


def header_html(puzzle: Puzzle, solution: bool) -> str:
    title = escape(puzzle.title or ("Solution" if solution else "Crossword"))
    if solution and puzzle.title:
        title += " — solution"
    meta = " · ".join(escape(x) for x in (puzzle.author, puzzle.copyright) if x)
    notes = f'<p class="notes">{escape(puzzle.notes)}</p>' if puzzle.notes and not solution else ""
    return f'<h1>{title}</h1><p class="meta">{meta}</p>{notes}'


def style(size: tuple[float, float], font: float) -> str:
    """The page's CSS: the clue font ``font`` points, the paper ``size`` millimetres."""
    return f"""@page {{ size: {size[0]}mm {size[1]}mm; margin: {MARGIN}mm; }}
html {{ font-family: {FONTS}; color: #000; }}
body {{ margin: 0; font-size: {font}pt; line-height: 1.22; }}
.sheet + .sheet {{ break-before: page; }}
header {{ padding-bottom: 3mm; }}
h1 {{ font-size: 14pt; line-height: 1.2; margin: 0; }}
.meta {{ font-size: 8pt; margin: 0.6mm 0 0 0; }}
.meta:empty {{ display: none; }}
.notes {{ font-size: 8.5pt; margin: 1mm 0 0 0; }}
.row::after {{ content: ""; display: block; clear: both; }}
.below {{ margin-top: {GAP}mm; }}
.col, .grid-area {{ float: left; }}
html[dir=rtl] .col, html[dir=rtl] .grid-area {{ float: right; }}
.item {{ break-inside: avoid; }}
h2 {{ font-size: {font + 1.5}pt; line-height: 1.2; margin: 0; padding: 0.6mm 0 0.8mm 0; }}
.clue {{ margin: 0; padding: 0 0 0.8mm 2.1em; text-indent: -2.1em; }}
html[dir=rtl] .clue {{ padding: 0 2.1em 0.8mm 0; }}
.clue .num {{ display: inline-block; min-width: 2.1em; text-indent: 0; }}
.grid {{ position: relative; }}
.grid svg {{ position: absolute; left: 0; top: 0; }}
.grid span {{ position: absolute; display: block; line-height: 1; }}
.grid span.l {{ text-align: center; }}
.key .grid {{ margin: 6mm auto 0 auto; }}
"""


def _document(puzzle: Puzzle, size: tuple[float, float], font: float, body: str) -> str:
    direction = "rtl" if puzzle.grid.rtl else "ltr"
    title = escape(puzzle.title or "Crossword")
    return (
        f'<!DOCTYPE html>\n<html dir="{direction}">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n'
        f"<style>\n{style(size, font)}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def measure(
    puzzle: Puzzle, items: list[Item], header: str, width: float, column: float, font: float
) -> tuple[float, list[float]]:
    """The height in millimetres of the header at the page's ``width`` and of every item in a
    column ``column`` millimetres wide, at ``font`` points."""
    try:
        import weasyprint
    except (ImportError, OSError):  # no WeasyPrint or no Pango: estimate from the lengths
        line = font * 1.22 * 25.4 / 72
        per_line = max(8.0, (column - 7) / (font * 0.5 * 25.4 / 72))
        heights = [(line * 1.3 if it.heading else line * math.ceil(it.length / per_line)) + 0.8 for it in items]
        return 12.0, heights
    body = f'<header id="m-head" style="width:{width}mm">{header}</header><div style="width:{column}mm">'
    body += "".join(f'<div class="item" id="m{i}">{item.html}</div>' for i, item in enumerate(items)) + "</div>"
    page_height = 3000.0
    html = _document(puzzle, (width, page_height), font, body).replace(f"margin: {MARGIN}mm;", "margin: 0;", 1)
    boxes: dict[str, float] = {}
    for page in weasyprint.HTML(string=html).render().pages:
        for name, (_, y0, _, y1) in page.anchors.items():
            boxes[name] = (y1 - y0) * PX
    return boxes.get("m-head", 12.0), [boxes.get(f"m{i}", 5.0) for i in range(len(items))]


def pack(heights: list[float], sticky: list[bool], caps: list[float], full: float) -> list[list[int]] | None:
    """Items in order into columns of the heights ``caps`` (None when they do not all fit). An
    item too tall for a full column (``full``) gets a full column of its own."""
    columns: list[list[int]] = [[] for _ in caps]
    k, used = 0, 0.0
    for i, height in enumerate(heights):
        need = height + (heights[i + 1] if sticky[i] and i + 1 < len(heights) else 0.0)
        while k < len(caps) and used + need > caps[k] and (columns[k] or caps[k] < full):
            k, used = k + 1, 0.0
        if k == len(caps):
            return None
        columns[k].append(i)
        used += height
    return columns


@dataclass
class _Frame:
    """The columns of one plan: ``beside`` columns of height ``grid`` beside the grid, then
    ``per_page`` columns of height ``below`` under it, then ``per_page`` of ``full`` a page."""

    beside: int
    grid: float
    below: float
    per_page: int
    full: float

    def caps(self, pages: int, *, beside: float | None = None, last: float | None = None) -> list[float]:
        """The column heights of ``pages`` pages; ``beside``, ``last``: other heights for the
        columns beside the grid, for the last page's columns."""
        caps = [self.grid if beside is None else beside] * self.beside
        caps += [self.below] * self.per_page + [self.full] * self.per_page * (pages - 1)
        if last is not None:
            caps[len(caps) - self.per_page :] = [last] * self.per_page
        return caps


def _shortest(fits: Callable[[float], object], high: float) -> float:
    """The least height in [0, high] for which ``fits(height)`` holds (it holds at ``high``)."""
    low = 0.0
    for _ in range(16):
        middle = (low + high) / 2
        if fits(middle):
            high = middle
        else:
            low = middle
    return high


def plan(
    puzzle: Puzzle, view: GridView, items: list[Item], header: str, size: tuple[float, float], slack: float
) -> Plan:
    """The layout of the clue pages (see the module's description); ``slack`` millimetres are
    kept free in every column, for what the measurement misses."""
    width, height = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN
    per_page = max(1, int((width + GAP) // (MIN_COLUMN + GAP)))
    column = (width - (per_page - 1) * GAP) / per_page
    units_w, units_h = view.size
    sticky = [item.heading for item in items]
    full = height - slack

    def frame(beside: int, header: float) -> tuple[float, _Frame]:
        room = height - header - (GAP + BELOW_MIN if beside == 0 else 0.0)
        cell = min(MAX_CELL, (width - beside * (column + GAP)) * CELL / units_w, room * CELL / units_h)
        grid = units_h * cell / CELL
        return cell, _Frame(beside, grid - slack, height - header - grid - GAP - slack, per_page, full)

    options: list[tuple[tuple[float, ...], float, int]] = []  # (score, font, beside)
    measured: dict[float, tuple[float, list[float]]] = {}
    for font in FONT_SIZES:
        measured[font] = measure(puzzle, items, header, width, column, font)
        header_mm, heights = measured[font]
        for beside in range(per_page):
            cell, shape = frame(beside, header_mm)
            if cell >= MIN_CELL and pack(heights, sticky, shape.caps(1), full) is not None:
                options.append(((1, cell >= GOOD_CELL, font, min(cell, COMFORT_CELL), beside), font, beside))
        if options and max(options)[0][1]:
            break
    if not options:  # several pages at the largest font: the fewest pages, then the largest grid
        font = FONT_SIZES[0]
        header_mm, heights = measured[font]
        for beside in range(per_page):
            cell, shape = frame(beside, header_mm)
            pages = 2
            while pages <= len(items) and pack(heights, sticky, shape.caps(pages), full) is None:
                pages += 1
            options.append(((-pages, cell >= GOOD_CELL, min(cell, COMFORT_CELL), beside), font, beside))
    score, font, beside = max(options)
    pages = max(1, int(-score[0]))
    header_mm, heights = measured[font]
    cell, shape = frame(beside, header_mm)
    if pages > 1:  # balance the last page's columns
        short = _shortest(lambda h: pack(heights, sticky, shape.caps(pages, last=h), full), full)
        caps = shape.caps(pages, last=short)
    elif beside and pack(heights, sticky, shape.caps(1, last=0.0), full):  # all beside the grid
        short = _shortest(lambda h: pack(heights, sticky, shape.caps(1, beside=h, last=0.0), full), shape.grid)
        caps = shape.caps(1, beside=short, last=0.0)
    else:
        short = _shortest(lambda h: pack(heights, sticky, shape.caps(1, last=h), full), max(shape.below, 0.0))
        caps = shape.caps(1, last=short)
    columns = pack(heights, sticky, caps, full) or pack(heights, sticky, shape.caps(len(items) + 1), full)
    if columns is None:  # not reached: a column of the full height takes any item
        columns = [list(range(len(items)))]
    return Plan(font, cell, beside, per_page, column, columns, pages)


def _row(columns: list[str], width: float, rtl: bool, extra: str = "", tail: str = "") -> str:
    """Clue columns side by side (floats; a hair narrower than planned, so rounding never pushes
    the last one onto a line of its own), then ``tail``."""
    side = "right" if rtl else "left"
    cells = []
    for k, html in enumerate(columns):
        margin = f";margin-{side}:{GAP}mm" if k else ""
        cells.append(f'<div class="col" style="width:{width - 0.05:.2f}mm{margin}">{html}</div>')
    return f'<div class="row{extra}">' + "".join(cells) + tail + "</div>"


def clue_sheets(puzzle: Puzzle, solution: bool, size: tuple[float, float], slack: float) -> tuple[str, float, int]:
    """The puzzle's pages: the HTML, the clue font and the number of pages."""
    view = grid_view(puzzle, solution)
    items = clue_items(puzzle, solution)
    if not items:
        return grid_sheet(puzzle, view, header_html(puzzle, solution), size), FONT_SIZES[0], 1
    layout = plan(puzzle, view, items, header_html(puzzle, solution), size, slack)
    rtl = puzzle.grid.rtl
    width = size[0] - 2 * MARGIN
    texts = ["".join(f'<div class="item">{items[i].html}</div>' for i in col) for col in layout.columns]
    region = width - layout.beside * (layout.column + GAP)
    if layout.beside:
        place = f"margin-{'right' if rtl else 'left'}:auto"
    else:
        place = "margin:0 auto"
    grid = grid_html(view, layout.cell, place)
    area_margin = f"margin-{'right' if rtl else 'left'}:{GAP}mm;" if layout.beside else ""
    area = f'<div class="grid-area" style="{area_margin}width:{region - 0.2:.2f}mm">{grid}</div>'
    top = _row(texts[: layout.beside], layout.column, rtl, tail=area)
    sheets = [f'<section class="sheet"><header>{header_html(puzzle, solution)}</header>{top}']
    rest = texts[layout.beside :]
    for page in range(layout.pages):
        chunk = rest[page * layout.per_page : (page + 1) * layout.per_page]
        row = _row(chunk, layout.column, rtl, " below") if any(chunk) else ""
        if page == 0:
            sheets[0] += row + "</section>"
        else:
            sheets.append(f'<section class="sheet">{row}</section>')
    return "\n".join(sheets), layout.font, layout.pages


def grid_sheet(puzzle: Puzzle, view: GridView, header: str, size: tuple[float, float], key: bool = False) -> str:
    """A page with the header and the grid alone, as large as fits, centred."""
    width, height = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - 30
    units_w, units_h = view.size
    cell = min(SHEET_CELL, width * CELL / units_w, height * CELL / units_h)
    kind = "sheet key" if key else "sheet key grid-only"
    return f'<section class="{kind}"><header>{header}</header>{grid_html(view, cell)}</section>'


def page_document(puzzle: Puzzle, solution: bool, page: str, key: bool, slack: float = 1.0) -> tuple[str, int]:
    """The whole printable document as HTML, and the number of pages it should have."""
    size = PAGE_SIZES[page]
    body, font, pages = clue_sheets(puzzle, solution, size, slack)
    if key:
        answer = grid_view(puzzle, True)
        title = escape(puzzle.title) + " — solution" if puzzle.title else "Solution"
        body += "\n" + grid_sheet(puzzle, answer, f"<h1>{title}</h1>", size, key=True)
        pages += 1
    return _document(puzzle, size, font, body), pages
