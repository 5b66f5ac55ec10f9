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

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .backends import DEFAULT as DEFAULT_BACKEND
from .backends import Backend, get_backend, names
from .deadline import Deadline, StopSignal, deadline_after
from .errors import InputError
from .grid import BLOCK, EMPTY, Grid, parse_grid
from .lexicon import Lexicon
from .problem import FillOptions, FillProblem, build_problem, connected_slots
from .result import FillResult, SearchStats, Status
from .verify import verify_fill

if TYPE_CHECKING:
    from .backends.base import Cells, ProgressCallback
    from .checking import CheckReport
    from .counting import CountResult
    from .fillin import FillInPuzzle
    from .formats import Puzzle
    from .layout.freeform import FreeformResult
    from .layout.generate import Generated

#: A word list argument: a Lexicon, words, word -> score, or None for the built-in list.
Words = Lexicon | Mapping[str, int] | Iterable[str] | None
#: A grid argument: a Grid, grid text ("..#\n..."), or a path to a grid or crossword file.
GridLike = Grid | str | os.PathLike[str]
#: Called with a warning about the input (a skipped word-list line, ...).
WarningCallback = Callable[[str], None]


class WrongFillError(RuntimeError):
    """A backend produced a fill the independent verifier rejects: a bug, never a result."""


# ----------------------------------------------------------------------------- reading input


@dataclass(frozen=True)
class GridFile:
    """A grid read from a file, with what the file says beyond the pattern.

    Attributes:
        grid: The pattern with its pre-filled glyphs.
        fill_in: For a fill-in puzzle (a grid text ending with a ``;``-separated word line): the
            words to place, each exactly as often as listed.
        crossword: For a .puz/.ipuz/.xd/.json file: the whole puzzle (title, author, clues).
        block, empty: The symbols the file used for blocks and empty cells.
    """

    grid: Grid
    fill_in: FillInPuzzle | None = None
    crossword: Puzzle | None = None
    block: str = BLOCK
    empty: str = EMPTY

    def words(self) -> Lexicon | None:
        """A fill-in puzzle's own word list (None for other grids)."""
        return self.fill_in.lexicon() if self.fill_in is not None else None


def open_grid(path: str | os.PathLike[str], *, rtl: bool = False, block: str | None = None) -> GridFile:
    """Read a grid text file (possibly a fill-in puzzle) or a crossword file's pattern and givens."""
    from .fillin import read_grid_file
    from .formats import FILE_FORMATS, read_crossword

    name = os.fspath(path)
    ext = os.path.splitext(name)[1].lower()
    if ext in FILE_FORMATS and ext != ".txt":
        crossword = read_crossword(name, rtl=rtl)  # pattern and givens; its solution is not used
        return GridFile(crossword.grid, crossword=crossword)
    grid, fill_in = read_grid_file(name, block=block, rtl=rtl)
    if fill_in is not None:
        return GridFile(grid, fill_in=fill_in, block=fill_in.block, empty=fill_in.empty)
    return GridFile(grid, block=block or BLOCK)


def read_grid(path: str | os.PathLike[str], *, rtl: bool = False, block: str | None = None) -> Grid:
    """The grid of a grid text or crossword file."""
    return open_grid(path, rtl=rtl, block=block).grid


def load_words(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    *,
    lang: str = "en",
    on_warning: WarningCallback | None = None,
) -> Lexicon:
    """Word lists (plain, ``word;score``, CSV, JSON; later files override), or the built-in list
    of ``lang`` when no path is given. Problems with single lines go to ``on_warning``."""
    from .lexicon import load_word_lists

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not paths:
        from .builtin import builtin_lexicon

        return builtin_lexicon(lang)
    lexicon, reports = load_word_lists(list(paths))
    for report in reports:
        warning = report.warning()
        if warning and on_warning is not None:
            on_warning(warning)
    return lexicon


def read_puzzle(path: str | os.PathLike[str], *, rtl: bool = False) -> Puzzle:
    """A crossword file (.puz, .ipuz, .xd, our .json, .txt grid), by extension."""
    from .formats import read_crossword

    return read_crossword(path, rtl=rtl)


def write_puzzle(path: str | os.PathLike[str], puzzle: Puzzle) -> None:
    """Write a crossword file atomically, in the format its extension names."""
    from .formats import write_crossword

    write_crossword(path, puzzle)


def render(puzzle: Puzzle, fmt: str = "svg", *, solution: bool = False) -> str | bytes:
    """The puzzle as SVG, HTML (text) or PDF, PNG (bytes); ``solution`` for the answer key."""
    from . import rendering

    return rendering.render(puzzle, fmt, solution=solution)


def as_grid(grid: GridLike, *, rtl: bool = False) -> Grid:
    """A Grid from a Grid, grid text, or a path (a :class:`os.PathLike`) to a grid file."""
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, os.PathLike):
        return read_grid(grid, rtl=rtl)
    return parse_grid(grid, rtl=rtl)


def as_lexicon(words: Words, *, lang: str = "en") -> Lexicon:
    """A Lexicon from a Lexicon, a word -> score mapping, words, or None (the built-in list)."""
    if isinstance(words, Lexicon):
        return words
    if words is None:
        return load_words(lang=lang)
    if isinstance(words, str):
        raise TypeError("words must be a list of words, a word -> score mapping or a Lexicon, not one string")
    if isinstance(words, Mapping):
        return Lexicon.from_words(list(words), scores=dict(words))
    return Lexicon.from_words(list(words))


def regions(grid: Grid) -> list[list[str]]:
    """The grid's independent regions (slots linked by crossings), largest first."""
    return connected_slots([slot.id for slot in grid.slots], [(c.across, c.down) for c in grid.crossings])


# ----------------------------------------------------------------------------- filling


def fill_options(
    grid: Grid,
    *,
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
) -> FillOptions:
    """The fill options, checked against the grid (InputError for a slot it does not have)."""
    if min_score is not None and min_score < 0:
        raise InputError("min_score must be 0 or more")
    pairs = list(require.items()) if isinstance(require, Mapping) else list(require or [])
    required = []
    for slot_id, word in pairs:
        if not str(slot_id).strip() or not str(word).strip():
            raise InputError(f"required entry {slot_id}={word}: give a slot id and a word, e.g. 1A=CROSSWORD")
        try:
            grid.slot(slot_id)
        except KeyError:
            raise InputError(f"the grid has no slot {slot_id.strip().upper()}", grid.source) from None
        required.append((slot_id.strip().upper(), word.strip()))
    return FillOptions(
        allow_duplicates=allow_duplicates,
        min_score=min_score,
        banned=frozenset(ban),
        required=tuple(required),
        exact=exact,
    )


def make_backend(
    name: str = DEFAULT_BACKEND,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    job: str = "fill",
    optimize: bool = False,
) -> Backend:
    """The backend registered as ``name``, able to do ``job``, with its options checked."""
    cls = get_backend(name)
    if not cls.available():
        raise InputError(f"backend {name} is not available here (see 'csp-crossword backends')")
    if job not in cls.supports:
        able = [n for n in names() if job in get_backend(n).supports]
        raise InputError(f"backend {name} cannot {job}; use one of: {', '.join(able)}")
    values = dict(options or {})
    if optimize:
        if "optimize" not in cls.supports:
            able = [n for n in names() if "optimize" in get_backend(n).supports]
            raise InputError(f"backend {name} cannot optimise; use one of: {', '.join(able)}")
        values["optimize"] = True
    return cls(values, seed=seed)


@dataclass(frozen=True)
class FillJob:
    """A grid, its word list and the options, compiled into a problem once."""

    grid: Grid
    lexicon: Lexicon
    problem: FillProblem

    def verify(self, cells: Cells) -> list[str]:
        """The independent verifier's complaints about a fill of this problem (empty: valid)."""
        problem = self.problem
        return verify_fill(
            self.grid,
            cells,
            problem.lexicon,
            allow_duplicates=problem.options.allow_duplicates,
            extra_words=problem.extra_words,
            exact_uses=problem.word_uses if problem.options.exact else None,
        )

    def checked(self, result: FillResult) -> FillResult:
        """``result``, after the verifier accepted its fill (WrongFillError otherwise)."""
        if result.status.has_fill and result.cells is not None:
            problems = self.verify(result.cells)
            if problems:
                raise WrongFillError(f"backend {result.backend} returned an invalid fill: {problems[0]}")
        return result


def prepare(
    grid: GridLike,
    words: Words = None,
    *,
    lang: str = "en",
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
) -> FillJob:
    """Grid + word list + options -> the arc-consistent problem every job starts from."""
    grid = as_grid(grid, rtl=lang == "ar")
    lexicon = as_lexicon(words, lang=lang)
    options = fill_options(
        grid, min_score=min_score, ban=ban, require=require, allow_duplicates=allow_duplicates, exact=exact
    )
    return FillJob(grid, lexicon, build_problem(grid, lexicon, options))


def fill(
    grid: GridLike,
    words: Words = None,
    *,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    optimize: bool = False,
    time_limit: float | None = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **fill_settings: Any,
) -> FillResult:
    """Fill ``grid`` from ``words``: a verified fill, a proof that none exists, or the best
    partial fill at the time limit (the result's ``status`` says which).

    ``fill_settings`` are those of :func:`prepare`: ``lang``, ``min_score``, ``ban``,
    ``require`` (slot id -> word), ``allow_duplicates``, ``exact``.
    """
    solver = make_backend(backend, backend_options, seed=seed, optimize=optimize)
    job = prepare(grid, words, **fill_settings)
    result = solver.solve(job.problem, time_limit=time_limit, stop=stop, progress=progress)
    return job.checked(result)


def check(
    grid: GridLike,
    words: Words = None,
    *,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    min_length: int = 3,
    **fill_settings: Any,
) -> CheckReport:
    """Whether ``grid`` can be filled (with a verified witness), and if not, which slots clash.

    The time limit holds for the whole job: the proof and the core search together.
    """
    from .checking import check as run_check

    solver = make_backend(backend, backend_options, seed=seed)
    job = prepare(grid, words, **fill_settings)
    report = run_check(
        job.grid, job.lexicon, job.problem.options, backend=solver, time_limit=time_limit, stop=stop,
        min_length=min_length,
    )
    if report.witness is not None:
        job.checked(report.witness)
    return report


def count(
    grid: GridLike,
    words: Words = None,
    *,
    limit: int | None = None,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **fill_settings: Any,
) -> CountResult:
    """The number of fills (exact, or a lower bound when ``limit`` or the time limit cut it)."""
    from .counting import count_fills

    if limit is not None and limit < 1:
        raise InputError("limit must be 1 or more")
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, **fill_settings)
    return count_fills(job.problem, solver, limit, time_limit=time_limit, stop=stop, progress=progress)


class FillStream:
    """The fills of a problem, each verified, produced lazily.

    Iterate for :class:`FillResult` objects. Afterwards ``complete`` says whether every fill was
    produced and ``stats`` holds the search effort.
    """

    def __init__(self, job: FillJob, solver: Backend, limit: int | None, deadline: Deadline, stop: StopSignal | None,
                 progress: ProgressCallback | None):
        self.job = job
        self.backend = solver.name
        self.limit = limit
        self._enumeration = solver.enumerate(job.problem, deadline=deadline, stop=stop, progress=progress)
        self.produced = 0

    @property
    def complete(self) -> bool:
        return self._enumeration.complete

    @property
    def stats(self) -> SearchStats:
        return self._enumeration.stats

    @property
    def stopped_by_limit(self) -> bool:
        return not self.complete and self.limit is not None and self.produced >= self.limit

    def __iter__(self) -> Iterator[FillResult]:
        from .backends.base import fill_from_words

        for words in self._enumeration:
            cells, entries = fill_from_words(self.job.problem, words)
            self.produced += 1
            yield self.job.checked(FillResult(Status.FILLED, self.backend, cells, entries))
            if self.limit is not None and self.produced >= self.limit:
                break


def enumerate_fills(
    grid: GridLike,
    words: Words = None,
    *,
    limit: int | None = None,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **fill_settings: Any,
) -> FillStream:
    """Every fill, verified, one at a time (at most ``limit``); the clock starts now."""
    if limit is not None and limit < 1:
        raise InputError("limit must be 1 or more")
    deadline = deadline_after(time_limit)
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, **fill_settings)
    return FillStream(job, solver, limit, deadline, stop, progress)


# ----------------------------------------------------------------------------- layouts


def generate(
    rows: int,
    cols: int,
    words: Words = None,
    *,
    lang: str = "en",
    numeric: bool = False,
    min_score: int | None = None,
    max_run: int | None = None,
    symmetric: bool = False,
    method: str = "auto",
    allow_duplicates: bool = False,
    time_limit: float = 10.0,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> Generated:
    """Choose the blocks of a ``rows`` x ``cols`` grid and fill it (``numeric``: a products
    crossword of digits). The fill is verified; the time limit holds for the whole job."""
    from .generate import generate as run_generate  # TEMP

    if numeric:
        from .numeric import products_lexicon

        lexicon = products_lexicon()
    else:
        lexicon = as_lexicon(words, lang=lang)
    if min_score is not None:
        lexicon = lexicon.filtered(min_score=min_score)
    made = run_generate(
        rows, cols, lexicon, max_run=max_run, symmetric=symmetric, time_limit=time_limit, seed=seed, method=method,
        rtl=lang == "ar", allow_duplicates=allow_duplicates, stop=stop, progress=progress,
    )
    result = made.result
    if result.status.has_fill and result.cells is not None:
        problems = verify_fill(made.grid, result.cells, lexicon, allow_duplicates=allow_duplicates)
        if problems:
            raise WrongFillError(f"generate produced an invalid fill: {problems[0]}")
    return made


def is_rtl(words: Iterable[str]) -> bool:
    """Whether every word starts in a right-to-left script (Arabic, Hebrew, ...).

    >>> is_rtl(["سلام", "كتاب"]), is_rtl(["سلام", "CAT"])
    (True, False)
    """
    import unicodedata

    listed = list(words)
    return bool(listed) and all(unicodedata.bidirectional(w[0]) in ("R", "AL") for w in listed)


def freeform_words(words: Lexicon | Iterable[str], *, pick: int | None = None, seed: int = 0) -> list[str]:
    """The words a freeform board lays out: each as often as its list gives it, or a random
    ``pick`` of them (chosen by ``seed``)."""
    lexicon = words if isinstance(words, Lexicon) else Lexicon.from_words(list(words))
    chosen = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    if pick is not None:
        if pick < 1:
            raise InputError("pick must be 1 or more")
        if pick < len(chosen):
            chosen = random.Random(seed).sample(chosen, pick)
    if not chosen:
        raise InputError("the word list has no words")
    return chosen


def freeform(
    words: Lexicon | Iterable[str],
    *,
    rows: int | None = None,
    cols: int | None = None,
    pick: int | None = None,
    symmetric: bool = False,
    allow_islands: bool = False,
    rtl: bool | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: Callable[..., None] | None = None,
) -> FreeformResult:
    """Lay ``words`` out as a freeform crossword (no given pattern); the board is verified.

    ``rtl`` None: right to left when every word is in a right-to-left script.
    """
    from .freeform import DEFAULT_SECONDS, Freeform  # TEMP

    chosen = freeform_words(words, pick=pick, seed=seed)
    rtl = is_rtl(chosen) if rtl is None else rtl
    engine = Freeform(chosen, rows=rows, cols=cols, allow_islands=allow_islands, symmetric=symmetric, rtl=rtl)
    limit = DEFAULT_SECONDS if time_limit is None else time_limit
    result = engine.run(limit, seed, stop=stop, progress=progress)
    problems = verify_fill(result.grid, result.cells, Lexicon.from_words(chosen), exact_uses=Counter(result.placed))
    if not allow_islands and result.placed and not result.grid.stats().connected:
        problems.append("the board is not one connected piece")
    if problems:
        raise WrongFillError(f"freeform produced an invalid board: {problems[0]}")
    return result


__all__ = [
    "FillJob",
    "FillStream",
    "GridFile",
    "WrongFillError",
    "as_grid",
    "as_lexicon",
    "check",
    "count",
    "enumerate_fills",
    "fill",
    "fill_options",
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
    "write_puzzle",
]
