"""Time-to-solve over many seeds at a short limit, and what it predicts for a seed portfolio.

Runs chosen Herald instances x seeds, each run in its own process (``--jobs N`` at a time), the
way benchmarks/herald.py does (``Backend.solve`` on the built problem, i.e. the plain strategy;
the Herald word lists are unscored, so ``api.fill``'s quality-first strategy would call the same
solve). Every fill is re-checked with the independent ``verify_fill`` (a wrong fill is ``WRONG``
and makes the runner exit 1). One CSV row per run, then the analysis.

Columns: ``seconds`` is the search alone (``Backend.solve``, the part the time limit ``limit``
bounds); ``startup_s`` is process start to the package imported, ``load_s`` the word list read,
``build_s`` problem construction. ``startup_s + load_s + build_s`` is the start-up overhead each
portfolio member pays once (in parallel with the others) before its search starts.

Analysis per instance, with n runs of which a share p solved within the limit L, F the empirical
CDF of the solved times and runs not solved by L censored at L (assumes independent runs):

    P(a k-member portfolio solves within L) = 1 - (1 - p)^k
    E[min(T_k, L)] = integral_0^L (1 - F(t))^k dt

For p = 1 the second is the expected search time of the portfolio; otherwise it is a lower bound
that is reached with the probability above. Seed 0 is special in the ``ac`` backend (no value-order
noise before the first restart), so the seeds run from ``--first-seed`` (default 1).

Usage::

    python benchmarks/seed_distribution.py --instance words-h1506 --seeds 24 --time-limit 25 \\
        --csv benchmarks/results/seed-distribution.csv --report benchmarks/results/seed-distribution.txt
    python benchmarks/seed_distribution.py --analyse benchmarks/results/seed-distribution.csv --markdown

Instances are ``<dict>-<grid>`` (grids/vanbeek/<grid>.txt, ../shared/data/dict/<dict>.txt;
override the data folder with CSP_CROSSWORD_SHARED).
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import os
import statistics
import sys
import time
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csvrows import append_rows

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
GRIDS = ROOT / "grids" / "vanbeek"
#: Long or heavy-tailed for ``ac`` in benchmarks/results/herald-*.csv (see docs/scaling.md).
DEFAULT_INSTANCES = ["words-h1506", "words-h2101", "words-h2304", "words-h2110"]
SOLVED = ("filled", "optimal", "unsatisfiable")
PORTFOLIO = (1, 2, 16, 64, 256)
COLUMNS = [
    "instance",
    "dict",
    "backend",
    "seed",
    "status",
    "seconds",
    "limit",
    "startup_s",
    "load_s",
    "build_s",
    "nodes",
    "restarts",
]


def _child(task: tuple, launched: float, conn) -> None:
    """One run in a fresh process; sends its CSV row back through ``conn``."""
    instance, backend_name, seed, limit = task
    dict_name, _, grid_name = instance.partition("-")
    row = {"instance": instance, "dict": dict_name, "backend": backend_name, "seed": seed, "limit": limit}
    try:
        from csp_crossword.backends import get_backend
        from csp_crossword.backends.options import parse_option_items
        from csp_crossword.core.grid import read_grid
        from csp_crossword.search.problem import build_problem
        from csp_crossword.verify.fill import verify_fill
        from csp_crossword.words.wordlists import load_word_list

        imported = time.monotonic()
        lexicon = load_word_list(SHARED / "dict" / f"{dict_name}.txt")[0]
        loaded = time.monotonic()
        grid = read_grid(GRIDS / f"{grid_name}.txt")
        problem = build_problem(grid, lexicon)
        name, _, spec = backend_name.partition(":")
        backend = get_backend(name)(parse_option_items([spec]), seed=seed)
        built = time.monotonic()
        result = backend.solve(problem, time_limit=limit)
        searched = time.monotonic()
        status = result.status.value
        if result.status.has_fill and verify_fill(grid, result.cells, problem.lexicon):
            status = "WRONG"
        row.update(
            status=status,
            seconds=round(searched - built, 3),
            startup_s=round(imported - launched, 3),
            load_s=round(loaded - imported, 3),
            build_s=round(built - loaded, 3),
            nodes=result.stats.nodes,
            restarts=result.stats.restarts,
        )
    except Exception as error:
        row["status"] = f"error:{type(error).__name__}:{error}"[:120]
    conn.send(row)
    conn.close()


def run_all(tasks: list[tuple], jobs: int, on_row) -> list[dict]:
    """Each task in its own spawned process, ``jobs`` at a time; ``on_row`` sees each row as it ends."""
    context = multiprocessing.get_context("spawn")
    pending, running, rows = list(reversed(tasks)), {}, []
    while pending or running:
        while pending and len(running) < jobs:
            task = pending.pop()
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(task, time.monotonic(), sender))
            process.start()
            sender.close()
            running[receiver] = (process, task)
        for receiver in wait(list(running)):
            process, task = running.pop(receiver)
            try:
                row = receiver.recv()
            except EOFError:  # the process died (killed, out of memory)
                instance, backend_name, seed, limit = task
                row = {"instance": instance, "dict": instance.partition("-")[0], "backend": backend_name}
                row.update(seed=seed, limit=limit, status=f"error:exit {process.exitcode}")
            process.join()
            rows.append(row)
            print("  ".join(str(row.get(c, "")).ljust(10) for c in COLUMNS), flush=True)
            on_row(row)
    return rows


# ----------------------------------------------------------------------------- analysis


def expected_min(solved: list[float], n: int, limit: float, k: int) -> float:
    """E[min(T_k, L)] = integral_0^L (1 - F(t))^k dt, F the empirical CDF of n runs of which
    ``solved`` are the finished times (the others censored at L)."""
    total, previous = 0.0, 0.0
    for i, t in enumerate(sorted(min(t, limit) for t in solved)):
        total += (1 - i / n) ** k * (t - previous)  # i runs done before t: survival 1 - i/n
        previous = t
    return total + (1 - len(solved) / n) ** k * (limit - previous)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: list[float], q: float) -> float:
    """Linear-interpolation quantile of a sorted list."""
    if len(values) == 1:
        return values[0]
    position = q * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def analyse(rows: list[dict]) -> list[dict]:
    """One summary per (instance, backend, limit): p, solved-time quantiles, overhead, portfolio."""
    groups: dict = {}
    for row in rows:
        groups.setdefault((row["instance"], row["backend"], float(row["limit"])), []).append(row)
    summaries = []
    for (instance, backend, limit), group in sorted(groups.items()):
        runs = [r for r in group if not str(r["status"]).startswith("error")]
        n = len(runs)
        solved = sorted(float(r["seconds"]) for r in runs if r["status"] in SOLVED and float(r["seconds"]) <= limit)
        overheads = [float(r["startup_s"]) + float(r["load_s"]) + float(r["build_s"]) for r in runs]
        p = len(solved) / n if n else 0.0
        summary = {
            "instance": instance,
            "backend": backend,
            "limit": limit,
            "n": n,
            "errors": len(group) - n,
            "wrong": sum(r["status"] == "WRONG" for r in group),
            "solved": len(solved),
            "p": p,
            "p_interval": wilson(len(solved), n),
            "times": solved,
            "overhead": statistics.median(overheads) if overheads else float("nan"),
            "portfolio": {},
        }
        for k in PORTFOLIO:
            low, high = summary["p_interval"]
            summary["portfolio"][k] = {
                "p_solve": 1 - (1 - p) ** k,
                "p_solve_interval": (1 - (1 - low) ** k, 1 - (1 - high) ** k),
                "e_min": expected_min(solved, n, limit, k) if n else float("nan"),
            }
        summaries.append(summary)
    return summaries


def report(summaries: list[dict], markdown: bool = False) -> str:
    lines = []
    for s in summaries:
        times = s["times"]
        lines.append(
            f"\n{s['instance']}  backend {s['backend']}  limit L = {s['limit']:g} s  runs {s['n']}"
            f" (errors {s['errors']}, wrong fills {s['wrong']})"
        )
        low, high = s["p_interval"]
        lines.append(f"  solved within L: {s['solved']}/{s['n']}  p = {s['p']:.3f}  (95% Wilson {low:.3f}-{high:.3f})")
        if times:
            qs = "  ".join(f"{name} {quantile(times, q):.2f}" for name, q in _QUANTILES)
            lines.append(f"  solved search seconds: {qs}")
            lines.append("  sorted: " + " ".join(f"{t:.2f}" for t in times))
        lines.append(
            f"  start-up overhead per member (process + imports + word list + build), median: {s['overhead']:.2f} s"
        )
        lines.append("  k     P(solve by L)  (95% from p's interval)   E[min(T_k,L)] s   + overhead s")
        for k, v in s["portfolio"].items():
            a, b = v["p_solve_interval"]
            lines.append(
                f"  {k:<5} {v['p_solve']:<14.3f} ({a:.3f}-{b:.3f}){'':<14} {v['e_min']:<17.2f} {v['e_min'] + s['overhead']:.2f}"
            )
    if markdown:
        lines.append("")
        lines.append(_markdown(summaries))
    return "\n".join(lines)


_QUANTILES = (("min", 0.0), ("q25", 0.25), ("median", 0.5), ("q75", 0.75), ("max", 1.0))


def _markdown(summaries: list[dict]) -> str:
    head = ["instance", "L s", "p within L (solved/runs)", "median solved s", "overhead s"]
    head += [f"k={k}: E[min] s / P(solve)" for k in PORTFOLIO]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in summaries:
        median = f"{statistics.median(s['times']):.2f}" if s["times"] else "none solved"
        cells = [
            s["instance"],
            f"{s['limit']:g}",
            f"{s['p']:.2f} ({s['solved']}/{s['n']})",
            median,
            f"{s['overhead']:.2f}",
        ]
        for v in s["portfolio"].values():
            bound = "" if s["p"] == 1 else "≥ "
            cells.append(f"{bound}{v['e_min']:.2f} / {v['p_solve']:.3f}")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def read_csv(path: str) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instance", action="append", help=f"<dict>-<grid> (default: {' '.join(DEFAULT_INSTANCES)})")
    parser.add_argument("--backend", default="ac", help="backend, options after a colon (default ac)")
    parser.add_argument("--seeds", type=int, default=24, help="seeds per instance (default 24)")
    parser.add_argument(
        "--first-seed", type=int, default=1, help="first seed (default 1: seed 0 has no noise at first)"
    )
    parser.add_argument("--time-limit", type=float, default=25.0, help="search seconds per run, L (default 25)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time, each in its own process (default 1)")
    parser.add_argument("--csv", help="append the rows to this CSV file")
    parser.add_argument("--analyse", metavar="CSV", action="append", help="only analyse the rows of these CSV files")
    parser.add_argument("--report", help="also write the analysis to this file")
    parser.add_argument("--markdown", action="store_true", help="add a Markdown table to the analysis")
    args = parser.parse_args(argv)

    if args.analyse:
        rows = [row for path in args.analyse for row in read_csv(path)]
    else:
        instances = args.instance or DEFAULT_INSTANCES
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        # seed-major order: an interrupted measurement has every instance at about the same count
        tasks = [(i, args.backend, seed, args.time_limit) for seed in seeds for i in instances]
        print(f"{len(tasks)} runs, {args.jobs} at a time, limit {args.time_limit:g} s each")
        print("  ".join(c.ljust(10) for c in COLUMNS))
        started = time.monotonic()
        rows = run_all(tasks, max(1, args.jobs), lambda row: append_rows(args.csv, COLUMNS, [row]))
        print(f"wall time {time.monotonic() - started:.0f} s")
    text = report(analyse(rows), args.markdown)
    print(text)
    if args.report:
        Path(args.report).write_text(text.lstrip("\n") + "\n")
    return 1 if any(r["status"] == "WRONG" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
