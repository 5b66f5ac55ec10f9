"""Generate benchmark: success rate and time of progressive search against the CSP path.

For each size and seed, ``generate`` runs with ``--method csp`` and ``--method progressive``
(built-in English list, default max run, same time limit); a run succeeds when every down run is
a word (status filled, verified by ``verify_fill``). Prints one row per run and a summary.

    python benchmarks/generate.py --sizes 8 10 12 --seeds 10 --time-limit 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from csp_crossword.builtin import builtin_lexicon
from csp_crossword.layout.generate import generate
from csp_crossword.result import Status
from csp_crossword.verify import verify_fill


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 12])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--methods", nargs="+", default=["csp", "progressive"])
    args = parser.parse_args(argv)
    lexicon = builtin_lexicon("en")
    print(
        f"{'size':<6}{'method':<13}{'seed':<6}{'status':<10}{'seconds':>9}{'entries':>9}{'patterns':>10}{'bad runs':>10}"
    )
    rows = []
    wrong = False
    for size in args.sizes:
        for method in args.methods:
            for seed in range(args.seeds):
                start = time.perf_counter()
                made = generate(size, size, lexicon, time_limit=args.time_limit, seed=seed, method=method)
                seconds = time.perf_counter() - start
                ok = made.result.status == Status.FILLED
                if ok and verify_fill(made.grid, made.result.cells, lexicon):
                    ok, wrong = False, True
                status = "filled" if ok else ("WRONG" if made.result.status == Status.FILLED else "failed")
                bad = len(made.unknown) + len(made.scrambled)
                rows.append((size, method, ok, seconds))
                print(
                    f"{size}x{size:<3}{method:<13}{seed:<6}{status:<10}{seconds:>9.2f}{len(made.result.entries):>9}{made.patterns_tried:>10}{bad:>10}",
                    flush=True,
                )
    print("\nsummary: size, method, successes/runs, median and max seconds")
    for size in args.sizes:
        for method in args.methods:
            group = [r for r in rows if r[0] == size and r[1] == method]
            times = [r[3] for r in group]
            print(
                f"  {size}x{size:<4} {method:<12} {sum(r[2] for r in group)}/{len(group)}  median {statistics.median(times):.2f} s  max {max(times):.2f} s"
            )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
