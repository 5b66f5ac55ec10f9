"""Generate benchmark: American-style patterns and the open style's two methods, and the time limit.

Runs (each ``csp-crossword generate`` command in its own process, as a user runs it, with the
built-in English list; ``seconds`` is the wall time of the whole command, start-up included):

* ``american``: ``generate --size NxN --style american --seed S --time-limit T``. A run succeeds
  when the status is ``filled``, the fill passes ``verify_fill`` (every entry a listed word, none
  twice) and the pattern passes ``pattern_problems`` (symmetric, connected, every cell checked,
  entries of 3+ letters, at most 78 entries on a 15x15, no 3x3 of blocks): both independent of the
  generator. Reported with the entries, blocks, patterns drawn, repairs, mean and weakest score.
* ``csp`` and ``progressive``: ``generate --style open --method M`` (verified by ``verify_fill``).
* ``--limits``: commands that cannot finish in their time limit; the overshoot past the limit
  (the promise: max(10 %, 0.5 s), docs/limits.md; Python's start-up is part of the wall time).

    python benchmarks/generate.py --styles american --sizes 15 --seeds 10 --time-limit 30
    python benchmarks/generate.py --styles csp progressive --sizes 8 10 12 --seeds 10 --time-limit 10
    python benchmarks/generate.py --limits
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csp_crossword.core.grid import Grid
from csp_crossword.layout.american_patterns import PatternRules
from csp_crossword.verify.fill import pattern_problems, verify_fill
from csp_crossword.words.builtin import builtin_lexicon

#: Commands that cannot finish in their limit (the large American and open boards).
LIMIT_CASES = [
    ["--size", "15x15", "--style", "open", "--symmetric", "--max-run", "15", "--time-limit", "30"],
    ["--size", "15x15", "--style", "open", "--max-run", "15", "--time-limit", "5"],
    ["--size", "50x50", "--style", "open", "--time-limit", "3"],
    ["--size", "21x21", "--blocks", "50", "--time-limit", "5"],
    ["--size", "31x31", "--time-limit", "3"],
    ["--size", "15x15", "--blocks", "24", "--max-words", "62", "--time-limit", "5"],
]


def run(args: list[str]) -> tuple[dict | None, float, int]:
    """The JSON result, wall seconds and exit code of ``csp-crossword generate ARGS``."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.json"
        began = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "csp_crossword", "generate", *args, "-o", str(out), "-q"],
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - began
        data = json.loads(out.read_text()) if out.exists() else None
    return data, seconds, proc.returncode


def check(data: dict, style: str, size: int, lexicon) -> tuple[bool, str]:
    """Whether the run filled a valid grid; the first problem found."""
    if data is None or data["status"] != "filled":
        return False, "" if data is None else data["status"]
    cells = tuple(tuple(row) for row in data["cells"])  # None: a block
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    problems = verify_fill(grid, cells, lexicon, extra_words=data.get("theme", []))
    if style == "american":
        rules = PatternRules.for_size(size, size)
        problems += pattern_problems(cells, max_words=rules.max_words, max_run=rules.max_run)
    return not problems, problems[0] if problems else ""


def benchmark(args: argparse.Namespace) -> int:
    lexicon = builtin_lexicon("en")
    header = f"{'size':<7}{'style':<13}{'seed':>4}  {'status':<8}{'seconds':>8}{'entries':>8}{'blocks':>7}"
    print(header + f"{'patterns':>9}{'repairs':>8}{'mean':>6}  weakest")
    rows = []
    wrong = False
    for size in args.sizes:
        for style in args.styles:
            for seed in range(args.seeds):
                extra = ["--style", "american"] if style == "american" else ["--style", "open", "--method", style]
                command = [
                    "--size",
                    f"{size}x{size}",
                    *extra,
                    "--seed",
                    str(seed),
                    "--time-limit",
                    str(args.time_limit),
                ]
                data, seconds, _code = run(command)
                ok, problem = check(data, style, size, lexicon)
                if data is not None and data["status"] == "filled" and not ok:
                    wrong = True
                entries = data.get("entries", []) if data else []
                weakest = min(entries, key=lambda e: e["score"] or 0) if entries and ok else None
                blocks = sum(v is None for row in data["cells"] for v in row) if data and data.get("cells") else 0
                mean = statistics.mean(e["score"] or 0 for e in entries) if ok else 0.0
                rows.append((size, style, ok, seconds))
                status = "filled" if ok else ("WRONG" if problem and data and data["status"] == "filled" else "failed")
                print(
                    f"{size}x{size:<4}{style:<13}{seed:>4}  {status:<8}{seconds:>8.2f}{len(entries):>8}{blocks:>7}"
                    f"{(data or {}).get('patterns_tried', 0):>9}{(data or {}).get('repairs', 0):>8}{mean:>6.1f}  "
                    + (f"{weakest['answer']} ({weakest['score']})" if weakest else problem),
                    flush=True,
                )
    print("\nsummary: size, style, filled and verified / runs, median and max wall seconds")
    for size in args.sizes:
        for style in args.styles:
            group = [r for r in rows if r[0] == size and r[1] == style]
            times = [r[3] for r in group]
            print(
                f"  {size}x{size:<4} {style:<12} {sum(r[2] for r in group)}/{len(group)}"
                f"  median {statistics.median(times):.2f} s  max {max(times):.2f} s"
            )
    return 1 if wrong else 0


def limits() -> int:
    print(f"{'command':<72}{'limit':>6}{'wall':>7}{'over':>7}  exit")
    worst = 0.0
    for case in LIMIT_CASES:
        limit = float(case[case.index("--time-limit") + 1])
        _data, seconds, code = run(case)
        over = seconds - limit
        worst = max(worst, over / max(0.1 * limit, 0.5))
        print(f"{'generate ' + ' '.join(case):<72}{limit:>6.1f}{seconds:>7.2f}{over:>+7.2f}  {code}", flush=True)
    print(f"\nworst overshoot: {worst:.2f} x the allowed max(10 %, 0.5 s) (1.00 = at the bound)")
    return 0 if worst <= 1.0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[15])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--styles", nargs="+", default=["american"], choices=["american", "csp", "progressive"])
    parser.add_argument("--limits", action="store_true", help="measure the time-limit overshoot instead")
    args = parser.parse_args(argv)
    return limits() if args.limits else benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
