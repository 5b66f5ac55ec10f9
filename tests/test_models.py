"""The reference models agree with the brute-force counter and with the backends."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from csp_crossword.backends import get_backend
from csp_crossword.grid import parse_grid
from csp_crossword.lexicon import Lexicon
from csp_crossword.problem import FillOptions, build_problem

from bruteforce import count

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "models"))

import plain_backtracking  # noqa: E402


def _fills(grid, lexicon, allow):
    return {tuple(sols) for sols in plain_backtracking.solutions(grid, lexicon, allow)}


@pytest.mark.parametrize("seed", range(12))
def test_plain_model_counts_like_brute_force(seed):
    rng = random.Random(seed)
    rows = ["".join(rng.choice("...#") for _ in range(3)) for _ in range(3)]
    if all("#" in r for r in rows) and rows.count("...") == 0:
        rows[0] = "..."
    words = {"".join(rng.choice("AB") for _ in range(n)) for n in (2, 3) for _ in range(6)}
    allow = seed % 2 == 0
    try:
        grid = parse_grid("\n".join(rows))
    except Exception:
        pytest.skip("random grid without a slot")
    lexicon = Lexicon.from_words(words)
    expected = count(rows, words, allow)
    assert len(_fills(grid, lexicon, allow)) == expected
    result = get_backend("ac")().solve(build_problem(grid, lexicon, FillOptions(allow_duplicates=allow)))
    assert result.status.has_fill == (expected > 0)


def test_plain_model_script(tmp_path):
    (tmp_path / "g.txt").write_text("..\n..\n")
    (tmp_path / "w.txt").write_text("AB\nCD\nAC\nBD\n")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "models" / "plain_backtracking.py"), tmp_path / "g.txt", tmp_path / "w.txt", "--count"],
        capture_output=True, text=True, check=True,
    )
    assert proc.stdout.strip() == "2"
