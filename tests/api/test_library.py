"""The grid library and the README's main command."""

import json
import re
import subprocess
import sys

import pytest
from csp_crossword import api
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon

from conftest import GRIDS, ROOT


def test_manifest_lists_every_grid_file():
    manifest = json.loads((GRIDS / "manifest.json").read_text())
    listed = {entry["file"] for entry in manifest}
    on_disk = {str(p.relative_to(ROOT)) for p in GRIDS.rglob("*.txt")}
    assert listed == on_disk
    for entry in manifest:
        grid = read_grid(ROOT / entry["file"])
        assert entry["size"] == f"{grid.rows}x{grid.cols}"
        assert entry["source"] and entry["licence"]


def test_american_patterns_follow_the_rules():
    for path in sorted((GRIDS / "american").glob("*.txt")):
        stats = read_grid(path).stats()
        assert stats.symmetric_180 and stats.connected
        assert stats.unchecked_cells == 0 and min(stats.length_histogram) >= 3
        assert 72 <= stats.slots <= 78, path


def test_readme_main_command_fills_a_15x15(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "csp_crossword", "fill", str(GRIDS / "american" / "am15-01.txt")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()
    assert len(rows) == 15 and "." not in proc.stdout
    grid = read_grid(GRIDS / "american" / "am15-01.txt")
    cells = parse_grid(proc.stdout).cells
    assert verify_fill(grid, cells, builtin_lexicon("en")) == []


@pytest.mark.parametrize("name, lang", [("arabic-5x5", "ar"), ("bangla-4x4", "bn")])
def test_language_demos_fill(name, lang, capsys):
    # in this process: the README's main command above runs the installed program itself
    code = main(["fill", str(GRIDS / "demo" / f"{name}.txt"), "--lang", lang, "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    grid = read_grid(GRIDS / "demo" / f"{name}.txt", rtl=lang == "ar")
    cells = tuple(tuple(row) for row in data["cells"])
    assert verify_fill(grid, cells, builtin_lexicon(lang)) == []
    if lang == "ar":
        # numbering starts at the top right; across answers read right to left
        assert {(e["row"], e["col"]) for e in data["entries"] if e["number"] == 1} == {(0, 4)}
        across = [e for e in data["entries"] if e["direction"] == "across"]
        assert across
        for e in across:
            read = "".join(data["cells"][e["row"]][e["col"] - i] for i in range(e["length"]))
            assert read == e["answer"]


LIBRARY_MISUSE = [
    ("a grid that is None", lambda: api.fill(None), "a grid is a Grid, grid text or a path"),
    ("a grid that is a number", lambda: api.fill(42), "not int"),
    ("a path to no file", lambda: api.fill("nowhere/grid.txt"), "no such file"),
    ("stop=True", lambda: api.fill("...\n...", stop=True), "stop must be None or a threading.Event"),
    ("a time limit as text", lambda: api.fill("...\n...", time_limit="1"), "time_limit must be a number"),
    ("a negative time limit", lambda: api.count("...\n...", time_limit=-1), "0 or more seconds"),
    ("a NaN deadline", lambda: api.check("...\n...", deadline=float("nan")), "deadline must be a number"),
    ("a slot that is a number", lambda: api.candidates("...\n...", 3), "a slot is named by its id"),
    ("words that are numbers", lambda: api.fill("...\n...", [1, 2]), "words must be text"),
    ("one string of words", lambda: api.fill("...\n...", "CAT"), "not str"),
    ("a NaN override", lambda: api.load_words(overrides={"CAT": float("nan")}), "whole number"),
    ("a huge override", lambda: api.load_words(overrides={"CAT": 2**100}), "whole number"),
    ("a fractional override", lambda: api.load_words(overrides={"CAT": 1.5}), "whole number"),
    ("a word that is a number", lambda: api.load_words(overrides={3: 4}), "not a word"),
    ("a huge generated grid", lambda: api.generate(10**6, 10**6), "write ROWSxCOLS, whole numbers from 2 to 50"),
    ("a huge freeform board", lambda: api.freeform(["CAT", "TAR"], rows=10**6, cols=5), "from 2 to 50"),
    ("stop=True in generate", lambda: api.generate(5, 5, stop=True), "stop must be None"),
]


@pytest.mark.parametrize(("case", "call", "message"), LIBRARY_MISUSE, ids=[c[0] for c in LIBRARY_MISUSE])
def test_library_misuse_is_an_input_error_that_says_what_is_wrong(case, call, message):
    with pytest.raises(InputError, match=re.escape(message)):
        call()


def test_a_one_line_string_naming_a_grid_file_is_read_as_that_file():
    grid = GRIDS / "demo" / "mini-5x5.txt"
    assert api.read_grid(grid).cells == api.as_grid(str(grid)).cells
