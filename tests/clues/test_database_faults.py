"""The clue database under faults: damaged and foreign files, read-only files, two writers at once,
imports and judging stopped half-way, files that are no files, and clue text that would act on a
terminal. Each failure is a clear message with the documented exit code; nothing is lost."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time

import pytest
from csp_crossword.cli import main
from csp_crossword.clues import db_schema
from csp_crossword.clues.database import ClueDatabase
from csp_crossword.clues.importer import ImportReport, import_files
from csp_crossword.core.errors import CannotWrite, ExitCode, InputError
from csp_crossword.formats import read_crossword, write_crossword
from test_database import recount, stored_counts, xd_text

#: Files in the small archives below.
ARCHIVE_FILES = 12


@pytest.fixture
def archive(tmp_path):
    """ARCHIVE_FILES small puzzles, each with clues of its own."""
    folder = tmp_path / "archive"
    folder.mkdir()
    for number in range(ARCHIVE_FILES):
        clues = {"A1": f"Canine {number}", "D3": f"Leave {number % 3}"}
        (folder / f"p{number:02}.xd").write_text(xd_text(f"P{number}", clues), encoding="utf-8")
    return folder


@pytest.fixture
def database_file(archive, tmp_path):
    """A database of the archive, closed (its file in rollback-journal mode, as an import leaves it)."""
    path = tmp_path / "clues.sqlite"
    assert main(["clues", "import", str(archive), "--db", str(path), "-q"]) == ExitCode.OK
    return path


def damaged_copies(good, folder):
    """name -> a damaged copy of the database file ``good``."""
    data = good.read_bytes()
    page = 4096
    bad_page = bytearray(data)
    bad_page[page : 3 * page] = b"\x5a" * (2 * page)
    copies = {"truncated": data[: len(data) // 2], "bad-page": bytes(bad_page), "not-sqlite": b"hello\n" * 300}
    for name, content in copies.items():
        (folder / f"{name}.sqlite").write_bytes(content)
    return {name: folder / f"{name}.sqlite" for name in copies}


@pytest.mark.parametrize("damage", ["truncated", "bad-page", "not-sqlite"])
def test_a_damaged_file_is_a_clear_error(database_file, tmp_path, capsys, damage):
    path = damaged_copies(database_file, tmp_path)[damage]
    # every entry is asked for, so that the damaged pages are read whatever their place
    codes = {main(["clues", entry, "--db", str(path)]) for entry in ("DOG", "GO", "NO", "ON")}
    err = capsys.readouterr().err
    assert codes == {ExitCode.BAD_INPUT}
    assert f"{path}: the clue database is damaged or not a database" in err
    assert "internal error" not in err and "Traceback" not in err


def test_an_import_into_a_damaged_file_is_a_clear_error(database_file, tmp_path, capsys):
    path = damaged_copies(database_file, tmp_path)["truncated"]
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "new.xd").write_text(xd_text("New", {"A1": "Hound"}), encoding="utf-8")
    code = main(["clues", "import", str(tmp_path / "extra"), "--db", str(path)])
    err = capsys.readouterr().err
    assert code == ExitCode.BAD_INPUT and "the clue database is damaged" in err and "Traceback" not in err


def test_a_database_of_a_newer_release_says_so(database_file):
    with sqlite3.connect(database_file) as connection:
        connection.execute(f"PRAGMA user_version = {db_schema.SCHEMA_VERSION + 1}")
    with pytest.raises(InputError, match=rf"made by a newer csp-crossword \(schema {db_schema.SCHEMA_VERSION + 1}\); "):
        ClueDatabase(database_file).suggestions("DOG")


def test_reading_never_writes(database_file):
    """Lookups on a file of mode 0444 judged by older rules (which a writing open would judge
    again) leave it byte for byte as it was, its rows and verdicts too, and make no file beside it."""
    connection = sqlite3.connect(database_file)
    connection.execute("UPDATE meta SET value = '1' WHERE key = 'clue_rules'")
    connection.commit()
    connection.close()
    os.chmod(database_file, 0o444)
    stored = verdicts(database_file)
    before = (database_file.read_bytes(), os.stat(database_file).st_mtime_ns, sorted(os.listdir(database_file.parent)))
    database = ClueDatabase(database_file)
    assert [s.clue for s in database.suggestions("DOG", limit=2)] == ["Canine 0", "Canine 1"]
    assert database.best(["GO"]) == {"GO": "Leave 0"}
    assert "DOG" in database.entries() and database.stats().sources == ARCHIVE_FILES
    database.close()
    after = (database_file.read_bytes(), os.stat(database_file).st_mtime_ns, sorted(os.listdir(database_file.parent)))
    assert after == before and verdicts(database_file) == stored
    with sqlite3.connect(database_file) as connection:
        assert connection.execute("SELECT value FROM meta WHERE key = 'clue_rules'").fetchone()[0] == "1"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder all the same")
@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_database_in_a_read_only_folder_is_read(database_file, journal):
    """Neither a rollback-journal file nor a WAL one (whose readers need a shared-memory file
    beside it, which cannot be made there) stops a lookup in a folder that cannot be written."""
    with contextlib.closing(sqlite3.connect(database_file)) as connection:
        connection.execute(f"PRAGMA journal_mode = {journal}")
    folder = database_file.parent
    os.chmod(folder, 0o555)
    try:
        with ClueDatabase(database_file) as database:
            assert [s.clue for s in database.suggestions("DOG", limit=1)] == ["Canine 0"]
    finally:
        os.chmod(folder, 0o755)


def test_two_imports_at_once_both_store_everything(tmp_path, monkeypatch):
    monkeypatch.setattr("csp_crossword.clues.importer.BATCH_FILES", 1)  # many short transactions
    folders = []
    for side in ("left", "right"):
        folder = tmp_path / side
        folder.mkdir()
        for number in range(30):
            (folder / f"{number}.xd").write_text(xd_text(f"{side} {number}", {"A1": f"{side} {number}"}), "utf-8")
        folders.append(folder)
    path = tmp_path / "clues.sqlite"
    errors: list[BaseException] = []

    def run(folder):
        try:
            with ClueDatabase(path) as database:
                import_files([folder], database)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(folder,)) for folder in folders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with ClueDatabase(path) as database:
        assert database.stats().sources == 60
    assert stored_counts(path) == recount(path)


def test_an_import_blocked_too_long_says_the_database_is_busy(database_file, tmp_path, monkeypatch, capsys):
    """Another writer holding the lock past the busy timeout: exit 73, the database named busy, the
    files skipped still named, and nothing half-stored."""
    monkeypatch.setattr(db_schema, "BUSY_TIMEOUT_MS", 50)
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "new.xd").write_text(xd_text("New", {"A1": "Hound"}), encoding="utf-8")
    (tmp_path / "more" / "broken.puz").write_bytes(b"\x00" * 60)
    holder = sqlite3.connect(database_file, isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")  # as during another import: readers go on
    holder.execute("BEGIN IMMEDIATE")
    try:
        code = main(["clues", "import", str(tmp_path / "more"), "--db", str(database_file)])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert code == ExitCode.CANNOT_WRITE
    assert "the clue database is busy" in err and "broken.puz" in err and "Traceback" not in err
    with pytest.raises(CannotWrite):  # the library raises it too
        holder = sqlite3.connect(database_file, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            import_files([tmp_path / "more"], ClueDatabase(database_file))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert main(["clues", "import", str(tmp_path / "more"), "--db", str(database_file), "-q"]) == ExitCode.OK
    assert ClueDatabase(database_file).stats().sources == ARCHIVE_FILES + 1


def test_an_interrupted_import_is_consistent_and_a_rerun_completes_it(archive, tmp_path, monkeypatch):
    monkeypatch.setattr("csp_crossword.clues.importer.BATCH_FILES", 4)
    path = tmp_path / "clues.sqlite"

    def stop_at_ten(done: int, _total: int) -> None:
        if done == 10:
            raise KeyboardInterrupt

    report = ImportReport()
    with pytest.raises(KeyboardInterrupt):
        import_files([archive], ClueDatabase(path), progress=stop_at_ten, report=report)
    assert (report.files_read, report.files_stored) == (10, 8)
    assert stored_counts(path) == recount(path)
    with ClueDatabase(path) as database:
        assert database.stats().sources == 8  # two batches of 4 stored; the third rolled back
        again = import_files([archive], database)
        assert (again.files_read, len(again.already_imported)) == (4, 8)
        stats = database.stats()
    whole = ClueDatabase(tmp_path / "whole.sqlite")
    import_files([archive], whole)
    expected = whole.stats()
    assert (stats.sources, stats.clues, stats.entries) == (expected.sources, expected.clues, expected.entries)
    assert stored_counts(path) == recount(path)


def verdicts(path) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT entry, clue_key, usable, kind FROM clue_uses ORDER BY 1, 2").fetchall()


def test_judging_again_keeps_its_place_and_its_deadline(database_file, monkeypatch):
    """Judging again after a rules change, stopped half-way (Ctrl-C), keeps the chunks done, and
    goes on from there; a deadline already past judges nothing."""
    judged = verdicts(database_file)
    with sqlite3.connect(database_file) as connection:
        connection.execute("UPDATE clue_uses SET usable = 1 - usable")
        connection.execute("UPDATE meta SET value = '1' WHERE key = 'clue_rules'")
    monkeypatch.setattr(db_schema, "JUDGE_CHUNK", 3)
    with ClueDatabase(database_file) as database:
        assert database.judge_again(deadline=time.monotonic() - 1) is False
    assert verdicts(database_file) != judged
    calls = []
    real = db_schema.usable_clue

    def stop_in_the_third_chunk(*args):
        calls.append(args)
        if len(calls) == 8:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(db_schema, "usable_clue", stop_in_the_third_chunk)
    with pytest.raises(KeyboardInterrupt), ClueDatabase(database_file) as database:
        database.judge_again()
    with sqlite3.connect(database_file) as connection:
        place = connection.execute("SELECT value FROM meta WHERE key = ?", (db_schema.JUDGING_KEY,)).fetchone()[0]
    assert place.split("\t")[1:] == [judged[5][0], judged[5][1]]  # after two chunks of 3
    assert verdicts(database_file)[:6] == judged[:6] and verdicts(database_file)[6:] != judged[6:]
    monkeypatch.setattr(db_schema, "usable_clue", real)
    calls.clear()
    with ClueDatabase(database_file) as database:
        assert database.judge_again() is True
    assert verdicts(database_file) == judged


def test_fifos_and_missing_files_are_skipped_not_waited_for(archive, tmp_path):
    os.mkfifo(archive / "pipe.xd")
    os.mkfifo(tmp_path / "given.tsv")
    os.symlink(tmp_path / "nowhere.xd", archive / "dangling.xd")
    reports = []
    worker = threading.Thread(
        target=lambda: reports.append(
            import_files([archive, tmp_path / "given.tsv"], ClueDatabase(tmp_path / "clues.sqlite"))
        ),
        daemon=True,
    )
    worker.start()
    worker.join(60)
    assert reports, "the import waited on a FIFO"
    skipped = dict(reports[0].skipped)
    assert "not a regular file (a FIFO)" in skipped[str(archive / "pipe.xd")]
    assert "not a regular file (a FIFO)" in skipped[str(tmp_path / "given.tsv")]
    assert "cannot read" in skipped[str(archive / "dangling.xd")]
    assert reports[0].files_read == ARCHIVE_FILES


def hostile_ipuz(tmp_path):
    """An .ipuz whose title and clue hold JSON escapes: ESC, a C1 control (CSI), a paragraph
    separator, a right-to-left override."""
    xd = tmp_path / "seed.xd"
    xd.write_text(xd_text("Seed", {}), encoding="utf-8")
    path = tmp_path / "hostile.ipuz"
    write_crossword(path, read_crossword(xd))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["title"] = "Title \x1b]0;owned\x07 here"
    clues = data["clues"]["Across"]
    first = clues[0]
    hostile = "Opera solo\x1b[2J\x9b31m\u2029\u202e end"
    if isinstance(first, dict):
        first["clue"] = hostile
    else:
        clues[0] = [first[0], hostile]
    path.write_text(json.dumps(data, ensure_ascii=True), encoding="ascii")
    return path


def test_escaped_text_is_stored_and_never_reaches_the_terminal_raw(tmp_path, capsys):
    path = tmp_path / "clues.sqlite"
    assert main(["clues", "import", str(hostile_ipuz(tmp_path)), "--db", str(path), "-q"]) == ExitCode.OK
    capsys.readouterr()
    assert main(["clues", "DOG", "--db", str(path)]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "Opera solo\\x1b[2J\\x9b31m\\u2029\\u202e end" in out
    assert "Title \\x1b]0;owned\\x07 here" in out
    assert not any(char in out for char in "\x1b\x07\x9b\u2029\u202e")
    assert main(["clues", "DOG", "--db", str(path), "--format", "json"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert not any(char in out for char in "\x1b\x9b\u2029\u202e")
    clue = json.loads(out)["suggestions"][0]["clue"]
    assert clue == "Opera solo\x1b[2J\x9b31m\u2029\u202e end"  # the same text, escaped in JSON


def test_a_file_name_not_in_utf8_is_stored(archive, tmp_path, capsys):
    """A file name that is no UTF-8 (a lone surrogate in Python) is stored with U+FFFD in its place."""
    os.rename(archive / "p00.xd", os.path.join(os.fsencode(archive), b"caf\xe9.xd"))
    path = tmp_path / "clues.sqlite"
    assert main(["clues", "import", str(archive), "--db", str(path), "-q"]) == ExitCode.OK
    assert main(["clues", "DOG", "--db", str(path), "--limit", "20"]) == ExitCode.OK
    assert "(caf\ufffd.xd)" in capsys.readouterr().out


def test_workers_are_stopped_at_ctrl_c(archive, tmp_path):
    import multiprocessing

    def stop_at_once(_done: int, _total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_files([archive], ClueDatabase(tmp_path / "clues.sqlite"), progress=stop_at_once, workers=2)
    assert multiprocessing.active_children() == []


def test_a_limit_past_sqlite_integers_lists_every_clue(database_file, capsys):
    assert main(["clues", "DOG", "--db", str(database_file), "--limit", str(2**64)]) == ExitCode.OK
    assert capsys.readouterr().out.count(" use: ") == ARCHIVE_FILES


def test_an_empty_file_reads_as_an_empty_database(archive, tmp_path):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    with ClueDatabase(path) as database:
        assert database.suggestions("DOG") == [] and database.entries() == set()
        assert database.stats().clues == 0 and path.stat().st_size == 0  # read, not written
        assert import_files([archive], database).files_read == ARCHIVE_FILES
        assert database.stats().sources == ARCHIVE_FILES


def test_values_of_the_wrong_type_are_shown_not_crashed_on(database_file, capsys):
    """A damaged page can hold a BLOB where text was, text that is no UTF-8, or a clue whose first
    source is gone: each lookup still shows what it can."""
    with contextlib.closing(sqlite3.connect(database_file)) as connection:
        connection.execute("UPDATE clue_uses SET clue = X'ff1b00' WHERE entry = 'DOG' AND clue_key = 'canine 0'")
        connection.execute("UPDATE sources SET title = CAST(X'c3' AS TEXT) WHERE id = 2")
        connection.execute("DELETE FROM sources WHERE id = 3")
        connection.commit()
    assert main(["clues", "DOG", "--db", str(database_file), "--limit", "20"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "\ufffd\\x1b\\x00" in out and "a source missing from the database" in out and "P1\ufffd" not in out
    assert "\ufffd, Ann Setter" in out


def test_a_schema_damaged_into_bytes_that_are_no_utf8_is_a_clear_error(database_file, capsys):
    """SQLite's error then quotes those bytes, which Python cannot decode as its message."""
    data = bytearray(database_file.read_bytes())
    at = data.index(b"(", data.index(b"CREATE TABLE sources"))
    data[at] = 0xB8
    database_file.write_bytes(bytes(data))
    assert main(["clues", "DOG", "--db", str(database_file)]) == ExitCode.BAD_INPUT
    assert "the clue database is damaged: its schema is not text" in capsys.readouterr().err
