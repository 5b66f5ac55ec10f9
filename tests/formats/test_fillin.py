"""Fill-in puzzles: every listed word exactly as often as listed."""

import json

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.formats.fillin import parse_fill_in

from bruteforce import solutions

SEED = """+-++++++++
+-++++++++
+-++++++++
+-----++++
+-+++-++++
+-+++-++++
+++++-++++
++------++
+++++-++++
+++++-++++
LONDON;DELHI;ICELAND;ANKARA
"""


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_seed_example_is_solved_with_its_symbols(capsys, write):
    code, out, _ = run(capsys, "fill", write("p.txt", SEED))
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "+L++++++++" and rows[3] == "+DELHI++++" and rows[7] == "++ANKARA++"
    assert "".join(r[1] for r in rows[:6]) == "LONDON"


def test_seed_example_json_uses_hash_blocks(capsys, write):
    code, out, _ = run(capsys, "fill", write("p.txt", SEED), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["grid"][0] == "#L########"
    assert sorted(e["answer"] for e in data["entries"]) == ["ANKARA", "DELHI", "ICELAND", "LONDON"]


def test_word_listed_twice_is_used_twice(capsys, write):
    text = ".##.\n....\n.##.\nTOT;TOT;OLEO\n"
    rows = [".##.", "....", ".##."]
    assert any(True for _ in solutions(rows, {"TOT", "OLEO"}, True))
    code, out, _ = run(capsys, "fill", write("p.txt", text), "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert sorted(e["answer"] for e in data["entries"]) == ["OLEO", "TOT", "TOT"]
    # listed once, TOT cannot fill both down slots
    assert run(capsys, "fill", write("q.txt", ".##.\n....\n.##.\nTOT;OLEO;OLEO\n"))[0] == 1


def test_count_mismatch_is_unsatisfiable_with_reason(capsys, write):
    code, _, err = run(capsys, "fill", write("p.txt", "....\n#..#\nLOOK;BOOK\n"))
    assert code == 1 and "length 2" in err


def test_every_word_must_be_used(capsys, write):
    # two 3-letter slots, three 3-letter words: no exact fill
    code, _, _ = run(capsys, "fill", write("p.txt", "...\n#.#\n#.#\nCAT;AXE;OWL\n"))
    assert code == 1


def test_count_and_check_accept_fill_in(capsys, write):
    path = write("p.txt", SEED)
    code, out, _ = run(capsys, "count", path)
    assert code == 0 and out.strip() == "1 fill"
    code, out, _ = run(capsys, "check", path, "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "solvable"


def test_exact_flag_with_own_grid_format(capsys, write):
    words = write("w.txt", "LONDON\nDELHI\nICELAND\nANKARA\n")
    grid = write("g.txt", SEED.replace("+", "#").replace("-", ".").rsplit("\n", 2)[0] + "\n")
    code, out, _ = run(capsys, "fill", grid, "--exact", "--words", words)
    assert code == 0 and "DELHI" in out


def test_block_symbol_comes_from_the_grid_not_the_words():
    puzzle = parse_fill_in("X-X\n---\nX-X\nXYZ;AXE\n", block="X")
    assert puzzle.block == "X" and puzzle.words == ("XYZ", "AXE")
    assert len(puzzle.grid.slots) == 2


def test_bad_word_is_located():
    with pytest.raises(InputError) as caught:
        parse_fill_in("---\nCAT; A/B\n", "p.txt")
    assert (caught.value.line, caught.value.column) == (2, 6)
