"""Theme and cross-reference clues: marked with their kind when imported, kept, and never
suggested; a database written before the kinds existed opens with its rows and hides them too."""

from __future__ import annotations

import sqlite3

import pytest
from csp_crossword.clues.crossrefs import CROSS_REFERENCE, PLAIN, THEME, clue_kind
from csp_crossword.clues.database import SCHEMA_VERSION, ClueDatabase
from csp_crossword.clues.importer import import_files

#: The grid of the puzzle here: DOG over #NO (across DOG, NO; down ON, GO).
ANSWERS = {"A1": "DOG", "A4": "NO", "D2": "ON", "D3": "GO"}


def xd_text(clues: dict[str, str]) -> str:
    """A small .xd puzzle with ``clues`` by xd label (A1, A4, D2, D3)."""
    lines = [f"{label}. {clues[label]} ~ {answer}" for label, answer in ANSWERS.items()]
    return "Title: Themed\n\n\nDOG\n#NO\n\n\n" + "\n".join(lines[:2]) + "\n\n" + "\n".join(lines[2:]) + "\n"


@pytest.mark.parametrize(
    ("clue", "kind"),
    [
        ("*Quaint lodging", THEME),
        ("** Starred twice", THEME),
        ("Hint to the starred clues", THEME),
        ("...and a hint to this puzzle's theme", THEME),
        ("Theme of this puzzle", THEME),
        ("What the circled letters spell", THEME),
        ("Each theme answer, literally", THEME),
        ("See 17-Across", CROSS_REFERENCE),
        ("17-Across", CROSS_REFERENCE),
        ("See 5-Down", CROSS_REFERENCE),
        ("With 23-Down, a fruit", CROSS_REFERENCE),
        ("See 1-, 8- and 12-Across", CROSS_REFERENCE),
        ("Colorful homophone of 18A", CROSS_REFERENCE),
        ("[See note]", CROSS_REFERENCE),
        ("Fruit of a tree", PLAIN),
        ("Theme park ride", PLAIN),
        ("Theme song", PLAIN),
        ("See ya!", PLAIN),
        ("Late hour, 1 a.m.", PLAIN),
        ("Year 50 A.D.", PLAIN),
        ("Catch-22 author", PLAIN),
        ("B-52 bomber", PLAIN),
        ("Route 66, e.g.", PLAIN),
    ],
)
def test_clue_kind(clue, kind):
    assert clue_kind(clue) == kind


def kinds(path) -> dict[tuple[str, str], tuple[str, int]]:
    """(entry, clue) -> (kind, usable) of every stored clue row."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT entry, clue, kind, usable FROM clues").fetchall()
    return {(entry, clue): (kind, usable) for entry, clue, kind, usable in rows}


def test_theme_and_cross_reference_clues_are_stored_but_never_suggested(tmp_path):
    puzzle = {
        "A1": "*Man's best friend",
        "A4": "With 2-Down, a pair",
        "D2": "Atop",
        "D3": "Hint to this puzzle's theme",
    }
    (tmp_path / "themed.xd").write_text(xd_text(puzzle), encoding="utf-8")
    (tmp_path / "list.tsv").write_text("DOG\tSee 1-Across\nDOG\tCanine\nGO\tLeave\n", encoding="utf-8")
    path = tmp_path / "clues.sqlite"
    database = ClueDatabase(path)
    report = import_files([tmp_path / "themed.xd", tmp_path / "list.tsv"], database)
    assert report.clues_added == 7 and report.theme_clues == 4
    assert [s.clue for s in database.suggestions("DOG")] == ["Canine"]
    assert database.suggestions("NO") == [] and [s.clue for s in database.suggestions("GO")] == ["Leave"]
    assert database.best(["DOG", "NO", "GO", "ON"]) == {"DOG": "Canine", "GO": "Leave", "ON": "Atop"}
    assert database.entries() == {"DOG", "GO", "ON"}
    database.close()
    stored = kinds(path)
    assert stored[("DOG", "*Man's best friend")] == (THEME, 0)
    assert stored[("NO", "With 2-Down, a pair")] == (CROSS_REFERENCE, 0)
    assert stored[("DOG", "See 1-Across")] == (CROSS_REFERENCE, 0)
    assert stored[("DOG", "Canine")] == (PLAIN, 1)


def test_a_version_2_database_opens_keeps_its_rows_and_hides_its_theme_clues(tmp_path):
    """A database written before the kinds (schema 2, its theme clue judged usable by the rules of
    its day) is brought up to the current schema on opening, losing nothing."""
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            "CREATE TABLE sources (id INTEGER PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE,"
            " title TEXT NOT NULL DEFAULT '', author TEXT NOT NULL DEFAULT '', date TEXT NOT NULL DEFAULT '',"
            " imported_at TEXT NOT NULL);"
            "CREATE TABLE clues (entry TEXT NOT NULL, clue_key TEXT NOT NULL, source_id INTEGER NOT NULL,"
            " clue TEXT NOT NULL, usable INTEGER NOT NULL, PRIMARY KEY (entry, clue_key, source_id)) WITHOUT ROWID;"
            "CREATE TABLE clue_uses (entry TEXT NOT NULL, clue_key TEXT NOT NULL, clue TEXT NOT NULL,"
            " usable INTEGER NOT NULL, first_source INTEGER NOT NULL, uses INTEGER NOT NULL,"
            " PRIMARY KEY (entry, clue_key)) WITHOUT ROWID;"
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('clue_rules', '3');"
            "INSERT INTO sources VALUES (1, 'p1.xd', 'h1', 'P1', '', '', '2026-01-01');"
            "INSERT INTO sources VALUES (2, 'p2.xd', 'h2', 'P2', '', '', '2026-01-01');"
            "PRAGMA user_version = 2;"
        )
        clues = [
            ("DOG", "canine", 1, "Canine", 1),
            ("DOG", "canine", 2, "Canine", 1),
            ("DOG", "*pet", 1, "*Pet", 1),
            ("DOG", "hint to the starred clues", 2, "Hint to the starred clues", 1),
        ]
        connection.executemany("INSERT INTO clues VALUES (?, ?, ?, ?, ?)", clues)
        uses = [("DOG", "canine", "Canine", 1, 1, 2), ("DOG", "*pet", "*Pet", 1, 1, 1)]
        uses.append(("DOG", "hint to the starred clues", "Hint to the starred clues", 1, 2, 1))
        connection.executemany("INSERT INTO clue_uses VALUES (?, ?, ?, ?, ?, ?)", uses)
    database = ClueDatabase(path)
    assert [(s.clue, s.uses) for s in database.suggestions("DOG")] == [("Canine", 2)]
    assert database.stats().clues == 4 and database.stats().sources == 2
    database.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        rows = connection.execute("SELECT clue, usable, kind FROM clue_uses ORDER BY clue").fetchall()
    assert rows == [("*Pet", 0, THEME), ("Canine", 1, PLAIN), ("Hint to the starred clues", 0, THEME)]
    assert kinds(path)[("DOG", "*Pet")] == (THEME, 0)
    database = ClueDatabase(path)  # opened again: nothing to upgrade, the same answers
    assert [s.clue for s in database.suggestions("DOG")] == ["Canine"]
    database.close()
