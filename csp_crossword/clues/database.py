"""The user's clue database: every clue of the crossword files they imported, with its source.

One SQLite file (:func:`default_database_path`: ``$CSP_CROSSWORD_CLUE_DB``, else
``$XDG_DATA_HOME/csp-crossword/clues.sqlite``, ``~/.local/share/...`` without it). Two tables:

* ``sources``: one row per imported file (path, SHA-256 of its bytes, title, author, date, when it
  was imported). The hash is unique, so a file imported again, under any name, adds nothing.
* ``clues``: (entry, clue as the file has it, its normalised form, source, usable, kind). The
  key is (entry, normalised clue, source), clustered (``WITHOUT ROWID``) so one entry's clues sit
  together.
* ``clue_uses``: one row per (entry, normalised clue): how many sources gave it, the first of
  them and its wording there. An import keeps it up to date, so a lookup reads one row per
  distinct clue of the entry, not one per use (a popular answer has hundreds of uses in a large
  archive, and counting them at every lookup would cost a millisecond).

Every clue is kept as the file has it; ``usable`` marks those we may suggest: never one that
gives its own answer away (the rules of :mod:`.rules`, the same for every clue source), nor a
theme clue or cross-reference ("*Quaint lodging", "See 17-Across": :mod:`.crossrefs`, whose
verdict is the row's ``kind``) that means nothing outside its puzzle, nor an offensive one. The
tables and their upgrades from older files are in :mod:`.db_schema`.
A suggestion's ``uses`` is the number of sources that gave it.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from ..core.errors import InputError
from ..core.glyphs import normalize_entry
from .db_schema import (
    BUSY_TIMEOUT_MS,
    SCHEMA_VERSION,
    DatabaseBusy,
    create_or_upgrade,
    database_error,
    judge_again,
    judged_by_current_rules,
    known_schema,
    open_connection,
)
from .records import ClueRow, storable, usable_clue, uses_rows
from .sources import ClueSuggestion

#: Overrides the default database file (a path).
DATABASE_VARIABLE = "CSP_CROSSWORD_CLUE_DB"
DATABASE_NAME = "clues.sqlite"
#: SQLite's page cache, KiB: an archive's database is tens of MB, and a batch's inserts touch
#: pages all over it (SQLite's default, 2 MB, would read most of them again for every batch).
CACHE_KIB = 64 * 1024
#: Seconds an earlier version's file, brought up to date on opening, spends judging its clues
#: again then (a small file is done; a large archive goes on at the next import, and lookups judge
#: the rows they read meanwhile).
UPGRADE_JUDGING_SECONDS = 1.0
#: Entries per ``best`` query: well under SQLite's smallest limit of bound variables (999).
BEST_CHUNK = 500
#: SQLite's largest integer: a larger ``limit`` asks for every clue all the same.
SQLITE_LARGEST_INTEGER = 2**63 - 1
#: The columns of a lookup's rows and of a source, cast: a damaged page may hold a value of
#: another type (a BLOB where the text was), which must not reach the code that shows it.
USE_COLUMNS = "COALESCE(CAST(clue AS TEXT), ''), CAST(first_source AS INTEGER), COALESCE(CAST(uses AS INTEGER), 0)"
SOURCE_COLUMNS = ", ".join(
    f"COALESCE(CAST({name} AS TEXT), '')" for name in ("path", "sha256", "title", "author", "date")
)
#: Longest title shown in a suggestion's source (a .puz title may carry a whole note).
SOURCE_TITLE_CHARS = 60


def default_database_path() -> str:
    """``$CSP_CROSSWORD_CLUE_DB``, else ``$XDG_DATA_HOME/csp-crossword/clues.sqlite`` (``~/.local/share``
    without ``XDG_DATA_HOME``)."""
    chosen = os.environ.get(DATABASE_VARIABLE)
    if chosen:
        return os.path.expanduser(chosen)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "csp-crossword", DATABASE_NAME)


@dataclass(frozen=True)
class SourceInfo:
    """An imported file: where it was, its hash, and what it says about itself."""

    path: str
    sha256: str
    title: str = ""
    author: str = ""
    date: str = ""

    def describe(self) -> str:
        """In words: "Title, Author, Date (file.puz)" (the parts the file gives)."""
        title = " ".join(self.title.split())
        if len(title) > SOURCE_TITLE_CHARS:
            title = title[: SOURCE_TITLE_CHARS - 1].rstrip() + "…"
        date = self.date.strip()
        if date.casefold() in title.casefold():
            date = ""  # "NY Times, Mon, Mar 10, 2008" says it already
        parts = [part for part in (title, " ".join(self.author.split()), date) if part]
        name = os.path.basename(self.path)
        return f"{', '.join(parts)} ({name})" if parts else name


@dataclass(frozen=True)
class DatabaseStats:
    """What a clue database holds: distinct entries, clue rows, sources, and its size on disk."""

    path: str
    entries: int
    clues: int
    sources: int
    size_bytes: int


class ClueDatabase:
    """The user's clue database, a :class:`~.sources.ClueSource` named ``"db"``.

    Reading never creates the file (a database not yet imported into has no suggestions) and
    never writes it: it opens the file read-only. The connection opens on first use and may be
    shared by threads (a lock serialises its calls). SQLite's errors come out as ones a user can
    act on (:func:`.db_schema.database_error`): a damaged file is an InputError, another writer
    holding the file too long a DatabaseBusy, a file that cannot be written a CannotWrite.
    """

    name = "db"

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = os.fspath(path) if path is not None else default_database_path()
        self._connection: sqlite3.Connection | None = None
        self._writable = False
        #: Whether the stored verdicts come from the current rules; if not, lookups judge the
        #: rows they read (:meth:`judge_again` brings the file up to date).
        self._judged = True
        self._lock = threading.RLock()

    # ------------------------------------------------------------------------- connection

    def exists(self) -> bool:
        return os.path.isfile(self.path)

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """The connection: read-only for reading (``create`` False; None when there is no file),
        read-write for writing (the file and its tables made when missing, an older schema
        brought up to date). A reading connection is replaced by a writing one when needed."""
        if self._connection is not None and (self._writable or not create):
            return self._connection
        if not create and not self.exists():
            return None
        self.close()
        if create:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        connection = open_connection(self.path, writable=create)
        try:
            version = known_schema(connection, self.path)
            if version == 0 and not create:  # an empty file: nothing imported yet, as with none
                connection.close()
                return None
            if version != SCHEMA_VERSION:
                if not create:  # an earlier version's file: upgraded by the first connection that may write
                    connection.close()
                    connection = open_connection(self.path, writable=True)
                    create = True
                try:
                    create_or_upgrade(connection)
                    if version:  # an older file's verdicts: judged again now, unless it is large
                        judge_again(connection, time.monotonic() + UPGRADE_JUDGING_SECONDS)
                except sqlite3.OperationalError as error:
                    if isinstance(database_error(error, self.path), DatabaseBusy):
                        raise
                    older = f" (schema {version}, of an earlier version, is upgraded on opening)" if version else ""
                    raise InputError(f"cannot open the clue database{older}: {error}", self.path) from None
            if create:
                # WAL: readers (a web page's lookups) go on while an import writes, and a commit
                # needs no full sync of the main file; NORMAL sync is safe with WAL (a crash
                # loses at most the last batch, never the database).
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = NORMAL")
            connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self._judged = judged_by_current_rules(connection)
        except BaseException:
            connection.close()
            raise
        self._connection, self._writable = connection, create
        return connection

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __enter__(self) -> ClueDatabase:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Holds the lock, and turns SQLite's errors into ones a user can act on: a damaged file
        (InputError), another process writing for longer than BUSY_TIMEOUT_MS (DatabaseBusy), no
        room or no permission to write (CannotWrite). The connection is closed after one."""
        with self._lock:
            try:
                yield
            except sqlite3.DatabaseError as error:
                self.close()
                raise database_error(error, self.path) from None
            except UnicodeDecodeError:  # SQLite's message quotes a damaged schema's bytes, no UTF-8
                self.close()
                raise InputError("the clue database is damaged: its schema is not text", self.path) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._guard():
            connection = self._connect(create=True)
            assert connection is not None  # create=True always connects
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def judge_again(self, deadline: float | None = None) -> bool:
        """Judge the stored clues again by the current rules (:func:`.db_schema.judge_again`)
        until ``deadline`` (``time.monotonic()``); returns whether all are judged. A job that
        stops early leaves its place in the file, and the next call goes on from there."""
        with self._guard():
            if not self.exists():
                return True
            connection = self._connect(create=True)
            assert connection is not None  # create=True always connects
            self._judged = judge_again(connection, deadline)
            return self._judged

    # ------------------------------------------------------------------------- writing

    def known_hashes(self, hashes: Iterable[str]) -> dict[str, str]:
        """Hash -> path it was imported from, for the ``hashes`` already in the database."""
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, str] = {}
        with self._guard():
            connection = self._connect(create=False)
            if connection is None:
                return found
            for start in range(0, len(wanted), BEST_CHUNK):
                chunk = wanted[start : start + BEST_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = connection.execute(f"SELECT sha256, path FROM sources WHERE sha256 IN ({marks})", chunk)
                found.update(dict(rows))
        return found

    def add_sources(self, batch: Sequence[tuple[SourceInfo, Sequence[ClueRow]]]) -> tuple[int, int]:
        """Store files and their clues (:func:`clue_rows`) in one transaction; returns (clues added,
        duplicates: the same clue for the same entry twice in a file). A file whose hash is
        already stored adds nothing (its clues count as duplicates)."""
        duplicates = 0
        now = datetime.now(UTC).isoformat(timespec="seconds")
        rows: dict[tuple[str, str, int], tuple[str, bool, str]] = {}
        with self._transaction() as connection:
            for info, pairs in batch:
                cursor = connection.execute(
                    "INSERT OR IGNORE INTO sources (path, sha256, title, author, date, imported_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        storable(os.path.abspath(info.path)),
                        info.sha256,
                        storable(info.title),
                        storable(info.author),
                        storable(info.date),
                        now,
                    ),
                )
                if cursor.rowcount == 0:
                    duplicates += len(pairs)
                    continue
                source_id = cursor.lastrowid
                assert source_id is not None  # an insert that changed a row has its id
                for entry, key, clue, usable, kind in pairs:
                    rows.setdefault((entry, key, source_id), (clue, usable, kind))
                duplicates += len(pairs)
            duplicates -= len(rows)
            # every source here is new, so none of these rows is stored yet; in key order, each
            # page of the table is visited once a batch, not once a row (a large database is far
            # bigger than SQLite's page cache)
            ordered = sorted(rows.items())
            connection.executemany(
                "INSERT INTO clues (entry, clue_key, source_id, clue, usable, kind) VALUES (?, ?, ?, ?, ?, ?)",
                [(*row, *values) for row, values in ordered],
            )
            connection.executemany(
                "INSERT INTO clue_uses (entry, clue_key, clue, usable, kind, first_source, uses) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (entry, clue_key) DO UPDATE SET uses = uses + excluded.uses",
                uses_rows(ordered),
            )
        return len(rows), duplicates

    # ------------------------------------------------------------------------- reading

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        """The entry's clues, most used (by the most sources) first, each with one of its sources."""
        key, limit = normalize_entry(entry), min(limit, SQLITE_LARGEST_INTEGER)
        with self._guard():
            connection = self._connect(create=False)
            if connection is None or limit < 1:
                return []
            if self._judged:
                rows = connection.execute(
                    f"SELECT {USE_COLUMNS} FROM clue_uses WHERE entry = ? AND usable "
                    "ORDER BY uses DESC, clue_key LIMIT ?",
                    (key, limit),
                ).fetchall()
            else:  # verdicts of other rules: this entry's rows judged here, by the current ones
                every = connection.execute(
                    f"SELECT {USE_COLUMNS} FROM clue_uses WHERE entry = ? ORDER BY uses DESC, clue_key",
                    (key,),
                )
                rows = [row for row in every if usable_clue(row[0], key)][:limit]
            sources = self._sources({first for _, first, _ in rows})
        unknown = SourceInfo("", "", "a source missing from the database")
        return [ClueSuggestion(clue, sources.get(first, unknown).describe(), uses) for clue, first, uses in rows]

    def _sources(self, ids: set[int]) -> dict[int, SourceInfo]:
        connection = self._connect(create=False)
        if connection is None or not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = connection.execute(f"SELECT id, {SOURCE_COLUMNS} FROM sources WHERE id IN ({marks})", list(ids))
        return {row[0]: SourceInfo(*row[1:]) for row in rows}

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        """Entry -> its most used usable clue, for the entries the database has one for."""
        wanted = list(dict.fromkeys(normalize_entry(entry) for entry in entries))
        found: dict[str, tuple[int, str, str]] = {}
        with self._guard():
            connection = self._connect(create=False)
            if connection is None:
                return {}
            judged = self._judged
            for start in range(0, len(wanted), BEST_CHUNK):
                chunk = wanted[start : start + BEST_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = connection.execute(
                    f"SELECT entry, CAST(clue_key AS TEXT), COALESCE(CAST(clue AS TEXT), ''), CAST(uses AS INTEGER) "
                    f"FROM clue_uses WHERE entry IN ({marks})" + (" AND usable" if judged else ""),
                    chunk,
                )
                for entry, key, clue, uses in rows:
                    if not judged and not usable_clue(clue, entry):
                        continue
                    # most uses; among equals the first in clue order, as suggestions() has it
                    held = found.get(entry)
                    if held is None or uses > held[0] or (uses == held[0] and key < held[1]):
                        found[entry] = (uses, key, clue)
        return {entry: clue for entry, (_, _, clue) in found.items()}

    def entries(self) -> set[str]:
        """Every entry with at least one clue that may be suggested (by the stored verdicts: until
        :meth:`judge_again` has run, those of the rules that judged the file)."""
        with self._guard():
            connection = self._connect(create=False)
            if connection is None:
                return set()
            rows = connection.execute("SELECT DISTINCT CAST(entry AS TEXT) FROM clue_uses WHERE usable")
            return {row[0] for row in rows}

    def stats(self) -> DatabaseStats:
        """Distinct entries, clue rows and sources, and the file's size (with its WAL)."""
        with self._guard():
            connection = self._connect(create=False)
            if connection is None:
                return DatabaseStats(self.path, 0, 0, 0, 0)
            entries = connection.execute("SELECT COUNT(*) FROM (SELECT DISTINCT entry FROM clues)").fetchone()[0]
            clues = connection.execute("SELECT COUNT(*) FROM clues").fetchone()[0]
            sources = connection.execute("SELECT COUNT(*) FROM sources").fetchone()[0]
        size = sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))
        return DatabaseStats(self.path, entries, clues, sources, size)

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (after a large import: a smaller WAL), and
        leave the file in rollback-journal mode, so that a reader that may not write (a file of
        mode 0444, a read-only folder) needs no shared-memory file beside it. Another process
        still using the file keeps it in WAL mode (it is not waited for)."""
        with self._guard():
            connection = self._connect(create=False)
            if connection is None or not self._writable:
                return
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.execute("PRAGMA busy_timeout = 0")
            try:
                connection.execute("PRAGMA journal_mode = DELETE")
            except sqlite3.OperationalError:
                pass  # busy: another connection reads or writes it; WAL mode stays, which is safe
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
