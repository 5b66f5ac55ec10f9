"""Printing puzzles: grid drawings (SVG), page layout (HTML) and rendering to PDF and PNG; a
playable page (:mod:`.playable`)."""

#: What ``render --format`` accepts (``play``: a page that plays the puzzle, :mod:`.playable`).
FORMATS = ("svg", "html", "pdf", "png", "play")
#: Output file extension -> format.
EXTENSION_FORMATS = {".svg": "svg", ".html": "html", ".htm": "html", ".pdf": "pdf", ".png": "png"}
#: Formats written as bytes (they need an output file).
BINARY_FORMATS = ("pdf", "png")
