"""Printing puzzles: grid drawings (SVG), page layout (HTML) and rendering to PDF and PNG."""
