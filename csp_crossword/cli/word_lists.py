"""The CLI's word lists: ``--words`` files or the built-in list (kept to ``--spelling``), a
fill-in puzzle's own words, and ``--ban-file`` files."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Protocol

from ..core.deadline import Deadline
from ..core.errors import InputError, LoadTimeout
from ..core.files import read_text_file
from ..core.result import SearchStats

if TYPE_CHECKING:
    from ..api import GridFile
    from ..words.lexicon import Lexicon

#: What the first use of a built-in list says while its ready index is built (about 1.5 s on an
#: idle machine, measured for ``en``; several times that on a busy one).
PREPARING = "preparing the built-in word list's index (first use on this machine, about 1.5 s)"
#: The progress phase of that wait (``cli.common.PHASE_WORDS`` says it in words).
PREPARE_PHASE = "prepare"


class Reporter(Protocol):
    """What loading a list says on the way (``cli.common.Reporter`` is one)."""

    @property
    def terminal(self) -> bool: ...

    def info(self, text: str) -> None: ...

    def warn(self, text: str) -> None: ...

    def progress(self, stats: SearchStats) -> None: ...


def load_words(
    args: argparse.Namespace, reporter: Reporter, grid_file: GridFile | None = None, deadline: Deadline = None
) -> Lexicon:
    """The word list: a fill-in puzzle's own words, ``--words`` files, or the built-in list
    (LoadTimeout when ``deadline`` passes while the files are read)."""
    from ..api import load_words as load

    own = grid_file.words() if grid_file is not None else None
    overrides = getattr(args, "overrides", [])
    if own is not None:
        if args.words or overrides:
            reporter.warn("a fill-in puzzle brings its own words; --words and --overrides are ignored")
        return own
    if not args.words and getattr(args, "exact", False):
        raise InputError("--exact needs --words: the list of words to place")
    from ..api import resolve_spelling

    grid = grid_file.grid if grid_file else None
    spelling = resolve_spelling(getattr(args, "spelling", "any"), grid, args.lang, own_list=bool(args.words))
    if not args.words and not _builtin_ready(args.lang, spelling):
        if reporter.terminal:
            reporter.info(f"csp-crossword: {PREPARING}")
        if deadline is not None:  # the index is built within the job's time limit, or goes on after it
            _prepare_builtin(args.lang, spelling, deadline, reporter)
    allow = getattr(args, "allow_offensive", False)
    return load(
        args.words or (),
        lang=args.lang,
        allow_offensive=allow,
        on_warning=reporter.warn,
        overrides=overrides,
        deadline=deadline,
        spelling=spelling,
    )


def _builtin_ready(lang: str, spelling: str = "any") -> bool:
    """Whether the built-in list of ``lang`` has its ready index cached (False: the first load
    builds it, which takes seconds)."""
    from ..words.builtin import cache_path

    try:
        return os.path.exists(cache_path(lang, spelling))
    except (OSError, ValueError, KeyError):
        return True  # nothing to announce when the question itself fails


def _prepare_builtin(lang: str, spelling: str, deadline: Deadline, reporter: Reporter) -> None:
    """Build the built-in list's ready index in a process of its own, waiting for it until
    ``deadline`` with a progress line (LoadTimeout then, with a warning): the job keeps its time
    limit, and the process, in a session of its own, finishes the index for the next run even
    when this one stops. A build that fails leaves the load to do it here, as without a time
    limit."""
    from ..words.builtin import cache_path
    from ..words.index_build import IndexTimeout, build_index

    try:
        build_index(
            lang,
            spelling,
            cache_path(lang, spelling),
            deadline,
            lambda: reporter.progress(SearchStats(phase=PREPARE_PHASE)),
        )
    except IndexTimeout as late:
        reporter.warn(
            "the time limit passed while the built-in word list's index was prepared (first use on "
            "this machine); it is being finished in the background: run the command again in a few seconds"
        )
        raise LoadTimeout(late.path) from None


def banned_words(paths: list[str]) -> list[str]:
    """The words of ``--ban-file`` files: one per line; blank lines and ``#`` comments skipped."""
    words = []
    for path in paths:
        for line in read_text_file(path).splitlines():
            word = line.split("#", 1)[0].strip()
            if word:
                words.append(word)
    return words
