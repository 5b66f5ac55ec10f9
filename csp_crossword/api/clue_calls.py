"""The library API, clues: the user's clue database (import crossword files, suggest clues).

The database is one SQLite file: ``$CSP_CROSSWORD_CLUE_DB`` when set, else
``$XDG_DATA_HOME/csp-crossword/clues.sqlite`` (``~/.local/share/...`` without ``XDG_DATA_HOME``),
or the path a call gives.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..clues.database import ClueDatabase
from ..clues.sources import ClueSuggestion
from ..core.errors import InputError

if TYPE_CHECKING:
    from ..clues.importer import ImportProgress, ImportReport

#: A database argument: a ClueDatabase, the path of its file, or None for the default file.
DatabaseLike = ClueDatabase | str | os.PathLike[str] | None


def clue_database(path: str | os.PathLike[str] | None = None) -> ClueDatabase:
    """The clue database at ``path`` (None: the default file). Nothing is created until an import."""
    return ClueDatabase(path)


def _database(database: DatabaseLike) -> ClueDatabase:
    return database if isinstance(database, ClueDatabase) else ClueDatabase(database)


def import_clues(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    database: DatabaseLike = None,
    *,
    progress: ImportProgress | None = None,
    workers: int | None = None,
) -> ImportReport:
    """Store the clues of crossword files (.puz, .ipuz, .xd, .json) and clue lists (an answer and a
    clue a line: TSV, CSV, ``answer: clue``, ``word;score;clue``; :mod:`csp_crossword.clues.list_files`)
    in the clue database, folders searched recursively, with each puzzle's title, author and date.
    A file already imported adds nothing; a broken one is listed in the report's ``skipped`` with
    the reader's message, a list's bad lines in ``bad_lines``.

    ``progress(done, total)`` is called after each file; ``workers``: processes reading the files
    (default: one per CPU for large imports). Raises InputError for a path that does not exist."""
    from ..clues.importer import import_files

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    db = _database(database)
    try:
        return import_files(list(paths), db, progress=progress, workers=workers)
    finally:
        if db is not database:
            db.close()


def clue_suggestions(entry: str, database: DatabaseLike = None, limit: int = 10) -> list[ClueSuggestion]:
    """The database's clues for ``entry`` (any case, spaces allowed), most used first, each with one
    of the files it came from. Never a clue that contains its answer or points at another clue."""
    if limit < 1:
        raise InputError(f"the limit must be 1 or more, not {limit}")
    db = _database(database)
    try:
        return db.suggestions(entry, limit)
    finally:
        if db is not database:
            db.close()
