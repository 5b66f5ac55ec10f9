"""Printing puzzles: grid drawings (SVG), page layout (HTML) and rendering to PDF and PNG."""

#: What ``render --format`` accepts.
FORMATS = ("svg", "html", "pdf", "png")
#: Output file extension -> format.
EXTENSION_FORMATS = {".svg": "svg", ".html": "html", ".htm": "html", ".pdf": "pdf", ".png": "png"}
#: Formats written as bytes (they need an output file).
BINARY_FORMATS = ("pdf", "png")
