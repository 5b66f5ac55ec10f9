"""The library API, part 1: reading grids, word lists and puzzle files; writing and rendering.

Also the argument types shared by the API: a grid is a :class:`Grid`, grid text or a path; a word
list is a :class:`Lexicon`, words, a word -> score mapping, or None for the built-in list.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, deadline_after, earliest
from ..core.errors import InputError
from ..core.grid import BLOCK, EMPTY, Grid, parse_grid
from ..search.graph import components, constraint_graph
from ..words.builtin import SPELLING_CHOICES
from ..words.lexicon import Lexicon

if TYPE_CHECKING:
    from ..core.result import FillResult
    from ..formats import Puzzle
    from ..formats.fillin import FillInPuzzle

#: A word list argument: a Lexicon, words, word -> score, or None for the built-in list.
Words = Lexicon | Mapping[str, int] | Iterable[str] | None
#: A grid argument: a Grid, grid text ("..#\n..."), or a path to a grid or crossword file.
GridLike = Grid | str | os.PathLike[str]
#: Called with a warning about the input (a skipped word-list line, ...).
WarningCallback = Callable[[str], None]


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
    from ..formats import FILE_FORMATS, read_crossword
    from ..formats.fillin import read_grid_file

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
    allow_offensive: bool = False,
    on_warning: WarningCallback | None = None,
    overrides: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Mapping[str, int] = (),
    deadline: Deadline = None,
    spelling: str = "any",
) -> Lexicon:
    """Word lists (plain, ``word;score``, CSV, JSON; later files override), or the built-in list
    of ``lang`` when no path is given (without vulgar words unless ``allow_offensive``; never
    with slurs). Problems with single lines go to ``on_warning``.

    ``overrides``: override files (any of those formats, read strictly: a malformed line is an
    :class:`InputError`; later files win) or a word -> score mapping, applied to the list: they
    re-score its words and add missing ones, and a score of 0 or less bans a word.

    ``deadline`` (a job's): :class:`~csp_crossword.core.errors.LoadTimeout` when it passes while the
    files are read.

    ``spelling`` ``us`` or ``uk``: leave out the entries the built-in English list spells only the
    other way (COLOUR and GREYED for ``us``, COLOR for ``uk``), from the built-in list and from
    files alike; ``any`` (the default here) keeps them."""
    from ..words.wordlists import load_word_lists

    spelling = checked_spelling(spelling)

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not paths:
        from ..words.builtin import builtin_lexicon

        try:
            lexicon = builtin_lexicon(lang, allow_offensive=allow_offensive, spelling=spelling, deadline=deadline)
        except ValueError as error:
            raise InputError(str(error)) from None
    else:
        # kept to the spelling as they are read: a list file's cache is of the kept entries
        lexicon, reports = load_word_lists(list(paths), deadline=deadline, spelling=spelling)
        for report in reports:
            warning = report.warning()
            if warning and on_warning is not None:
                on_warning(warning)
    if overrides:
        lexicon = with_overrides(lexicon, overrides)
    return lexicon


def checked_spelling(spelling: str) -> str:
    """``spelling`` when it is one of SPELLING_CHOICES (InputError otherwise)."""
    if spelling not in SPELLING_CHOICES:
        raise InputError(f"unknown spelling {spelling!r}; choose from {', '.join(SPELLING_CHOICES)}")
    return spelling


def resolve_spelling(spelling: str, grid: Grid | None, lang: str = "en", *, own_list: bool = False) -> str:
    """The spelling a fill keeps to: ``auto`` is ``us`` for the built-in English list on a grid in
    the American style (every letter checked: in an across and a down entry), and ``any`` for any
    other grid (a British-style grid with unchecked cells, a freeform board), language, or a
    user's ``own_list`` (a constructor's list is kept as written unless a spelling is asked for)."""
    spelling = checked_spelling(spelling)
    if spelling != "auto":
        return spelling
    if lang != "en" or grid is None or own_list:
        return "any"
    return "us" if american_style(grid) else "any"


def american_style(grid: Grid) -> bool:
    """Whether every open cell of ``grid`` lies in two entries (an across and a down)."""
    return bool(grid.slots) and grid.stats().unchecked_cells == 0


def with_overrides(
    lexicon: Lexicon, overrides: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Mapping[str, int]
) -> Lexicon:
    """``lexicon`` re-scored by override files or a word -> score mapping (see :func:`load_words`)."""
    from ..words.overrides import apply_overrides, load_overrides

    if isinstance(overrides, Mapping):
        try:
            return apply_overrides(lexicon, overrides)
        except ValueError as error:
            raise InputError(f"overrides: {error}") from None
    if isinstance(overrides, str | os.PathLike):
        overrides = [overrides]
    return apply_overrides(lexicon, load_overrides(list(overrides)))


def read_puzzle(path: str | os.PathLike[str], *, rtl: bool = False) -> Puzzle:
    """A crossword file (.puz, .ipuz, .xd, our .json, .txt grid), by extension."""
    from ..formats import read_crossword

    return read_crossword(path, rtl=rtl)


def write_puzzle(path: str | os.PathLike[str], puzzle: Puzzle) -> list[str]:
    """Write a crossword file atomically, in the format its extension names; returns what that
    format could not carry (circles in a format without them, ...), one sentence each."""
    from ..formats import write_crossword

    return write_crossword(path, puzzle)


def fill_puzzle(grid_file: GridFile, lexicon: Lexicon, result: FillResult) -> Puzzle:
    """The fill as a puzzle file: the solution with clues from the word list, or, without a full
    fill, the pattern with the letters placed so far as givens."""
    from ..formats import Puzzle, puzzle_from_fill

    crossword = grid_file.crossword
    title = crossword.title if crossword else ""
    grid = grid_file.grid
    if result.status.has_fill and result.cells is not None:
        # a puzzle file's givens stay given; letters typed into a grid file are the solution's
        puzzle = puzzle_from_fill(grid, result.cells, lexicon, title=title, givens=crossword is not None)
    else:
        puzzle = Puzzle(grid.with_cells(result.cells) if result.cells else grid, title=title)
    if crossword:
        puzzle.author, puzzle.copyright = crossword.author, crossword.copyright
        # the pattern's own drawing (circles of a theme, void cells, the file's numbers) stays
        puzzle.styles, puzzle.voids, puzzle.labels = dict(crossword.styles), crossword.voids, dict(crossword.labels)
    return puzzle


def render(
    puzzle: Puzzle, fmt: str = "svg", *, solution: bool = False, page: str | None = None, key: bool = False
) -> str | bytes:
    """The puzzle as SVG (the grid), HTML (text) or PDF, PNG (bytes) pages; ``solution`` for the
    answer key, ``page`` the paper (``"letter"`` or ``"a4"``; default by the locale), ``key`` a
    last page with the filled grid. PNG is the first page: ``rendering.render_pages`` has all."""
    from ..printing import rendering

    return rendering.render(puzzle, fmt, solution=solution, page=page, key=key)


def job_deadline(time_limit: object, deadline: object, stop: object) -> Deadline:
    """A job's one deadline from its ``time_limit`` (seconds) and ``deadline`` (monotonic time),
    both optional; InputError when either is not a number (or the limit is negative or NaN), or
    when ``stop`` is neither None nor something with ``is_set()`` (a threading.Event)."""
    for value, what in ((time_limit, "time_limit"), (deadline, "deadline")):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value != value):
            raise InputError(f"{what} must be a number of seconds or None, not {value!r}")
    if time_limit is not None and time_limit < 0:  # type: ignore[operator]
        raise InputError(f"time_limit must be 0 or more seconds, not {time_limit!r}")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise InputError(f"stop must be None or a threading.Event (something with is_set()), not {stop!r}")
    return earliest(deadline, deadline_after(time_limit))  # type: ignore[arg-type]


#: Extensions of the grid files :func:`read_grid` reads: a one-line string ending in one is taken
#: for a path, not for a one-row grid.
GRID_FILE_EXTENSIONS = (".txt", ".puz", ".ipuz", ".xd", ".json")


def as_grid(grid: GridLike, *, rtl: bool = False) -> Grid:
    """A Grid from a Grid, grid text, or a path to a grid file (a :class:`os.PathLike`, or a
    one-line string naming an existing file or ending in a grid file's extension).

    Raises:
        InputError: anything else (None, a number...), a path to a missing file, a malformed grid.
    """
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, os.PathLike):
        return read_grid(grid, rtl=rtl)
    if not isinstance(grid, str):
        raise InputError(f"a grid is a Grid, grid text or a path to a grid file, not {type(grid).__name__}")
    line = grid.strip()
    if "\n" not in line and (os.path.isfile(line) or line.lower().endswith(GRID_FILE_EXTENSIONS)):
        return read_grid(line, rtl=rtl)
    return parse_grid(grid, rtl=rtl)


def as_lexicon(words: Words, *, lang: str = "en", spelling: str = "any", deadline: Deadline = None) -> Lexicon:
    """A Lexicon from a Lexicon, a word -> score mapping, words, or None (the built-in list, kept
    to ``spelling``: see :func:`load_words`; its first use builds its ready index by ``deadline``,
    else ``IndexTimeout``). A Lexicon or words given are used as they are."""
    if isinstance(words, Lexicon):
        return words
    if words is None:
        return load_words(lang=lang, spelling=spelling, deadline=deadline)
    if isinstance(words, str) or not isinstance(words, Mapping | Iterable):
        raise InputError(
            f"words must be a list of words, a word -> score mapping or a Lexicon, not {type(words).__name__}"
        )
    items = list(words)
    if not all(isinstance(word, str) for word in items):
        raise InputError("words must be text: " + repr(next(w for w in items if not isinstance(w, str))))
    try:
        if isinstance(words, Mapping):
            return Lexicon.from_words(items, scores=dict(words))
        return Lexicon.from_words(items)
    except ValueError as error:
        raise InputError(str(error)) from None


def regions(grid: Grid) -> list[list[str]]:
    """The grid's independent regions (slots linked by crossings), largest first."""
    return components(constraint_graph(grid))


def describe_backends() -> list[dict[str, Any]]:
    """The registered solvers: name, whether default and available, version, abilities, options."""
    from ..backends import DEFAULT, get_backend, names
    from ..backends.options import describe_options

    rows = []
    for name in names():
        cls = get_backend(name)
        available = cls.available()
        rows.append(
            {
                "name": name,
                "default": name == DEFAULT,
                "available": available,
                "version": cls.version() if available else None,
                "supports": sorted(cls.supports),
                "description": cls.description,
                "options": describe_options(cls.Options),
            }
        )
    return rows
