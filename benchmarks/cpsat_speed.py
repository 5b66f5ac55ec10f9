"""CP-SAT's speed, old code against new, side by side in one run on one machine.

Each run is the command a user types, ``python -m csp_crossword fill GRID --backend cpsat``, in
its own process: the fill is checked by the independent verifier before the command prints it
(exit 0), so a wrong fill cannot pass. The old code is the package as it is now with the CP-SAT
modules (``csp_crossword/backends/cpsat*.py``) taken from ``--baseline`` (``git show``), in a
scratch copy put first on ``PYTHONPATH``; everything else (the word index, the quality-first
stages, the verifier) is the same for both. The runs alternate old, new, old, new ... so that a
change in the machine's load falls on both alike. CPU seconds are the run's own and its child
processes' (``RUSAGE_CHILDREN``); a run cut by the time limit counts as that limit.

Instances: an open 5x5 with ``words.txt`` (45,371 words) and the built-in list on
``grids/demo/blocks-7x7.txt``, an open 6x6 and an open 7x7, each with the quality-first fill
(the default); then the Herald quick set (``benchmarks/herald.py``'s QUICK) with
``--strategy plain`` (the backend alone, as ``herald.py`` runs it).

Usage::

    python benchmarks/cpsat_speed.py --runs 3 --herald-runs 1 --time-limit 20 \\
        --out benchmarks/results/cpsat-speed/2026-11-27

``--old-time-limit`` gives the old code a longer limit than the new: where the old code still times
out and the new one fills, the speed-up is at least the old limit over the new time.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from herald import GRIDS, QUICK, SHARED

#: The commit the CP-SAT search settings started from (the old code's CP-SAT modules).
BASELINE = "d627fda"
#: The modules of the CP-SAT backend, taken from the baseline for the old code.
CPSAT_MODULES = ("cpsat.py", "cpsat_model.py", "cpsat_process.py")
#: Exit codes of ``fill`` (docs/cli.md) by the status they report.
STATUSES = {0: "filled", 1: "unsatisfiable", 2: "refused", 3: "timeout"}
COLUMNS = ["instance", "seed", "code", "run", "status", "wall_s", "cpu_s", "mean_score", "floor"]
#: The fill's mean entry score and its weakest entry's score, as the command reports them.
MEAN_SCORE = re.compile(r"mean score ([0-9.]+)")
WEAKEST = re.compile(r"weakest: \S+ .*?\((\d+)\)")


def open_grid(folder: Path, size: int) -> Path:
    """An open ``size`` x ``size`` grid (no blocks) in ``folder``."""
    path = folder / f"open-{size}x{size}.txt"
    path.write_text("\n".join(["." * size] * size) + "\n", encoding="utf-8")
    return path


def old_package(folder: Path, baseline: str) -> Path:
    """A copy of the package with the baseline's CP-SAT modules; the folder to put on PYTHONPATH."""
    target = folder / "old"
    shutil.copytree(ROOT / "csp_crossword", target / "csp_crossword", ignore=shutil.ignore_patterns("__pycache__"))
    for name in CPSAT_MODULES:
        text = subprocess.run(
            ["git", "show", f"{baseline}:csp_crossword/backends/{name}"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        (target / "csp_crossword" / "backends" / name).write_text(text, encoding="utf-8")
    return target


def instances(folder: Path) -> list[tuple[str, list[str], bool]]:
    """(name, ``fill`` arguments, Herald instance) for every instance of the benchmark."""
    words = str(SHARED / "dict" / "words.txt")
    five = ["--words", words] if Path(words).exists() else []
    chosen = [
        ("open-5x5" + ("-words" if five else ""), [str(open_grid(folder, 5)), *five], False),
        ("blocks-7x7", [str(ROOT / "grids" / "demo" / "blocks-7x7.txt")], False),
        ("open-6x6", [str(open_grid(folder, 6))], False),
        ("open-7x7", [str(open_grid(folder, 7))], False),
    ]
    for grid, dictionary in QUICK:
        word_list = SHARED / "dict" / f"{dictionary}.txt"
        if word_list.exists():
            arguments = [str(GRIDS / f"{grid}.txt"), "--words", str(word_list), "--strategy", "plain"]
            chosen.append((f"{dictionary}-{grid}", arguments, True))
    return chosen


def run_fill(
    arguments: list[str], python_path: Path, time_limit: float, folder: Path, seed: int = 0
) -> dict[str, object]:
    """One ``fill --backend cpsat --seed SEED`` in its own process, run in ``folder`` (``python
    -m`` puts the working folder before PYTHONPATH): status, wall and CPU seconds, and for a fill
    its mean entry score and its weakest entry's score (empty otherwise)."""
    command = [sys.executable, "-m", "csp_crossword", "fill", *arguments, "--backend", "cpsat"]
    command += ["--seed", str(seed), "--time-limit", str(time_limit)]
    environment = dict(os.environ, PYTHONPATH=str(python_path))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    # the command's own limit ends it; the margin covers start-up and a late answer
    done = subprocess.run(
        command, env=environment, cwd=folder, capture_output=True, text=True, timeout=time_limit + 120
    )
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = STATUSES.get(done.returncode, f"exit {done.returncode}")
    if done.returncode not in (0, 1, 3):  # a refusal (the model's size limit) or a failure: why
        print(done.stderr.strip()[-300:], file=sys.stderr)
    report = done.stderr + done.stdout
    mean = MEAN_SCORE.search(report) if done.returncode == 0 else None
    weakest = WEAKEST.search(report) if done.returncode == 0 else None
    return {
        "status": status,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "mean_score": mean.group(1) if mean else "",
        "floor": weakest.group(1) if weakest else "",
    }


def summary(rows: list[dict], time_limit: float, old_time_limit: float | None = None) -> str:
    """A Markdown table: per instance, the median wall and CPU seconds of each code and the ratios
    (``≥`` when the old code ran into the time limit), then each code's median mean entry score
    and weakest entry's score over its fills."""
    lines = [
        "| instance | runs | old status | new status | old wall s | new wall s | old CPU s | new CPU s | wall old/new "
        "| CPU old/new | old mean / floor | new mean / floor |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    keys = list(dict.fromkeys((row["instance"], str(row.get("seed", 0))) for row in rows))
    for instance, seed in keys:
        name = instance if seed == "0" else f"{instance}, seed {seed}"
        by_code = {
            code: [r for r in rows if (r["instance"], str(r.get("seed", 0))) == (instance, seed) and r["code"] == code]
            for code in ("old", "new")
        }
        if not by_code["old"] or not by_code["new"]:
            continue
        medians = {
            code: (
                statistics.median(float(r["wall_s"]) for r in runs),
                statistics.median(float(r["cpu_s"]) for r in runs),
                "/".join(sorted({r["status"] for r in runs})),
            )
            for code, runs in by_code.items()
        }
        (old_wall, old_cpu, old_status), (new_wall, new_cpu, new_status) = medians["old"], medians["new"]
        bound = "≥ " if "timeout" in old_status and "timeout" not in new_status else ""
        ratios = f"{bound}{old_wall / new_wall:.1f}x | {bound}{old_cpu / new_cpu:.1f}x"
        if (old_status == new_status and old_status in ("timeout", "refused")) or "timeout" in new_status:
            ratios = "— | —"  # neither answered, or only the old code did: no speed to compare
        lines.append(
            f"| {name} | {len(by_code['new'])} | {old_status} | {new_status} | {old_wall:.2f} | {new_wall:.2f} | "
            f"{old_cpu:.2f} | {new_cpu:.2f} | {ratios} | {_scores(by_code['old'])} | {_scores(by_code['new'])} |"
        )
    limits = (
        f"{time_limit:g} s a run"
        if not old_time_limit
        else f"{old_time_limit:g} s for the old code, {time_limit:g} s for the new"
    )
    lines.append(f"\nTime limit {limits}; medians over the runs.")
    return "\n".join(lines)


def _scores(runs: list[dict]) -> str:
    """The median mean entry score and weakest entry's score over the runs that filled."""
    filled = [r for r in runs if r.get("mean_score")]
    if not filled:
        return "—"
    mean = statistics.median(float(r["mean_score"]) for r in filled)
    floor = statistics.median(float(r["floor"]) for r in filled if r.get("floor"))
    return f"{mean:.1f} / {floor:g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default=BASELINE, help=f"commit of the old CP-SAT modules (default {BASELINE})")
    parser.add_argument("--runs", type=int, default=3, help="runs of each code on the small grids (default 3)")
    parser.add_argument("--herald-runs", type=int, default=1, help="runs of each code per Herald instance (default 1)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds a run (default 20)")
    parser.add_argument(
        "--old-time-limit",
        type=float,
        help="seconds a run of the old code (default: --time-limit); longer, so that a run where the old "
        "code times out and the new one fills gives a higher floor (old limit / new time)",
    )
    parser.add_argument("--only", action="append", help="only these instances (by name)")
    parser.add_argument(
        "--seed", action="append", type=int, help="run each instance with this seed (repeatable; default 0)"
    )
    parser.add_argument(
        "--set", choices=["grids", "herald", "all"], default="all", help="the small grids, the Herald set or both"
    )
    parser.add_argument("--out", type=Path, help="write runs.csv and summary.md into this folder")
    parser.add_argument("--summary", type=Path, metavar="CSV", help="only print the table of a runs.csv")
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.summary, newline="", encoding="utf-8") as handle:
            print(summary(list(csv.DictReader(handle)), args.time_limit, args.old_time_limit))
        return 0
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="cpsat-speed-") as scratch:
        folder = Path(scratch)
        paths = {"old": old_package(folder, args.baseline), "new": ROOT}
        for name, arguments, herald in instances(folder):
            if (args.only and name not in args.only) or args.set == ("grids" if herald else "herald"):
                continue
            for seed in args.seed or [0]:
                for run in range(args.herald_runs if herald else args.runs):
                    for code in ("old", "new"):
                        row: dict[str, object] = {"instance": name, "seed": seed, "code": code, "run": run}
                        limit = args.old_time_limit if code == "old" and args.old_time_limit else args.time_limit
                        row |= run_fill(arguments, paths[code], limit, folder, seed)
                        rows.append(row)
                        print(" ".join(f"{row[c]}" for c in COLUMNS), flush=True)
    table = summary(rows, args.time_limit, args.old_time_limit)
    print(table)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        with open(args.out / "runs.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        (args.out / "summary.md").write_text(table + "\n", encoding="utf-8")
    wrong = [row for row in rows if row["status"] not in STATUSES.values()]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
