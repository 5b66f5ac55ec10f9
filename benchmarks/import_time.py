"""Import time of whole commands, this checkout against another one, run alternately.

Each run is ``python -X importtime -m csp_crossword ARGS`` in a fresh process; its import time is
the sum of the cumulative times of the top-level imports (what ``-X importtime`` prints with one
space of indent), and its wall time is that of the whole command. The two checkouts alternate
run by run, so they share the machine's state; medians and minimums of ``--repeats`` runs each.
``--before PATH`` names the other checkout (``git worktree add PATH COMMIT``); both run with the
same Python, each from its own folder.

Usage:
    python benchmarks/import_time.py --before /tmp/before --repeats 25 -- --help
    python benchmarks/import_time.py --before /tmp/before --repeats 11 -- fill grids/american/am15-01.txt
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A top-level line of ``-X importtime``: self and cumulative microseconds, one space, the name.
TOP_LEVEL = re.compile(r"import time:\s+\d+ \|\s+(\d+) \| (\S+)$")


def run_once(checkout: Path, args: list[str]) -> tuple[float, float]:
    """(import milliseconds, wall seconds) of one run of the command from ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "csp_crossword", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    wall = time.perf_counter() - started
    imports = sum(int(m.group(1)) for line in done.stderr.splitlines() if (m := TOP_LEVEL.match(line)))
    return imports / 1000, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the command's arguments (after --)")
    options = parser.parse_args()
    args = [a for a in options.args if a != "--"] or ["--help"]
    checkouts = {"before": options.before.resolve(), "after": ROOT}
    seen: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
    for _ in range(options.repeats):
        for name, checkout in checkouts.items():
            seen[name].append(run_once(checkout, args))
    print(f"csp-crossword {' '.join(args)}: {options.repeats} runs each, alternating")
    print("| version | import ms, median | import ms, min | wall s, median | wall s, min |")
    print("|---|---|---|---|---|")
    for name, runs in seen.items():
        imports = [i for i, _ in runs]
        walls = [w for _, w in runs]
        print(
            f"| {name} | {statistics.median(imports):.0f} | {min(imports):.0f} "
            f"| {statistics.median(walls):.3f} | {min(walls):.3f} |"
        )


if __name__ == "__main__":
    main()
