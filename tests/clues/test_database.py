"""The clue database: importing crossword files (once each, broken ones reported and skipped),
suggestions most used first with their sources, and never a clue that gives its answer away."""

from __future__ import annotations

import sqlite3

import pytest
from csp_crossword import api
from csp_crossword.clues.database import SCHEMA_VERSION, ClueDatabase, default_database_path
from csp_crossword.clues.importer import crossword_files, import_files
from csp_crossword.clues.records import gives_answer_away, usable_clue
from csp_crossword.core.errors import InputError

from conftest import REALFILES

#: The grid of every small file here: DOG over #NO (across DOG, NO; down ON, GO).
ANSWERS = {"A1": "DOG", "A4": "NO", "D2": "ON", "D3": "GO"}


def xd_text(title: str, clues: dict[str, str], date: str = "") -> str:
    """A small .xd puzzle: ``clues`` by xd label (A1, A4, D2, D3); missing ones get filler clues."""
    header = f"Title: {title}\nAuthor: Ann Setter\n" + (f"Date: {date}\n" if date else "")
    lines = [f"{label}. {clues.get(label, f'Filler {title} {label}')} ~ {answer}" for label, answer in ANSWERS.items()]
    return header + "\n\nDOG\n#NO\n\n\n" + "\n".join(lines[:2]) + "\n\n" + "\n".join(lines[2:]) + "\n"


@pytest.fixture
def archive(tmp_path):
    """Three puzzles: DOG is clued "Canine" three times (one written differently), "Pet" twice,
    "Hound" once; a fourth file (in a sub-folder) is not a crossword suffix and is left alone."""
    folder = tmp_path / "archive"
    (folder / "more").mkdir(parents=True)
    (folder / "one.xd").write_text(xd_text("One", {"A1": "Canine", "D3": "Leave"}, "2024-03-02"), encoding="utf-8")
    (folder / "two.xd").write_text(xd_text("Two", {"A1": "canine ", "D3": "Leave"}), encoding="utf-8")
    (folder / "more" / "three.xd").write_text(xd_text("Three", {"A1": "Canine", "D3": "Depart"}), encoding="utf-8")
    (folder / "more" / "four.xd").write_text(xd_text("Four", {"A1": "Pet"}), encoding="utf-8")
    (folder / "five.xd").write_text(xd_text("Five", {"A1": "Pet"}), encoding="utf-8")
    (folder / "six.xd").write_text(xd_text("Six", {"A1": "Hound"}), encoding="utf-8")
    (folder / "notes.txt").write_text("...\n", encoding="utf-8")
    return folder


def test_suggestions_are_ordered_by_uses_with_a_source(archive, tmp_path):
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([archive], database)
    assert report.files_read == 6 and not report.skipped
    suggestions = database.suggestions("dog")
    assert [(s.clue, s.uses) for s in suggestions] == [("Canine", 3), ("Pet", 2), ("Hound", 1)]
    assert suggestions[0].source == "One, Ann Setter, 2024-03-02 (one.xd)"
    assert [s.clue for s in database.suggestions("DOG", limit=2)] == ["Canine", "Pet"]
    assert database.best(["DOG", "GO", "CAT"]) == {"DOG": "Canine", "GO": "Leave"}
    assert database.entries() == {"DOG", "NO", "ON", "GO"}


def test_reimport_adds_nothing(archive, tmp_path):
    database = ClueDatabase(tmp_path / "clues.sqlite")
    first = import_files([archive], database)
    before = database.stats()
    (archive / "copy.xd").write_bytes((archive / "one.xd").read_bytes())  # the same file, another name
    again = import_files([archive], database)
    assert first.clues_added == before.clues == 6 * 4
    assert again.files_read == 0 and again.clues_added == 0
    assert len(again.already_imported) == 7
    after = database.stats()
    assert (after.entries, after.clues, after.sources) == (before.entries, before.clues, before.sources) == (4, 24, 6)


def test_a_broken_file_is_reported_and_skipped(archive, tmp_path):
    (archive / "broken.puz").write_bytes(b"\x00" * 40 + b"not a puzzle")
    (archive / "bad.xd").write_text("Title: Bad\nnot a header\n\nDOG\n", encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([archive], database)
    assert report.files_read == 6
    skipped = dict(report.skipped)
    assert set(skipped) == {str(archive / "broken.puz"), str(archive / "bad.xd")}
    assert all(reason.startswith(path) for path, reason in skipped.items())  # the message names the file
    assert "bad.xd:2:1" in skipped[str(archive / "bad.xd")]


def test_a_clue_containing_its_answer_is_stored_but_never_suggested(tmp_path):
    clues = {"A1": "Dog days", "A4": "See 2-Down", "D2": "Upon", "D3": "Going places"}
    (tmp_path / "a.xd").write_text(xd_text("A", clues), encoding="utf-8")
    (tmp_path / "b.xd").write_text(xd_text("B", {"A1": "Hot dogs", "A4": "Negative"}), encoding="utf-8")
    database = ClueDatabase(tmp_path / "clues.sqlite")
    import_files([tmp_path / "a.xd", tmp_path / "b.xd"], database)
    assert database.stats().clues == 8  # kept as the files have them
    assert database.suggestions("DOG") == []
    assert [s.clue for s in database.suggestions("NO")] == ["Negative"]  # not the cross-reference
    assert [s.clue for s in database.suggestions("GO")] == ["Filler B D3"]
    assert database.best(["DOG", "GO"]) == {"GO": "Filler B D3"}


@pytest.mark.parametrize(
    ("clue", "answer", "gives"),
    [
        ("Ice age beast", "ICEAGE", True),
        ("Runs in the wash", "RUN", True),
        ("Tamed", "TAME", True),
        ("Rate", "RATED", True),
        ("Dog's dinner", "DOG", True),
        ("Generation", "ERA", True),
        ("Happy days", "HAPPY", True),
        ("Time period", "ERA", False),
        ("Soap additive", "ALOE", False),
    ],
)
def test_gives_answer_away(clue, answer, gives):
    assert gives_answer_away(clue, answer) is gives


def test_cross_references_are_not_usable():
    assert not usable_clue("With 17-Across, a fruit", "PEAR")
    assert not usable_clue("See 4 Down", "PEAR")
    assert usable_clue("Fruit of a tree", "PEAR")


def test_lookups_never_create_the_file(tmp_path):
    database = ClueDatabase(tmp_path / "none.sqlite")
    assert database.suggestions("DOG") == [] and database.best(["DOG"]) == {}
    assert database.stats().clues == 0
    assert not (tmp_path / "none.sqlite").exists()


def test_another_file_is_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    with pytest.raises(InputError, match="not a csp-crossword clue database"):
        ClueDatabase(other).suggestions("DOG")
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(InputError, match=r"garbage\.sqlite"):
        ClueDatabase(garbage).suggestions("DOG")


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.delenv("CSP_CROSSWORD_CLUE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_database_path() == str(tmp_path / "data" / "csp-crossword" / "clues.sqlite")
    monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(tmp_path / "mine.sqlite"))
    assert ClueDatabase().path == str(tmp_path / "mine.sqlite")


def test_missing_path_is_refused_before_anything_is_imported(archive, tmp_path):
    database = ClueDatabase(tmp_path / "clues.sqlite")
    with pytest.raises(InputError, match="no such file or folder"):
        import_files([archive, tmp_path / "missing"], database)
    assert not database.exists()
    assert [p.rsplit("/", 1)[1] for p in crossword_files([archive])] == [
        "five.xd",
        "one.xd",
        "six.xd",
        "two.xd",
        "four.xd",
        "three.xd",
    ]


def test_worker_processes_import_the_same(archive, tmp_path):
    serial, parallel = ClueDatabase(tmp_path / "serial.sqlite"), ClueDatabase(tmp_path / "parallel.sqlite")
    import_files([archive], serial, workers=1)
    report = import_files([archive], parallel, workers=2)
    assert report.files_read == 6
    assert parallel.suggestions("DOG") == serial.suggestions("DOG")
    assert parallel.stats().clues == serial.stats().clues


def test_library_calls(archive, tmp_path):
    path = tmp_path / "api.sqlite"
    report = api.import_clues(archive, path)
    assert report.clues_added == 24
    assert [s.clue for s in api.clue_suggestions("d o g", path, limit=1)] == ["Canine"]
    assert api.clue_database(path).stats().sources == 6
    with pytest.raises(InputError):
        api.clue_suggestions("DOG", path, limit=0)


@pytest.mark.shared
@pytest.mark.skipif(not REALFILES.is_dir(), reason=f"no real files in {REALFILES}")
def test_real_files(tmp_path):
    database = ClueDatabase(tmp_path / "clues.sqlite")
    report = import_files([REALFILES], database)
    skipped = dict(report.skipped)
    assert str(REALFILES / "puzpy__ONE_bad.puz") in skipped
    assert "locked" in skipped[str(REALFILES / "crosshare__nyt_locked.puz")]
    assert report.files_read >= 30 and report.clues_added > 1500
    for entry in ("ONE", "ALOE", "ERA"):
        for suggestion in database.suggestions(entry):
            assert not gives_answer_away(suggestion.clue, entry)
    again = import_files([REALFILES], database)
    assert again.clues_added == 0 and len(again.already_imported) == report.files_read


def recount(path) -> set[tuple]:
    """Every (entry, clue key, first source, uses) counted again from the clue rows themselves."""
    with sqlite3.connect(path) as connection:
        return set(
            connection.execute("SELECT entry, clue_key, MIN(source_id), COUNT(*) FROM clues GROUP BY entry, clue_key")
        )


def stored_counts(path) -> set[tuple]:
    with sqlite3.connect(path) as connection:
        return set(connection.execute("SELECT entry, clue_key, first_source, uses FROM clue_uses"))


def test_the_kept_counts_match_the_clue_rows_over_many_batches(archive, tmp_path, monkeypatch):
    monkeypatch.setattr("csp_crossword.clues.importer.BATCH_FILES", 2)
    path = tmp_path / "clues.sqlite"
    database = ClueDatabase(path)
    import_files([archive / "one.xd", archive / "six.xd"], database)
    import_files([archive], database)
    database.close()
    assert stored_counts(path) == recount(path)
    assert ("DOG", "canine", 1, 3) in stored_counts(path)


def test_a_version_1_database_is_upgraded_with_its_counts(tmp_path):
    """A database written before the kept counts existed opens, gains them, and answers the same."""
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            "CREATE TABLE sources (id INTEGER PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE,"
            " title TEXT NOT NULL DEFAULT '', author TEXT NOT NULL DEFAULT '', date TEXT NOT NULL DEFAULT '',"
            " imported_at TEXT NOT NULL);"
            "CREATE TABLE clues (entry TEXT NOT NULL, clue_key TEXT NOT NULL, source_id INTEGER NOT NULL,"
            " clue TEXT NOT NULL, usable INTEGER NOT NULL, PRIMARY KEY (entry, clue_key, source_id)) WITHOUT ROWID;"
            "PRAGMA user_version = 1;"
        )
        for number in (1, 2, 3):
            connection.execute(
                "INSERT INTO sources VALUES (?, ?, ?, ?, '', '', '2026-01-01')",
                (number, f"p{number}.xd", f"h{number}", f"P{number}"),
            )
        rows = [("DOG", "canine", 1, "Canine", 1), ("DOG", "canine", 3, "CANINE", 1), ("DOG", "pet", 2, "Pet", 1)]
        rows.append(("DOG", "dog days", 2, "Dog days", 0))
        connection.executemany("INSERT INTO clues VALUES (?, ?, ?, ?, ?)", rows)
    database = ClueDatabase(path)
    assert [(s.clue, s.uses, s.source) for s in database.suggestions("DOG")] == [
        ("Canine", 2, "P1 (p1.xd)"),
        ("Pet", 1, "P2 (p2.xd)"),
    ]
    database.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    assert stored_counts(path) == recount(path)


def test_clues_judged_by_earlier_rules_are_judged_again(archive, tmp_path):
    """A database whose verdicts came from other rules: lookups judge the rows they read by the
    current rules (and write nothing), and the next import judges every stored clue again, so a
    clue hidden wrongly comes back and one let through wrongly is hidden."""
    path = tmp_path / "clues.sqlite"
    database = ClueDatabase(path)
    import_files([archive], database)
    database.close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE clue_uses SET usable = 0 WHERE entry = 'DOG' AND clue_key = 'canine'")
        connection.execute("INSERT INTO clue_uses VALUES ('DOG', 'dog days', 'Dog days', 1, 1, 9, '')")
        connection.execute("UPDATE meta SET value = '1' WHERE key = 'clue_rules'")
    database = ClueDatabase(path)
    assert [s.clue for s in database.suggestions("DOG")] == ["Canine", "Pet", "Hound"]
    assert database.best(["DOG"]) == {"DOG": "Canine"}
    database.close()
    assert rules_judged(path) == "1"  # a lookup writes nothing
    import_files([archive], database)  # nothing new to store; the clues judged again all the same
    database.close()
    assert rules_judged(path) != "1"
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT clue_key, usable FROM clue_uses WHERE entry = 'DOG' ORDER BY clue_key")
        assert dict(rows.fetchall()) == {"canine": 1, "dog days": 0, "hound": 1, "pet": 1}


def rules_judged(path) -> str:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT value FROM meta WHERE key = 'clue_rules'").fetchone()[0]
