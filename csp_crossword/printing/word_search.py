"""A printable word search: the square of letters and the words to find, as HTML and PDF.

The square is a freeform board whose empty cells hold random letters (see
:func:`csp_crossword.layout.sheets.word_search`); the words are the board's entries. The page has
the title, a line saying how many words hide in the square, the square (as large as fits, up to
:data:`MAX_CELL` millimetres a cell) and the words in columns below it. The answer key shades
the cells of the hidden words. The PDF is the page laid out by WeasyPrint, as the crossword's is.

>>> html = word_search_html([["C", "A", "T"], ["X", "Q", "Z"]], ["CAT"], title="Pets")
>>> "Find these 1 word" in html, html.count('class="l"'), "CAT" in html
(True, 6, True)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from ..core.errors import InputError
from .grid_drawing import FONTS
from .page_layout import MARGIN, PAGE_SIZES

#: The largest cell of the square, in millimetres; the square shrinks to fit the page.
MAX_CELL = 11.0
#: Millimetres of the page kept for the title, the line above the square and the word list.
HEADER_ROOM, WORDS_ROOM = 24.0, 60.0
#: Columns of the word list.
WORD_COLUMNS = 4
#: The shade of a hidden word's cell on the answer key.
KEY_SHADE = "#c4c4c4"

Position = tuple[int, int]


def _check(letters: Sequence[Sequence[str]]) -> None:
    if not letters or not letters[0]:
        raise InputError("a word search needs at least one letter", "wordsearch")
    width = len(letters[0])
    for r, row in enumerate(letters):
        if len(row) != width:
            message = f"every row of the word search has {width} letters; row {r + 1} has {len(row)}"
            raise InputError(message, "wordsearch")
        for c, glyph in enumerate(row):
            if not glyph or glyph != glyph.strip():
                raise InputError(f"word search cell ({r + 1}, {c + 1}) holds {glyph!r}, not a letter", "wordsearch")


def word_search_html(
    letters: Sequence[Sequence[str]],
    words: Sequence[str],
    *,
    title: str = "",
    key: Collection[Position] = (),
    rtl: bool = False,
    page: str = "letter",
) -> str:
    """The word-search page as standalone HTML: ``letters`` rows of glyphs, ``words`` to find;
    ``key``: the cells to shade (an answer key); ``page``: ``letter`` or ``a4``."""
    _check(letters)
    if page not in PAGE_SIZES:
        raise InputError(f"unknown page size {page!r}: use one of {', '.join(PAGE_SIZES)}")
    width_mm, height_mm = PAGE_SIZES[page]
    rows, cols = len(letters), len(letters[0])
    room_w = width_mm - 2 * MARGIN
    room_h = height_mm - 2 * MARGIN - HEADER_ROOM - WORDS_ROOM
    cell = min(MAX_CELL, room_w / cols, room_h / rows)
    marked = set(key)
    square = []
    for r, row in enumerate(letters):
        cells = "".join(
            f'<td class="l{" k" if (r, c) in marked else ""}">{escape(glyph)}</td>' for c, glyph in enumerate(row)
        )
        square.append(f"<tr>{cells}</tr>")
    name = title or "Word search"
    heading = escape(name) + (" — answer key" if key else "")
    count = len(words)
    intro = f"Find these {count} word{'s' if count != 1 else ''} in the square, reading across or down."
    listed = "".join(f"<li>{escape(word)}</li>" for word in sorted(words))
    body = (
        f'<h1>{heading}</h1><p class="intro">{escape(intro)}</p>'
        f'<table class="square"><tbody>{"".join(square)}</tbody></table>'
        f'<ul class="words">{listed}</ul>'
    )
    style = f"""@page {{ size: {width_mm}mm {height_mm}mm; margin: {MARGIN}mm; }}
html {{ font-family: {FONTS}; color: #000; }}
body {{ margin: 0; }}
h1 {{ font-size: 16pt; margin: 0 0 1.5mm 0; }}
.intro {{ font-size: 10pt; margin: 0 0 4mm 0; }}
.square {{ border-collapse: collapse; margin: 0 auto; }}
.square td {{ width: {cell:.2f}mm; height: {cell:.2f}mm; padding: 0; text-align: center; vertical-align: middle;
  font-size: {cell * 0.55 * 72 / 25.4:.1f}pt; font-weight: 600; line-height: 1; }}
.square td.k {{ background: {KEY_SHADE}; }}
.words {{ columns: {WORD_COLUMNS}; list-style: none; padding: 0; margin: 6mm 0 0 0; font-size: 11pt; }}
.words li {{ padding: 0.6mm 0; break-inside: avoid; }}
"""
    direction = "rtl" if rtl else "ltr"
    return (
        f'<!DOCTYPE html>\n<html dir="{direction}">\n<head>\n<meta charset="utf-8">\n<title>{escape(name)}</title>\n'
        f"<style>\n{style}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def word_search_pdf(
    letters: Sequence[Sequence[str]],
    words: Sequence[str],
    *,
    title: str = "",
    key: Collection[Position] = (),
    rtl: bool = False,
    page: str = "letter",
) -> bytes:
    """The word-search page as PDF (WeasyPrint); the arguments as :func:`word_search_html`'s."""
    from .rendering import _weasyprint

    html = word_search_html(letters, words, title=title, key=key, rtl=rtl, page=page)
    pdf: bytes = _weasyprint().HTML(string=html).write_pdf()
    return pdf


__all__ = ["word_search_html", "word_search_pdf"]
