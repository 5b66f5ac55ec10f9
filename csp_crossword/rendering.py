"""Printable puzzles: SVG grid, HTML page, PDF and PNG.

The SVG is written here: one square per cell, black squares for blocks (nothing for the empty
cells of a freeform board), clue numbers as ``<text class="number">`` in the first cell of each
entry (top left, or top right in right-to-left grids, which are numbered from the top right), and
with ``solution`` the answer glyphs as ``<text class="letter">``. The HTML page puts the grid (as
a table, whose text WeasyPrint shapes, unlike its SVG text) above the Across and Down clue
lists, as a newspaper prints them. The PDF is that page laid out by
WeasyPrint (Pango and HarfBuzz shape Arabic and Bangla text with any installed font that has the
glyphs, such as Debian's fonts-noto-core); the PNG is the PDF's first page drawn by pypdfium2.

>>> from csp_crossword.formats import Puzzle
>>> from csp_crossword.grid import parse_grid
>>> svg = grid_svg(Puzzle(parse_grid("..#\\n...")))
>>> svg.count('class="number"')
3
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from .errors import InputError
from .formats import Puzzle
from .grid import Direction

#: Side of one cell in SVG user units (pixels at 96 dpi).
CELL = 36
#: Font stack: Latin first, then scripts the Noto fonts cover; Pango falls back per glyph anyway.
FONTS = "'Noto Sans', 'Noto Sans Bengali', 'Noto Naskh Arabic', 'Noto Sans Arabic', 'DejaVu Sans', sans-serif"
#: What ``render --format`` accepts.
FORMATS = ("svg", "html", "pdf", "png")
#: Output file extension -> format.
EXTENSION_FORMATS = {".svg": "svg", ".html": "html", ".htm": "html", ".pdf": "pdf", ".png": "png"}
#: Formats written as bytes (they need an output file).
BINARY_FORMATS = ("pdf", "png")
#: Side of one cell on the printed page, in millimetres (smaller when the grid is wide).
PAGE_CELL_MM = 9.0
#: Pixels per PDF point for PNG output (2: 144 dpi).
PNG_SCALE = 2.0


def grid_svg(puzzle: Puzzle, solution: bool = False) -> str:
    """The grid as an SVG document."""
    grid = puzzle.grid
    if solution and puzzle.solution is None:
        raise InputError("this puzzle has no solution to show")
    numbers = {slot.start: slot.number for slot in grid.slots}
    letters = puzzle.solution if solution and puzzle.solution is not None else grid.cells
    width, height = grid.cols * CELL + 2, grid.rows * CELL + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONTS}" class="crossword">',
    ]
    for r in range(grid.rows):
        for c in range(grid.cols):
            x, y = 1 + c * CELL, 1 + r * CELL
            if grid.cells[r][c] is None:
                if not puzzle.freeform:
                    parts.append(
                        f'<rect class="block" x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                        'fill="#000" stroke="#000"/>'
                    )
                continue
            parts.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#fff" stroke="#000"/>'
            )
            number = numbers.get((r, c))
            if number is not None:
                nx, anchor = (x + CELL - 2, "end") if grid.rtl else (x + 2, "start")
                parts.append(
                    f'<text class="number" x="{nx}" y="{y + 10}" font-size="9" text-anchor="{anchor}" '
                    f'data-row="{r}" data-col="{c}">{number}</text>'
                )
            glyph = letters[r][c]
            if glyph:
                size = 20 if len(glyph) <= 2 else max(8, int(40 / len(glyph)))
                parts.append(
                    f'<text class="letter" x="{x + CELL / 2:g}" y="{y + CELL * 0.78:g}" font-size="{size}" '
                    f'text-anchor="middle">{escape(glyph)}</text>'
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def grid_table(puzzle: Puzzle, solution: bool = False) -> str:
    """The grid as an HTML table, for the page: unlike SVG text in WeasyPrint, table text is
    shaped, so Bangla vowel signs and conjuncts print joined."""
    grid = puzzle.grid
    numbers = {slot.start: slot.number for slot in grid.slots}
    letters = puzzle.solution if solution and puzzle.solution is not None else grid.cells
    rows = []
    for r in range(grid.rows):
        cells = []
        for c in range(grid.cols):
            if grid.cells[r][c] is None:
                cells.append('<td class="none"></td>' if puzzle.freeform else '<td class="block"></td>')
                continue
            number = numbers.get((r, c))
            mark = f'<span class="number">{number if number is not None else ""}</span>'
            glyph = letters[r][c]
            cells.append(f'<td class="cell">{mark}<span class="letter">{escape(glyph) if glyph else ""}</span></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    # dir="ltr": the grid is stored in page order even when its entries read right to left
    return '<table class="grid" dir="ltr">\n' + "\n".join(rows) + "\n</table>"


def _clue_list(puzzle: Puzzle, direction: Direction, solution: bool) -> str:
    items = []
    for slot, answer, clue in puzzle.entries():
        if slot.direction != direction:
            continue
        text = escape(clue) if clue else "_" * 10
        extra = f" <b>{escape(answer)}</b>" if solution and answer else ""
        # explicit numbers: clue numbers skip, and not every renderer honours <li value>
        items.append(
            f'<li><span class="number">{slot.number}</span> <span class="clue">{text}</span> '
            f"({slot.length}){extra}</li>"
        )
    return "\n".join(items)


def page_html(puzzle: Puzzle, solution: bool = False) -> str:
    """A standalone HTML page: title, grid, and the Across and Down clue lists."""
    direction = "rtl" if puzzle.grid.rtl else "ltr"
    title = escape(puzzle.title or ("Solution" if solution else "Crossword"))
    if solution and puzzle.title:
        title += " — solution"
    meta = " · ".join(escape(x) for x in (puzzle.author, puzzle.copyright) if x)
    cell = min(PAGE_CELL_MM, 180 / max(puzzle.grid.cols, 1))  # the grid fits the page width
    number_pt, letter_pt = round(cell * 0.75, 1), round(cell * 1.6, 1)
    number_mm = round(cell * 0.3, 2)
    number_side = "right" if puzzle.grid.rtl else "left"
    return f"""<!DOCTYPE html>
<html dir="{direction}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
@page {{ size: A4; margin: 14mm; }}
body {{ font-family: {FONTS}; font-size: 10.5pt; color: #000; }}
h1 {{ font-size: 16pt; margin: 0 0 2mm 0; }}
.meta {{ font-size: 9pt; margin-bottom: 4mm; }}
table.grid {{ border-collapse: collapse; }}
table.grid td {{ width: {cell}mm; height: {cell}mm; padding: 0; vertical-align: top; }}
table.grid td.cell {{ border: 0.3mm solid #000; }}
table.grid td.block {{ border: 0.3mm solid #000; background: #000; }}
table.grid .number {{ display: block; height: {number_mm}mm; padding: 0.3mm 0.6mm 0 0.6mm;
  font-size: {number_pt}pt; line-height: 1; text-align: {number_side}; }}
table.grid .letter {{ display: block; text-align: center; font-size: {letter_pt}pt; line-height: 1.2; }}
.clues {{ display: flex; gap: 8mm; margin-top: 5mm; }}
.clues section {{ flex: 1; }}
.clues h2 {{ font-size: 12pt; margin: 0 0 2mm 0; }}
.clues ul {{ margin: 0; padding: 0; list-style: none; }}
.clues li {{ margin-bottom: 1mm; break-inside: avoid; }}
.clues .number {{ display: inline-block; width: 7mm; font-weight: bold; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="meta">{meta}</div>
{grid_table(puzzle, solution)}
<div class="clues">
<section><h2>Across</h2><ul>
{_clue_list(puzzle, Direction.ACROSS, solution)}
</ul></section>
<section><h2>Down</h2><ul>
{_clue_list(puzzle, Direction.DOWN, solution)}
</ul></section>
</div>
</body>
</html>
"""


def page_pdf(puzzle: Puzzle, solution: bool = False) -> bytes:
    """The HTML page as PDF (WeasyPrint)."""
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: the Pango libraries are missing
        raise InputError(
            f"PDF output needs WeasyPrint and the Pango libraries ({error}); pip install 'csp-crossword[render]'"
        ) from None
    pdf: bytes = weasyprint.HTML(string=page_html(puzzle, solution)).write_pdf()
    return pdf


def page_png(puzzle: Puzzle, solution: bool = False) -> bytes:
    """The PDF's first page as PNG (pypdfium2)."""
    import io

    try:
        import pypdfium2
    except ImportError as error:
        raise InputError(f"PNG output needs pypdfium2 ({error}); pip install 'csp-crossword[render]'") from None
    document = pypdfium2.PdfDocument(page_pdf(puzzle, solution))
    try:
        image = document[0].render(scale=PNG_SCALE).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def render(puzzle: Puzzle, fmt: str, solution: bool = False) -> str | bytes:
    """The puzzle in ``fmt`` (one of :data:`FORMATS`)."""
    makers: dict[str, Callable[[Puzzle, bool], str | bytes]] = {
        "svg": grid_svg,
        "html": page_html,
        "pdf": page_pdf,
        "png": page_png,
    }
    if fmt not in makers:
        raise InputError(f"unknown render format {fmt!r}: use one of {', '.join(FORMATS)}")
    return makers[fmt](puzzle, solution)


def format_for(path: str | None, default: str = "svg") -> str:
    """The render format an output file name asks for (``default`` when it names none)."""
    if path:
        ext = ("." + path.rsplit(".", 1)[-1].lower()) if "." in path else ""
        if ext in EXTENSION_FORMATS:
            return EXTENSION_FORMATS[ext]
    return default
