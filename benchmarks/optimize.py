"""``--optimize`` against the everyday fill: the total score, whether it was proved optimal, the
bound, the whole command's time and its peak memory.

Every case runs ``csp-crossword fill GRID --format json`` twice as a child process, once plain
and once with ``--backend cpsat --optimize --time-limit T``; the peak memory is the largest
resident size of the command and its children (CP-SAT solves in one), read with ``/usr/bin/time``
when it is there.

Usage:
    python benchmarks/optimize.py [--time-limit 60] [--grids PATH ...] [--csv FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The small grids whose optimum should be proved, then the American 15x15 patterns.
DEFAULT_GRIDS = [
    "grids/demo/mini-5x5.txt",
    "grids/vanbeek/h0501.txt",
    "grids/demo/blocks-7x7.txt",
    "grids/demo/prefilled-7x7.txt",
    *(f"grids/american/am15-0{k}.txt" for k in range(1, 7)),
]
COLUMNS = ["grid", "everyday", "status", "total", "bound", "seconds", "peak_mb"]


def run(grid: str, extra: list[str]) -> tuple[dict, float, float | None]:
    """The JSON result of one fill, its wall time and its peak resident memory (MB, or None)."""
    command = [sys.executable, "-m", "csp_crossword", "fill", grid, "--format", "json", *extra]
    timer = shutil.which("time") and Path("/usr/bin/time").exists()
    if timer:
        command = ["/usr/bin/time", "-f", "PEAK %M", *command]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - started
    peak = None
    for line in done.stderr.splitlines():
        if line.startswith("PEAK "):
            peak = int(line.split()[1]) / 1024
    return json.loads(done.stdout), seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--grids", nargs="+", default=DEFAULT_GRIDS)
    parser.add_argument("--csv", type=Path)
    args = parser.parse_args()
    rows = []
    print(" | ".join(COLUMNS))
    for grid in args.grids:
        everyday, _, _ = run(grid, [])
        best, seconds, peak = run(grid, ["--backend", "cpsat", "--optimize", "--time-limit", str(args.time_limit)])
        score = best.get("score") or {}
        row = {
            "grid": grid,
            "everyday": (everyday.get("score") or {}).get("total"),
            "status": best["status"],
            "total": score.get("total"),
            "bound": score.get("bound"),
            "seconds": round(seconds, 2),
            "peak_mb": None if peak is None else round(peak),
        }
        rows.append(row)
        print(" | ".join(str(row[c]) for c in COLUMNS), flush=True)
    if args.csv:
        with args.csv.open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
