"""The library API: the one layer every front end (the CLI, a web app, a batch runner) calls.

Each function takes plain Python values — a :class:`Grid` or grid text, a word list as a
:class:`Lexicon`, a list of words or a word -> score dict (None: the built-in list) — and returns
the result objects. Every job accepts ``time_limit`` (seconds, for the whole job), ``seed``, a
cancellation event ``stop`` (set it to end the job with the best result so far) and a
``progress`` callback. Every fill is checked by the independent verifier before it is returned:
a fill that fails it raises :class:`WrongFillError` instead of reaching the caller.

Heavy packages (OR-Tools, networkx, WeasyPrint) are imported only by the jobs that use them.
See docs/api.md for examples.
"""

from ..core.result import Candidates
from .candidates import candidates, job_candidates
from .clue_calls import clue_database, clue_suggestions, import_clues
from .fills import FillStream, check, count, enumerate_fills, export_minizinc, fill
from .inputs import (
    GridFile,
    GridLike,
    Words,
    as_grid,
    as_lexicon,
    describe_backends,
    fill_puzzle,
    load_words,
    open_grid,
    read_grid,
    read_puzzle,
    regions,
    render,
    resolve_spelling,
    with_overrides,
    write_puzzle,
)
from .jobs import FillJob, WrongFillError, fill_options, make_backend, prepare
from .layouts import american_pattern, freeform, freeform_words, generate, is_rtl, progressive_options

__all__ = [
    "american_pattern",
    "progressive_options",
    "Candidates",
    "candidates",
    "job_candidates",
    "clue_database",
    "clue_suggestions",
    "import_clues",
    "describe_backends",
    "FillJob",
    "GridLike",
    "Words",
    "is_rtl",
    "FillStream",
    "GridFile",
    "WrongFillError",
    "as_grid",
    "as_lexicon",
    "check",
    "count",
    "enumerate_fills",
    "export_minizinc",
    "fill",
    "fill_options",
    "fill_puzzle",
    "freeform",
    "freeform_words",
    "generate",
    "load_words",
    "make_backend",
    "open_grid",
    "prepare",
    "read_grid",
    "read_puzzle",
    "regions",
    "render",
    "resolve_spelling",
    "with_overrides",
    "write_puzzle",
]
