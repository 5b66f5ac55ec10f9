"""``--clues db|builtin|wordnet|none`` and ``--clue-db`` on the commands that write puzzles
(fill, generate, freeform, batch, convert): where the clues come from, what is said about them,
and the numeric puzzle's clues in every format."""

from __future__ import annotations

import json
import re

import pytest
from csp_crossword.api import import_clues, read_puzzle
from csp_crossword.cli import main
from csp_crossword.clues.rules import reveals
from csp_crossword.core.errors import ExitCode

from conftest import GRIDS

AMERICAN = GRIDS / "american" / "am15-01.txt"
MINI = GRIDS / "demo" / "mini-5x5.txt"
#: Share of a 15x15's entries the shipped clues must cover (the target is 95%).
MOST = 0.9


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def no_user_database(monkeypatch, tmp_path):
    """The user's own database never takes part: the default is a file that is not there."""
    monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(tmp_path / "absent" / "clues.sqlite"))


def test_fill_with_the_shipped_clues(capsys, tmp_path):
    out = tmp_path / "p.puz"
    code, _, err = run(capsys, "fill", AMERICAN, "-o", out, "--clues", "builtin")
    assert code == ExitCode.OK
    entries = read_puzzle(out).entries()
    clued = [(answer, clue) for _, answer, clue in entries if clue]
    assert len(clued) >= MOST * len(entries)
    assert not [(a, c) for a, c in clued if reveals(a, c)]
    said = re.search(r"^clues: (\d+) from the built-in source$", err, re.MULTILINE)
    assert said and int(said.group(1)) == len(clued)
    empty = len(entries) - len(clued)
    if empty:  # the slots left empty are named, as a warning
        assert f"warning: {empty} clue{'s' if empty > 1 else ''} empty: " in err


def test_clues_none_names_the_empty_slots(capsys, tmp_path):
    out = tmp_path / "p.ipuz"
    code, _, err = run(capsys, "fill", MINI, "-o", out, "--clues", "none")
    assert code == ExitCode.OK
    board = read_puzzle(out)
    assert not any(board.clues.values())
    ids = [slot.id for slot in board.grid.slots]
    assert f"csp-crossword: warning: {len(ids)} clues empty: {', '.join(ids)}" in err
    assert "clues: " not in err.replace("clues empty", "")


def test_the_default_is_the_database_then_the_shipped_clues(capsys, tmp_path, monkeypatch):
    # no database: the shipped clues alone, and no complaint about the database
    out = tmp_path / "p.ipuz"
    code, _, err = run(capsys, "fill", MINI, "-o", out)
    assert code == ExitCode.OK and "from the built-in source" in err and "database" not in err
    fill = {slot.id: answer for slot, answer, _ in read_puzzle(out).entries()}

    # a database with a clue for 1A: it comes first, from --clue-db or from the default file
    folder = tmp_path / "files"
    folder.mkdir()
    answer = fill["1A"]
    (folder / "mine.xd").write_text(f"Title: Mine\n\n\n{answer}\n\n\nA1. My own clue ~ {answer}\n", encoding="utf-8")
    db = tmp_path / "clues.sqlite"
    import_clues(folder, db)
    for extra in (["--clue-db", db], []):
        if not extra:
            monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(db))
        code, _, err = run(capsys, "fill", MINI, "-o", out, *extra)
        assert code == ExitCode.OK
        assert read_puzzle(out).clues["1A"] == "My own clue"
        assert re.search(r"^clues: \d+ from the built-in source, 1 from your database$", err, re.MULTILINE)

    # --clue-db naming no file: refused before any work
    code, _, err = run(capsys, "fill", MINI, "-o", out, "--clue-db", tmp_path / "nope.sqlite")
    assert code == ExitCode.BAD_INPUT and "no such file" in err
    # a database with --clues builtin is not read, and the user is told
    code, _, err = run(capsys, "fill", MINI, "-o", out, "--clues", "builtin", "--clue-db", db)
    assert code == ExitCode.OK and "--clue-db is read by --clues db only" in err
    assert read_puzzle(out).clues["1A"] != "My own clue"


def test_the_word_lists_clues_come_first(capsys, tmp_path):
    words = tmp_path / "words.json"  # DOG / NO across, ON / GO down
    words.write_text('{"DOG": "My own dog", "NO": "", "ON": "", "GO": ""}', encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n#..\n", encoding="utf-8")
    out = tmp_path / "p.ipuz"
    code, _, err = run(capsys, "fill", grid, "--words", words, "-o", out, "--clues", "builtin")
    assert code == ExitCode.OK, err
    clues = read_puzzle(out).clues
    assert clues["1A"] == "My own dog" and clues["4A"] and clues["4A"] != "My own dog"
    assert re.search(r"^clues: 3 from the built-in source, 1 from the word list$", err, re.MULTILINE)


@pytest.mark.parametrize("fmt", ["puz", "ipuz", "xd", "json"])
def test_numeric_clues_in_every_format(capsys, tmp_path, fmt):
    out = tmp_path / f"x.{fmt}"
    code, _, err = run(capsys, "generate", "--lexicon", "products", "--size", "5x5", "-o", out)
    assert code == ExitCode.OK, err
    entries = read_puzzle(out).entries()
    assert entries and all(re.fullmatch(r"\d+×\d+( or \d+×\d+)?", clue) for _, _, clue in entries), entries
    for _, answer, clue in entries:  # each clue's products give the answer
        for pair in clue.split(" or "):
            x, y = pair.split("×")
            assert int(x) * int(y) == int(answer)
    assert "empty" not in err


def test_generate_and_freeform_take_the_options(capsys, tmp_path):
    out = tmp_path / "g.ipuz"
    code, _, err = run(capsys, "generate", "--size", "5x5", "-o", out, "--clues", "none", "--time-limit", "20")
    assert code == ExitCode.OK and "clues empty" in err
    assert not any(read_puzzle(out).clues.values())

    words = tmp_path / "animals.txt"
    words.write_text("horse\nmouse\nsnake\ncat\ndog\n", encoding="utf-8")
    out = tmp_path / "f.ipuz"
    code, _, err = run(capsys, "freeform", words, "-o", out, "--clues", "builtin", "--time-limit", "1")
    assert code == ExitCode.OK and "from the built-in source" in err
    board = read_puzzle(out)
    assert all(clue for _, _, clue in board.entries())
    # the text output shows the same clues
    from csp_crossword.clues.builtin import BuiltinClues

    code, text, _ = run(capsys, "freeform", words, "--show", "clues", "--time-limit", "1", "-q")
    assert code == ExitCode.OK and BuiltinClues().clues("HORSE")[0] in text


def test_a_generated_puzzle_file_has_every_clue(capsys, tmp_path):
    """generate -o FILE.puz fills only with entries a clue source has, so no clue is empty;
    --allow-unclued lets the fill use any entry of the list."""
    from csp_crossword.clues.builtin import BuiltinClues

    shipped = BuiltinClues()
    out = tmp_path / "g.puz"
    code, _, err = run(capsys, "generate", "--size", "9x9", "-o", out, "--time-limit", "30")
    assert code == ExitCode.OK, err
    entries = read_puzzle(out).entries()
    assert entries and all(clue for _, _, clue in entries) and "empty" not in err
    # checked against the shipped file itself, not the code that chose the entries
    assert all(shipped.clues(answer) for _, answer, _ in entries)
    assert not [(a, c) for _, a, c in entries if reveals(a, c)]
    assert len({clue for _, _, clue in entries}) >= 0.9 * len(entries)  # hardly a clue twice
    code, _, err = run(capsys, "generate", "--size", "9x9", "-o", out, "--time-limit", "30", "--allow-unclued")
    assert code == ExitCode.OK, err


def test_convert_adds_clues_only_when_asked(capsys, tmp_path):
    source = tmp_path / "p.ipuz"
    assert run(capsys, "fill", MINI, "-o", source, "--clues", "none")[0] == ExitCode.OK
    target = tmp_path / "q.xd"
    code, _, err = run(capsys, "convert", source, target)
    assert code == ExitCode.OK and "clues:" not in err and "empty" not in err
    assert not any(read_puzzle(target).clues.values())
    code, _, err = run(capsys, "convert", source, target, "--clues", "builtin")
    assert code == ExitCode.OK and "from the built-in source" in err
    assert sum(1 for _, _, clue in read_puzzle(target).entries() if clue) >= 8


def test_batch_passes_the_option_to_each_job(capsys, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'[defaults]\ntime_limit = 30\n\n[[fill]]\nname = "mini"\ngrids = "{MINI}"\n\n'
        '[[fill]]\nname = "bare"\nclues = "none"\n'
        f'grids = "{MINI}"\n\n[[generate]]\nname = "nums"\nsize = "5x5"\nnumeric = true\ncount = 1\nformat = "puz"\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    code, _, err = run(capsys, "batch", spec, "--out", out, "--jobs", "1", "--clues", "builtin", "-q")
    assert code == ExitCode.OK, err
    records = {r["job"]: r for r in map(json.loads, (out / "manifest.jsonl").read_text().splitlines())}
    assert records["mini/mini-5x5-s0"]["summary"]["clues_empty"] == []
    assert records["mini/mini-5x5-s0"]["summary"]["clues"]["builtin"] == 10
    assert all(read_puzzle(out / "mini" / "mini-5x5-s0.ipuz").clues.values())
    # a block's own setting wins over the command line's
    assert len(records["bare/mini-5x5-s0"]["summary"]["clues_empty"]) == 10
    assert not any(read_puzzle(out / "bare" / "mini-5x5-s0.ipuz").clues.values())
    numeric = read_puzzle(out / "nums" / "5x5-s0.puz").entries()
    assert all("×" in clue for _, _, clue in numeric)

    bad = tmp_path / "bad.toml"
    bad.write_text(f'[[fill]]\ngrids = "{MINI}"\nclues = "wordlist"\n', encoding="utf-8")
    code, _, err = run(capsys, "batch", bad, "--out", tmp_path / "o2", "-q")
    assert code == ExitCode.BAD_INPUT and "fill[1].clues: 'wordlist'" in err
