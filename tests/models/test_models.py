"""The reference models agree with the brute-force counter and with the backends."""

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from csp_crossword.analysis.counting import count_fills
from csp_crossword.backends import get_backend
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.words.lexicon import Lexicon

from bruteforce import count

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "models"))

import cpsat_letters  # noqa: E402
import cpsat_pairs  # noqa: E402
import plain_backtracking  # noqa: E402
import pyconstraint_model  # noqa: E402

MODELS = {
    "plain": lambda g, lex, allow: sum(1 for _ in plain_backtracking.solutions(g, lex, allow)),
    "cpsat_letters": cpsat_letters.count,
    "cpsat_pairs": cpsat_pairs.count,
    "pyconstraint": pyconstraint_model.count,
}


def random_instance(seed):
    rng = random.Random(seed)
    rows = ["".join(rng.choice("....#") for _ in range(3)) for _ in range(3)]
    words = {"".join(rng.choice("AB") for _ in range(n)) for n in (2, 3) for _ in range(7)}
    return rows, words, seed % 2 == 0


@pytest.mark.parametrize("seed", range(16))
def test_models_count_like_brute_force_and_ac(seed):
    rows, words, allow = random_instance(seed)
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        pytest.skip("random grid without a slot")
    lexicon = Lexicon.from_words(words)
    expected = count(rows, words, allow)
    for name, model_count in MODELS.items():
        assert model_count(grid, lexicon, allow) == expected, name
    problem = build_problem(grid, lexicon, FillOptions(allow_duplicates=allow))
    assert count_fills(problem, get_backend("ac")()).count == expected


@pytest.mark.parametrize(
    "script", ["plain_backtracking.py", "cpsat_letters.py", "cpsat_pairs.py", "pyconstraint_model.py"]
)
def test_model_scripts_run(tmp_path, script):
    (tmp_path / "g.txt").write_text("..\n..\n")
    (tmp_path / "w.txt").write_text("AB\nCD\nAC\nBD\n")
    run = [sys.executable, str(ROOT / "models" / script), str(tmp_path / "g.txt"), str(tmp_path / "w.txt")]
    counted = subprocess.run(run + ["--count"], capture_output=True, text=True, check=True)
    assert counted.stdout.strip() == "2"
    filled = subprocess.run(run, capture_output=True, text=True, check=True)
    assert filled.stdout in ("AB\nCD\n", "AC\nBD\n")


def test_minizinc_model_counts_like_us(tmp_path):
    minizinc = shutil.which("minizinc")
    if minizinc is None:
        pytest.skip("no minizinc binary on this machine (Debian packages minizinc and gecode)")
    grid_file = tmp_path / "g.txt"
    grid_file.write_text("...\n.#.\n...\n")
    words = ["ABA", "BAB", "AAA", "BBB", "ABB", "BBA"]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    dzn = tmp_path / "d.dzn"
    from csp_crossword.cli import main

    assert main(["export", str(grid_file), "--words", str(tmp_path / "w.txt"), "-o", str(dzn)]) == 0
    proc = subprocess.run(
        [minizinc, "--all-solutions", str(ROOT / "models" / "crossword.mzn"), str(dzn)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    found = proc.stdout.count("entries:")
    assert found == count(["...", ".#.", "..."], set(words))


def test_export_writes_dzn(tmp_path):
    from csp_crossword.cli import main

    (tmp_path / "g.txt").write_text("A.\n..\n")
    (tmp_path / "w.txt").write_text("AB\nCD\nAC\nBD\n")
    out = tmp_path / "d.dzn"
    assert main(["export", str(tmp_path / "g.txt"), "--words", str(tmp_path / "w.txt"), "-o", str(out)]) == 0
    text = out.read_text()
    assert "S = 4;" in text and "W = 4;" in text and "C = 4;" in text
    assert "given = [1, 0, 0, 0];" in text
