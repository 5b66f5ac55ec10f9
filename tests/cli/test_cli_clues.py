"""``csp-crossword clues import PATH...`` and ``csp-crossword clues ENTRY``: output, formats and
exit codes."""

from __future__ import annotations

import json

from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def xd(title: str, dog: str) -> str:
    return (
        f"Title: {title}\nAuthor: Ann Setter\nDate: 2024-03-02\n\n\nDOG\n#NO\n\n\n"
        f"A1. {dog} ~ DOG\nA4. Negative ~ NO\n\nD2. Upon ~ ON\nD3. Leave ~ GO\n"
    )


def test_import_then_look_up(capsys, tmp_path):
    for name, dog in (("a.xd", "Canine"), ("b.xd", "Pet"), ("c.xd", "Canine"), ("d.xd", "Dog days")):
        (tmp_path / name).write_text(xd(name, dog), encoding="utf-8")
    (tmp_path / "broken.puz").write_bytes(b"garbage")
    db = tmp_path / "clues.sqlite"
    code, out, err = run(capsys, "clues", "import", tmp_path, "--db", db)
    assert code == ExitCode.OK
    assert "4 files read, 16 clues added" in out and "1 file skipped" in out
    assert f"warning: skipped {tmp_path / 'broken.puz'}" in err

    code, out, err = run(capsys, "clues", "dog", "--db", db)
    assert code == ExitCode.OK and err == ""
    lines = out.splitlines()
    assert lines[0] == " 1. Canine"
    assert lines[1] == "    2 uses: a.xd, Ann Setter, 2024-03-02 (a.xd) and 1 more"
    assert lines[2] == " 2. Pet" and "Dog days" not in out

    code, out, _ = run(capsys, "clues", "DOG", "--db", db, "--format", "json", "--limit", "1")
    data = json.loads(out)
    assert data["entry"] == "DOG" and data["suggestions"] == [
        {"clue": "Canine", "uses": 2, "source": "a.xd, Ann Setter, 2024-03-02 (a.xd)"}
    ]

    code, out, _ = run(capsys, "clues", "import", tmp_path / "a.xd", "--db", db, "--format", "json")
    data = json.loads(out)
    assert code == ExitCode.OK and data["clues_added"] == 0 and data["already_imported"] == [str(tmp_path / "a.xd")]
    assert data["clues"] == 16 and data["size_bytes"] > 0


def test_no_database_yet(capsys, tmp_path):
    code, out, err = run(capsys, "clues", "DOG", "--db", tmp_path / "none.sqlite")
    assert code == ExitCode.OK and out == ""
    assert "no clue database at" in err and "clues import" in err
    assert not (tmp_path / "none.sqlite").exists()


def test_bad_input_exits_2(capsys, tmp_path):
    db = tmp_path / "clues.sqlite"
    code, _, err = run(capsys, "clues", "import", tmp_path / "missing", "--db", db)
    assert code == ExitCode.BAD_INPUT and "missing: no such file or folder" in err
    code, _, err = run(capsys, "clues", "import", "--db", db)
    assert code == ExitCode.BAD_INPUT and "needs the crossword files" in err
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "broken.xd").write_text("nothing here\n", encoding="utf-8")
    code, _, err = run(capsys, "clues", "import", tmp_path / "only", "--db", db)
    assert code == ExitCode.BAD_INPUT and "broken.xd" in err
    code, _, err = run(capsys, "clues", "DOG", "--db", db, "--limit", "0")
    assert code == ExitCode.BAD_INPUT and "--limit" in err
