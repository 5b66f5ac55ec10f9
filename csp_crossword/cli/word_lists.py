"""The CLI's word lists: ``--words`` files or the built-in list (kept to ``--spelling``), a
fill-in puzzle's own words, and ``--ban-file`` files."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Protocol

from ..core.deadline import Deadline
from ..core.errors import InputError
from ..core.files import read_text_file

if TYPE_CHECKING:
    from ..api import GridFile
    from ..words.lexicon import Lexicon


class Reporter(Protocol):
    """What loading a list says on the way (``cli.common.Reporter`` is one)."""

    @property
    def terminal(self) -> bool: ...

    def info(self, text: str) -> None: ...

    def warn(self, text: str) -> None: ...


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
    if not args.words and reporter.terminal and not _builtin_ready(args.lang, spelling):
        reporter.info("csp-crossword: preparing the built-in word list (once per machine, a few seconds)")
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


def banned_words(paths: list[str]) -> list[str]:
    """The words of ``--ban-file`` files: one per line; blank lines and ``#`` comments skipped."""
    words = []
    for path in paths:
        for line in read_text_file(path).splitlines():
            word = line.split("#", 1)[0].strip()
            if word:
                words.append(word)
    return words
