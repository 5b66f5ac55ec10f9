"""The grid library and the README's main command."""

import json
import subprocess
import sys

import pytest
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
def test_language_demos_fill(name, lang):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "csp_crossword",
            "fill",
            str(GRIDS / "demo" / f"{name}.txt"),
            "--lang",
            lang,
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
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
