"""The clue database's tables, how an older database is brought up to them, and how its stored
verdicts are judged again when the rules of :mod:`.records` change.

Schema versions (``PRAGMA user_version``):

1. ``sources`` and ``clues`` (entry, normalised clue, source, wording, usable).
2. ``clue_uses``: per (entry, normalised clue), its number of sources, the first one and its
   wording, so a lookup reads one row per distinct clue.
3. ``kind`` on both clue tables: a theme clue or a cross-reference (:mod:`.crossrefs`), kept but
   never suggested; and the ``meta`` table that records which rules judged the clues.

Upgrading adds what a version lacks in one transaction and never drops a row; the clues are then
judged again (their ``usable`` and ``kind``), since the old file's verdicts came from older rules.
Judging again (:func:`judge_again`) is done by a job that writes (an import), a chunk of rows a
transaction with its place kept in ``meta``: it stops at the job's deadline or at Ctrl-C and the
next run goes on from there. Until it is done, lookups judge the rows they read themselves.
"""

from __future__ import annotations

import os
import sqlite3
import time
from urllib.parse import quote

from ..core.errors import CannotWrite, InputError
from .crossrefs import clue_kind
from .records import RULES_VERSION, usable_clue

#: The schema this module writes; a file of another version is refused, never half-read.
SCHEMA_VERSION = 3
#: Older schemas brought up to SCHEMA_VERSION when they are opened.
UPGRADABLE_VERSIONS = (1, 2)
#: The ``meta`` key holding the RULES_VERSION that judged the stored clues.
RULES_KEY = "clue_rules"
#: The ``meta`` key of an unfinished judging: "RULES_VERSION<TAB>entry<TAB>clue key" of the last
#: row judged, so an interrupted judging goes on after it.
JUDGING_KEY = "clue_rules_judged_to"
#: Rows judged per transaction: each commit keeps its work, and the deadline is checked this
#: often (judging costs tens of microseconds a row, so a chunk takes a fraction of a second).
JUDGE_CHUNK = 5_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',
    date TEXT NOT NULL DEFAULT '',
    imported_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clues (
    entry TEXT NOT NULL,
    clue_key TEXT NOT NULL,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    clue TEXT NOT NULL,
    usable INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (entry, clue_key, source_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clue_uses (
    entry TEXT NOT NULL,
    clue_key TEXT NOT NULL,
    clue TEXT NOT NULL,
    usable INTEGER NOT NULL,
    first_source INTEGER NOT NULL,
    uses INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (entry, clue_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
SET_META = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
#: How a version 1 database gets its counts from its clue rows. SQLite takes the bare ``clue``,
#: ``usable`` and ``kind`` from the row of MIN(source_id): the first source that gave the clue.
USES_FROM_CLUES = """
INSERT INTO clue_uses (entry, clue_key, clue, usable, kind, first_source, uses)
SELECT entry, clue_key, clue, usable, kind, MIN(source_id), COUNT(*) FROM clues GROUP BY entry, clue_key
"""


#: Milliseconds a writer waits for another one (two imports at once) before giving up.
BUSY_TIMEOUT_MS = 10_000
#: Words in SQLite's messages for: another connection holds the lock; the file cannot be written.
BUSY_WORDS = ("locked", "busy")
WRITE_WORDS = ("readonly", "read-only", "full", "disk i/o")
OPEN_WORDS = ("unable to open",)


class DatabaseBusy(CannotWrite):
    """Another process kept the clue database locked for longer than BUSY_TIMEOUT_MS (exit 73)."""


def open_connection(path: str, writable: bool) -> sqlite3.Connection:
    """A connection to the file at ``path``: read-write (the file made when missing) or read-only
    (``mode=ro``: nothing is ever written, so a file of mode 0444 or in a read-only folder can be
    read). A read-only WAL file whose folder does not let SQLite make its shared-memory file is
    opened as immutable: nobody can write it there either."""
    uri = "file:" + quote(os.path.abspath(path)) + ("?mode=rwc" if writable else "?mode=ro")
    try:
        connection = _open(uri)
    except sqlite3.OperationalError:
        if writable:
            raise
        connection = _open(uri + "&immutable=1")
    return connection


def _open(uri: str) -> sqlite3.Connection:
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    # a damaged page may hold text that is no UTF-8: read with U+FFFD rather than fail the row
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens the file now
    except BaseException:
        connection.close()
        raise
    return connection


def database_error(error: sqlite3.DatabaseError, path: str) -> Exception:
    """The error to raise for SQLite's ``error`` on the clue database at ``path``."""
    text = str(error)
    lowered = text.casefold()
    if isinstance(error, sqlite3.OperationalError) and any(word in lowered for word in BUSY_WORDS):
        return DatabaseBusy(
            f"{path}: the clue database is busy: another process kept it locked for "
            f"{BUSY_TIMEOUT_MS / 1000:g} s (an import?); nothing more was stored: run this again when it is done"
        )
    if isinstance(error, sqlite3.OperationalError) and any(word in lowered for word in WRITE_WORDS):
        return CannotWrite(f"{path}: cannot write the clue database ({text})")
    if isinstance(error, sqlite3.OperationalError) and any(word in lowered for word in OPEN_WORDS):
        return InputError(f"cannot open the clue database ({text})", path)
    return InputError(
        f"the clue database is damaged or not a database ({text}): restore a copy, or import the files "
        "again into a new one",
        path,
    )


def create_or_upgrade(connection: sqlite3.Connection) -> None:
    """Create the tables of an empty file, or bring a version 1 or 2 database up to
    SCHEMA_VERSION, in one transaction (an error leaves the file as it was). The version is read
    again under the write lock: another process may have upgraded the file meanwhile."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(connection)
        if version == SCHEMA_VERSION:
            connection.execute("COMMIT")
            return
        if version in (1, 2):
            connection.execute("ALTER TABLE clues ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
        if version == 2:
            connection.execute("ALTER TABLE clue_uses ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        if version == 1:
            connection.execute(USES_FROM_CLUES)
        # an older file's verdicts are older than the kinds: judge them all again; a new file's
        # rows will all be judged by the current rules
        connection.execute("DELETE FROM meta WHERE key IN (?, ?)", (RULES_KEY, JUDGING_KEY))
        if version == 0:
            connection.execute(SET_META, (RULES_KEY, str(RULES_VERSION)))
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def known_schema(connection: sqlite3.Connection, path: str) -> int:
    """The file's schema version: 0 for an empty file, else one this module writes or upgrades.

    Raises:
        InputError: a file of a newer release, or a database of another program."""
    connection.execute("BEGIN")  # the version and the tables as of one moment (another import may make them)
    version = schema_version(connection)
    tables = connection.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    connection.execute("COMMIT")
    if version > SCHEMA_VERSION:
        raise InputError(
            f"made by a newer csp-crossword (schema {version}); this one reads up to {SCHEMA_VERSION}: "
            "upgrade csp-crossword to use it",
            path,
        )
    if version not in (0, SCHEMA_VERSION, *UPGRADABLE_VERSIONS) or (version == 0 and tables):
        raise InputError(f"not a csp-crossword clue database (schema version {version})", path)
    return version


def schema_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def judged_by_current_rules(connection: sqlite3.Connection) -> bool:
    """Whether every stored verdict comes from :data:`.records.RULES_VERSION`."""
    found = connection.execute("SELECT value FROM meta WHERE key = ?", (RULES_KEY,)).fetchone()
    return found is not None and found[0] == str(RULES_VERSION)


def judge_again(connection: sqlite3.Connection, deadline: float | None = None) -> bool:
    """Judge the stored clues again (``usable`` and ``kind``) when the database was judged by
    other rules than :data:`.records.RULES_VERSION`: a clue the earlier rules hid wrongly ("Killer
    whale" for ORCA) is offered, one they let through (a theme clue) is hidden, with no new
    import. JUDGE_CHUNK rows a transaction, in key order, the last one judged kept in ``meta``;
    stops between chunks once ``time.monotonic()`` passes ``deadline``. Returns whether every
    row is judged (the next call goes on where this one stopped)."""
    if judged_by_current_rules(connection):
        return True
    found = connection.execute("SELECT value FROM meta WHERE key = ?", (JUDGING_KEY,)).fetchone()
    version, entry, key = (found[0].split("\t") + ["", ""])[:3] if found else ("", "", "")
    if version != str(RULES_VERSION):
        entry = key = ""  # judged by yet other rules: from the start
    while True:
        if deadline is not None and time.monotonic() >= deadline:
            return False
        connection.execute("BEGIN IMMEDIATE")
        try:
            rows = connection.execute(
                "SELECT entry, clue_key, clue, usable, kind FROM clue_uses WHERE (entry, clue_key) > (?, ?) "
                "ORDER BY entry, clue_key LIMIT ?",
                (entry, key, JUDGE_CHUNK),
            ).fetchall()
            changed = []
            for entry, key, clue, usable, kind in rows:
                new_kind = clue_kind(clue)
                verdict = usable_clue(clue, entry, new_kind)
                if verdict != bool(usable) or new_kind != kind:
                    changed.append((verdict, new_kind, entry, key))
            update = "SET usable = ?, kind = ? WHERE entry = ? AND clue_key = ?"
            connection.executemany(f"UPDATE clue_uses {update}", changed)
            connection.executemany(f"UPDATE clues {update}", changed)
            done = len(rows) < JUDGE_CHUNK
            if done:
                connection.execute("DELETE FROM meta WHERE key = ?", (JUDGING_KEY,))
                connection.execute(SET_META, (RULES_KEY, str(RULES_VERSION)))
            else:
                connection.execute(SET_META, (JUDGING_KEY, "\t".join((str(RULES_VERSION), entry, key))))
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        if done:
            return True
