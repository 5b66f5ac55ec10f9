"""Printable puzzles: SVG grid, HTML page, PDF and PNG.

The SVG is the grid alone (:mod:`csp_crossword.printing.grid_drawing`: blocks, circles, shading, bars,
numbers; voids and a freeform board's unused cells are nothing, and the grid is cropped to the
cells the puzzle uses). The HTML page is what is printed (:mod:`csp_crossword.printing.page_layout`): on
Letter or A4, the title, the grid at the top right and the clue lists in narrow columns beside and
below it, as a newspaper prints them, on one page when the clues fit at 7.5 pt or more; with
``key`` a last page with the filled grid. The PDF is that page laid out by WeasyPrint (Pango and
HarfBuzz shape Arabic and Bangla text with any installed font that has the glyphs, such as
Debian's fonts-noto-core); the PNG is one of its pages drawn by pypdfium2
(:func:`render_pages`: all of them).

>>> from csp_crossword.formats import Puzzle
>>> from csp_crossword.core.grid import parse_grid
>>> svg = grid_svg(Puzzle(parse_grid("..#\\n...")))
>>> svg.count('class="number"')
3
"""

from __future__ import annotations

import os
from typing import Any

from ..core.errors import InputError
from ..formats import Puzzle
from . import BINARY_FORMATS, EXTENSION_FORMATS, FORMATS
from .grid_drawing import CELL, FONTS, grid_svg, grid_view
from .page_layout import PAGE_SIZES, has_clues, listed_entries, page_document

#: Paper sizes ``page`` accepts.
PAGES = tuple(PAGE_SIZES)
#: Pixels per PDF point for PNG output (2: 144 dpi).
PNG_SCALE = 2.0
#: Territories whose paper is Letter (glibc's LC_PAPER); everywhere else prints on A4.
LETTER_TERRITORIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "CR", "GT", "NI", "PA", "PR", "SV", "VE", "DO"})
#: Millimetres kept free at the foot of every clue column, tried in turn until the laid-out
#: document has the pages the plan counted.
SLACKS = (1.0, 4.0, 12.0)

__all__ = [
    "BINARY_FORMATS",
    "CELL",
    "EXTENSION_FORMATS",
    "FONTS",
    "FORMATS",
    "PAGES",
    "clue_warnings",
    "default_page",
    "format_for",
    "grid_svg",
    "grid_view",
    "page_html",
    "page_pdf",
    "page_paths",
    "page_png",
    "pdf_document",
    "render",
    "render_pages",
]


def default_page(environ: dict[str, str] | None = None) -> str:
    """The paper of the user's locale: ``PAPERSIZE`` when set (libpaper), else the territory of
    ``LC_ALL``, ``LC_PAPER`` or ``LANG`` (in that order): Letter in the Americas' Letter countries
    and the Philippines, A4 elsewhere, Letter when the locale names no territory (C, POSIX)."""
    env = os.environ if environ is None else environ
    paper = env.get("PAPERSIZE", "").strip().lower()
    if paper in PAGE_SIZES:
        return paper
    for name in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(name, "")
        if value:
            language = value.split(".", 1)[0].split("@", 1)[0]
            if "_" not in language:
                return "letter"
            return "letter" if language.rsplit("_", 1)[1].upper() in LETTER_TERRITORIES else "a4"
    return "letter"


def _page(page: str | None) -> str:
    chosen = default_page() if page is None else page.lower()
    if chosen not in PAGE_SIZES:
        raise InputError(f"unknown page size {page!r}: use one of {', '.join(PAGE_SIZES)}")
    return chosen


def clue_warnings(puzzle: Puzzle) -> list[str]:
    """What a printed page of ``puzzle`` lacks: its clues, all or some."""
    if not has_clues(puzzle):
        return ["no clues: the page has the grid only"]
    entries = listed_entries(puzzle)
    missing = [slot.id for slot, _, clue in entries if not clue]
    if not missing:
        return []
    shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
    return [f"{len(missing)} of {len(entries)} entries have no clue ({shown}): the page has a blank line for each"]


def page_html(puzzle: Puzzle, solution: bool = False, *, page: str | None = None, key: bool = False) -> str:
    """The printable page as standalone HTML (the PDF is this page laid out)."""
    return page_document(puzzle, solution, _page(page), key)[0]


def _weasyprint() -> Any:
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: the Pango libraries are missing
        raise InputError(
            f"PDF output needs WeasyPrint and the Pango libraries ({error}); pip install 'csp-crossword[render]'"
        ) from None
    return weasyprint


def pdf_document(
    puzzle: Puzzle, solution: bool = False, *, page: str | None = None, key: bool = False
) -> tuple[bytes, int]:
    """The printable page as PDF, and its number of pages."""
    weasyprint = _weasyprint()
    if key:
        grid_view(puzzle, True)  # InputError when there is no solution to show
    chosen = _page(page)
    document = None
    for slack in SLACKS:
        html, pages = page_document(puzzle, solution, chosen, key, slack)
        document = weasyprint.HTML(string=html).render()
        if len(document.pages) <= pages:
            break
    assert document is not None
    pdf: bytes = document.write_pdf()
    return pdf, len(document.pages)


def page_pdf(puzzle: Puzzle, solution: bool = False, *, page: str | None = None, key: bool = False) -> bytes:
    """The printable page as PDF (WeasyPrint)."""
    return pdf_document(puzzle, solution, page=page, key=key)[0]


def render_pages(
    puzzle: Puzzle, solution: bool = False, *, page: str | None = None, key: bool = False, scale: float = PNG_SCALE
) -> list[bytes]:
    """Every page of the PDF as PNG (pypdfium2), ``scale`` pixels a point."""
    import io

    try:
        import pypdfium2
    except ImportError as error:
        raise InputError(f"PNG output needs pypdfium2 ({error}); pip install 'csp-crossword[render]'") from None
    document = pypdfium2.PdfDocument(page_pdf(puzzle, solution, page=page, key=key))
    images = []
    try:
        for index in range(len(document)):
            out = io.BytesIO()
            document[index].render(scale=scale).to_pil().save(out, format="PNG")
            images.append(out.getvalue())
    finally:
        document.close()
    return images


def page_png(puzzle: Puzzle, solution: bool = False, *, page: str | None = None, key: bool = False) -> bytes:
    """The PDF's first page as PNG (:func:`render_pages` has them all)."""
    return render_pages(puzzle, solution, page=page, key=key)[0]


def render(
    puzzle: Puzzle, fmt: str, solution: bool = False, *, page: str | None = None, key: bool = False
) -> str | bytes:
    """The puzzle in ``fmt`` (one of :data:`FORMATS`): the SVG grid, or the page on ``page`` paper
    (``letter`` or ``a4``; default :func:`default_page`), with ``key`` an answer key page after it.
    PNG is the first page; ``play`` the page that plays the puzzle (:mod:`.playable`)."""
    if fmt == "svg":
        return grid_svg(puzzle, solution)
    if fmt == "html":
        return page_html(puzzle, solution, page=page, key=key)
    if fmt == "pdf":
        return page_pdf(puzzle, solution, page=page, key=key)
    if fmt == "png":
        return page_png(puzzle, solution, page=page, key=key)
    if fmt == "play":  # a page to solve on, not to print: no paper, no key
        from .playable import playable_html

        return playable_html(puzzle)
    raise InputError(f"unknown render format {fmt!r}: use one of {', '.join(FORMATS)}")


def format_for(path: str | None, default: str = "svg") -> str:
    """The render format an output file name asks for (``default`` when it names none)."""
    if path:
        ext = ("." + path.rsplit(".", 1)[-1].lower()) if "." in path else ""
        if ext in EXTENSION_FORMATS:
            return EXTENSION_FORMATS[ext]
    return default


def page_paths(path: str, count: int) -> list[str]:
    """The files of ``count`` pages written to ``path``: itself for one, else ``name-1.png``, ..."""
    if count == 1:
        return [path]
    stem, ext = os.path.splitext(path)
    return [f"{stem}-{n}{ext}" for n in range(1, count + 1)]
