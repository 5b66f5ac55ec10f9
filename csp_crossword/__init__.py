"""csp-crossword: fill, check, count and generate crossword grids by constraint solving.

The library API (``csp_crossword.api``, documented in docs/api.md) is what every front end calls:

>>> import csp_crossword as cc
>>> result = cc.fill("..\\n..", ["AB", "CD", "AC", "BD"], time_limit=10)
>>> result.status.value, [(e.id, e.answer) for e in result.entries]
('filled', [('1A', 'AB'), ('3A', 'CD'), ('1D', 'AC'), ('2D', 'BD')])
"""

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

from . import moved

moved.install()

if TYPE_CHECKING:
    from .api import (
        FillStream,
        GridFile,
        WrongFillError,
        check,
        clue_database,
        clue_suggestions,
        count,
        enumerate_fills,
        fill,
        freeform,
        generate,
        import_clues,
        load_words,
        open_grid,
        read_grid,
        read_puzzle,
        render,
        write_puzzle,
    )
    from .core.result import FillResult, SearchStats, Status

__all__ = [
    "FillResult",
    "FillStream",
    "GridFile",
    "SearchStats",
    "Status",
    "WrongFillError",
    "__version__",
    "check",
    "clue_database",
    "clue_suggestions",
    "count",
    "enumerate_fills",
    "fill",
    "freeform",
    "generate",
    "import_clues",
    "load_words",
    "open_grid",
    "read_grid",
    "read_puzzle",
    "render",
    "write_puzzle",
]


def __getattr__(name: str) -> Any:
    # The API is imported on first use, not with the package: the command line imports this
    # package first and must be able to catch Ctrl-C during the heavier imports (numpy,
    # networkx, the solvers), and `csp-crossword --help` should not pay for them.
    if name in __all__ and name != "__version__":
        from . import api
        from .core import result

        value = getattr(api, name, None) or getattr(result, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
