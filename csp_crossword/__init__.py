"""csp-crossword: fill, check, count and generate crossword grids by constraint solving.

The library API (``csp_crossword.api``, documented in docs/api.md) is what every front end calls:

>>> import csp_crossword as cc
>>> result = cc.fill("..\\n..", ["AB", "CD", "AC", "BD"], time_limit=10)
>>> result.status.value, [(e.id, e.answer) for e in result.entries]
('filled', [('1A', 'AB'), ('3A', 'CD'), ('1D', 'AC'), ('2D', 'BD')])
"""

__version__ = "0.1.0"

from .api import (
    FillStream,
    GridFile,
    WrongFillError,
    check,
    count,
    enumerate_fills,
    fill,
    freeform,
    generate,
    load_words,
    open_grid,
    read_grid,
    read_puzzle,
    render,
    write_puzzle,
)
from .result import FillResult, SearchStats, Status

__all__ = [
    "FillResult",
    "FillStream",
    "GridFile",
    "SearchStats",
    "Status",
    "WrongFillError",
    "__version__",
    "check",
    "count",
    "enumerate_fills",
    "fill",
    "freeform",
    "generate",
    "load_words",
    "open_grid",
    "read_grid",
    "read_puzzle",
    "render",
    "write_puzzle",
]
