"""Fill benchmark: prints a table (grid, word list, backend, seed, status, seconds, nodes, score).

Every fill is re-checked with ``verify_fill``; a wrong fill is reported as ``WRONG`` and makes the
runner exit 1. Times are wall-clock seconds of one process: ``build`` is problem construction
(word index for the grid's lengths + initial arc consistency), ``solve`` the backend's search.

Usage::

    python benchmarks/fill.py                       # the standard suite (see SUITES below)
    python benchmarks/fill.py --suite american --seeds 5 --backend ac
    python benchmarks/fill.py --grids 'grids/vanbeek/h19*.txt' --dict words --seeds 1
    python benchmarks/fill.py --csv benchmarks/results/fill.csv
    python benchmarks/fill.py --suite backends --backend ac --backend cpsat --seeds 1

Word lists: ``builtin`` (the wordfreq-derived English list), ``builtin>=N`` (without the words
scored below N; ``builtin>=30`` keeps 54,577), or a name in ../shared/data/dict (``words``, ``uk``,
``scowl-55``).
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csp_crossword.backends import get_backend
from csp_crossword.core.grid import read_grid
from csp_crossword.search.problem import build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from csp_crossword.words.wordlists import load_word_list

from csvrows import append_rows

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))

#: name -> list of (grid glob, word lists)
SUITES = {
    "american": [("grids/american/*.txt", ["builtin", "words", "uk", "scowl-55"])],
    "vanbeek": [
        ("grids/vanbeek/h05*.txt", ["words"]),
        ("grids/vanbeek/h15*.txt", ["words"]),
        ("grids/vanbeek/h19*.txt", ["words"]),
        ("grids/vanbeek/h2301.txt", ["words"]),
    ],
}
#: The standard suite: the American patterns with four lists, and the van Beek grids with ``words``.
SUITES["standard"] = SUITES["american"] + SUITES["vanbeek"]
#: cpsat against ac: the American patterns with ~55k built-in words, and five van Beek grids.
SUITES["backends"] = [
    ("grids/american/*.txt", ["builtin>=30"]),
    ("grids/vanbeek/h050[14].txt", ["words"]),
    ("grids/vanbeek/h1501.txt", ["words"]),
    ("grids/vanbeek/h1901.txt", ["words"]),
    ("grids/vanbeek/puzzle10.txt", ["words"]),
]


def load_lexicon(name: str, cache: dict):
    if name not in cache:
        if name.startswith("builtin>="):  # the built-in list without words scored below N
            cache[name] = builtin_lexicon("en").filtered(min_score=int(name.split(">=")[1]))
        elif name == "builtin":
            cache[name] = builtin_lexicon("en")
        else:
            cache[name] = load_word_list(SHARED / "dict" / f"{name}.txt")[0]
    return cache[name]


def run_one(grid_path: str, dict_name: str, backend: str, seed: int, time_limit: float, cache: dict) -> dict:
    lexicon = load_lexicon(dict_name, cache)
    grid = read_grid(grid_path)
    start = time.perf_counter()
    problem = build_problem(grid, lexicon)
    built = time.perf_counter()
    result = get_backend(backend)(seed=seed).solve(problem, time_limit=time_limit)
    done = time.perf_counter()
    status = result.status.value
    if result.status.has_fill and verify_fill(grid, result.cells, problem.lexicon):
        status = "WRONG"
    return {
        "grid": Path(grid_path).stem,
        "dict": dict_name,
        "backend": backend,
        "seed": seed,
        "status": status,
        "build_s": round(built - start, 3),
        "solve_s": round(done - built, 3),
        "total_s": round(done - start, 3),
        "nodes": result.stats.nodes,
        "backtracks": result.stats.backtracks,
        "restarts": result.stats.restarts,
        "mean_score": result.mean_score if result.status.has_fill else "",
    }


COLUMNS = [
    "grid",
    "dict",
    "backend",
    "seed",
    "status",
    "build_s",
    "solve_s",
    "total_s",
    "nodes",
    "backtracks",
    "restarts",
    "mean_score",
]


def print_row(row: dict) -> None:
    widths = [9, 11, 12, 4, 13, 8, 8, 8, 8, 10, 8, 10]
    print("  ".join(str(row[c]).ljust(w) for c, w in zip(COLUMNS, widths)), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", choices=sorted(SUITES), default="standard")
    parser.add_argument("--grids", help="grid glob (overrides --suite)")
    parser.add_argument("--dict", action="append", help="word list(s) for --grids (default words)")
    parser.add_argument("--backend", action="append", help="backend(s) (default ac)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per instance (default 5)")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--csv", help="append the rows to this CSV file")
    args = parser.parse_args(argv)

    plan = [(args.grids, args.dict or ["words"])] if args.grids else SUITES[args.suite]
    backends = args.backend or ["ac"]
    cache: dict = {}

    start = time.perf_counter()
    load_lexicon("builtin", cache)
    first = time.perf_counter() - start
    start = time.perf_counter()
    builtin_lexicon("en")
    warm = time.perf_counter() - start
    print(
        f"built-in list: first load {first:.3f} s (cold if no cache), warm load {warm:.3f} s, {len(cache['builtin'])} entries"
    )

    print("  ".join(c.ljust(w) for c, w in zip(COLUMNS, [9, 11, 12, 4, 13, 8, 8, 8, 8, 10, 8, 10])))
    rows = []
    for pattern, dicts in plan:
        for grid_path in sorted(glob.glob(str(ROOT / pattern))):
            for dict_name in dicts:
                for backend in backends:
                    for seed in range(args.seeds):
                        row = run_one(grid_path, dict_name, backend, seed, args.time_limit, cache)
                        rows.append(row)
                        print_row(row)
    append_rows(args.csv, COLUMNS, rows)

    print("\nsummary (per grid set x word list x backend): solved/runs, median and max total seconds")
    groups: dict = {}
    for row in rows:
        key = (row["grid"][:-2], row["dict"], row["backend"])
        groups.setdefault(key, []).append(row)
    for (prefix, dict_name, backend), group in sorted(groups.items()):
        solved = [r for r in group if r["status"] in ("filled", "optimal", "unsatisfiable")]
        times = [r["total_s"] for r in group]
        print(
            f"  {prefix:<8} {dict_name:<11} {backend:<12} {len(solved)}/{len(group)}  "
            f"median {statistics.median(times):.3f} s  max {max(times):.3f} s"
        )
    return 1 if any(r["status"] == "WRONG" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
