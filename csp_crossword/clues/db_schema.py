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
"""

from __future__ import annotations

import sqlite3

from .crossrefs import clue_kind
from .records import RULES_VERSION, usable_clue

#: The schema this module writes; a file of another version is refused, never half-read.
SCHEMA_VERSION = 3
#: Older schemas brought up to SCHEMA_VERSION when they are opened.
UPGRADABLE_VERSIONS = (1, 2)
#: The ``meta`` key holding the RULES_VERSION that judged the stored clues.
RULES_KEY = "clue_rules"
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
#: How a version 1 database gets its counts from its clue rows. SQLite takes the bare ``clue``,
#: ``usable`` and ``kind`` from the row of MIN(source_id): the first source that gave the clue.
USES_FROM_CLUES = """
INSERT INTO clue_uses (entry, clue_key, clue, usable, kind, first_source, uses)
SELECT entry, clue_key, clue, usable, kind, MIN(source_id), COUNT(*) FROM clues GROUP BY entry, clue_key
"""


def create_or_upgrade(connection: sqlite3.Connection, version: int) -> None:
    """Create the tables of an empty file (``version`` 0), or bring a version 1 or 2 database up
    to SCHEMA_VERSION, in one transaction (an error leaves the file as it was)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if version in (1, 2):
            connection.execute("ALTER TABLE clues ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
        if version == 2:
            connection.execute("ALTER TABLE clue_uses ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        if version == 1:
            connection.execute(USES_FROM_CLUES)
        # the stored verdicts are older than the kinds: judge them all again
        connection.execute("DELETE FROM meta WHERE key = ?", (RULES_KEY,))
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def judge_again(connection: sqlite3.Connection) -> None:
    """Judge every stored clue again (``usable`` and ``kind``) when the database was judged by
    other rules than :data:`.records.RULES_VERSION`: a clue the earlier rules hid wrongly ("Killer
    whale" for ORCA) is offered, one they let through (a theme clue) is hidden, with no new
    import. A file that cannot be written keeps its verdicts."""
    try:
        found = connection.execute("SELECT value FROM meta WHERE key = ?", (RULES_KEY,)).fetchone()
        if found is not None and found[0] == str(RULES_VERSION):
            return
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:  # read-only
        return
    try:
        changed = []
        rows = connection.execute("SELECT entry, clue_key, clue, usable, kind FROM clue_uses")
        for entry, key, clue, usable, kind in rows:
            new_kind = clue_kind(clue)
            verdict = usable_clue(clue, entry, new_kind)
            if verdict != bool(usable) or new_kind != kind:
                changed.append((verdict, new_kind, entry, key))
        update = "SET usable = ?, kind = ? WHERE entry = ? AND clue_key = ?"
        connection.executemany(f"UPDATE clue_uses {update}", changed)
        connection.executemany(f"UPDATE clues {update}", changed)
        connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (RULES_KEY, str(RULES_VERSION)))
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
