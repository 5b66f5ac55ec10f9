"""The import-time benchmark (benchmarks/import_time.py): it reads ``-X importtime`` right."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import import_time


def test_only_top_level_imports_count():
    lines = [
        "import time:       120 |        120 |   csp_crossword.core.errors",
        "import time:       300 |       2500 | csp_crossword.cli.entry",
        "import time: self [us] | cumulative | imported package",
    ]
    found = [m.group(2) for line in lines if (m := import_time.TOP_LEVEL.match(line))]
    assert found == ["csp_crossword.cli.entry"]


def test_one_run_of_this_checkout():
    imports, wall = import_time.run_once(ROOT, ["--version"])
    assert 0 < imports < 60_000 and wall >= imports / 1000
