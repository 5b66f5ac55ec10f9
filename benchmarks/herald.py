"""The Herald benchmark: 40 Herald Tribune grids x {words, uk}, next to the published Gecode times.

Runs any subset (grid glob x word list x backend x time limit x seeds), each run in its own
process (``--jobs N`` runs N at a time), re-checks every fill with ``verify_fill`` (a wrong fill
is reported as ``WRONG`` and makes the runner exit 1), appends one CSV row per run and prints a
table, then a summary per instance with the published Gecode 4.4 times (MPG case study, base
model and restarts + no-goods, 10-minute limit, one thread).

Columns: ``load_s`` reads the word list; ``seconds`` is problem construction (word index for the
grid's lengths, initial arc consistency) plus search, the figure compared with Gecode's runtime;
``peak_mb`` is the run process's peak resident memory (``ru_maxrss``).

Usage::

    python benchmarks/herald.py --quick                        # 12 instances, under 15 minutes
    python benchmarks/herald.py --grids 'h15*' --dict words --time-limit 600 --jobs 2 \\
        --csv benchmarks/results/herald.csv
    python benchmarks/herald.py --grids h2304 --dict uk --backend ac --backend cpsat --seeds 3
    python benchmarks/herald.py --summary benchmarks/results/herald.csv   # summarise a CSV only
    python benchmarks/herald.py --quick --portfolio 4           # portfolio mode: 4 members race per run

Portfolio mode (``--portfolio N``, or a backend named ``portfolio:N``, ``portfolio-ac:N`` for N
``ac`` seeds only): each run is ``api.fill(..., portfolio=N)``, the members racing in their own
processes (csp_crossword.api.portfolio); ``seed`` is the first member's. Portfolio runs go one at a
time from this process (members are its child processes; on a 2-core machine more than two
members share the cores, so the time is not that of N machines: docs/scaling.md).

The grids are ``grids/vanbeek/<name>.txt`` (the same files as ../shared/data/herald/grids); the
word lists come from ../shared/data/dict (override the folder with CSP_CROSSWORD_SHARED).
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import multiprocessing
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csvrows import append_rows

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
GRIDS = ROOT / "grids" / "vanbeek"
HERALD = [f"h{size}{n:02d}" for size in (15, 19, 21, 23) for n in range(1, 11)]
#: Twelve instances: easy, hard for Gecode's base model (h1504, h1506, h2101, h2304, words-h1510,
#: words-h2308 and uk-h1909, which it could not solve), and the unsatisfiable words-h2301.
QUICK = [
    ("h1501", "words"),
    ("h1504", "words"),
    ("h1506", "words"),
    ("h1510", "words"),
    ("h1903", "words"),
    ("h2101", "words"),
    ("h2301", "words"),
    ("h2304", "words"),
    ("h2308", "words"),
    ("h1909", "uk"),
    ("h2306", "uk"),
    ("h2310", "uk"),
]
QUICK_TIME_LIMIT = 60.0
SOLVED = ("filled", "optimal", "unsatisfiable")
COLUMNS = [
    "instance",
    "grid",
    "dict",
    "backend",
    "seed",
    "time_limit",
    "status",
    "load_s",
    "seconds",
    "nodes",
    "backtracks",
    "restarts",
    "peak_mb",
    "mean_score",
]


def run_one(task: tuple) -> dict:
    """One run in a fresh process: load, build, solve, verify. Returns a CSV row (status
    ``error:...`` when the run raised)."""
    try:
        return _run(*task)
    except Exception as error:
        grid_name, dict_name, backend_name, seed, time_limit = task
        return {
            "instance": f"{dict_name}-{grid_name}",
            "grid": grid_name,
            "dict": dict_name,
            "backend": backend_name,
            "seed": seed,
            "time_limit": time_limit,
            "status": f"error:{type(error).__name__}:{error}"[:120],
        }


def _run(grid_name: str, dict_name: str, backend_name: str, seed: int, time_limit: float) -> dict:
    from csp_crossword.backends import get_backend
    from csp_crossword.backends.options import parse_option_items
    from csp_crossword.core.grid import read_grid
    from csp_crossword.search.problem import build_problem
    from csp_crossword.verify.fill import verify_fill
    from csp_crossword.words.wordlists import load_word_list

    start = time.perf_counter()
    lexicon = load_word_list(SHARED / "dict" / f"{dict_name}.txt")[0]
    loaded = time.perf_counter()
    grid = read_grid(GRIDS / f"{grid_name}.txt")
    name, _, spec = backend_name.partition(":")
    if name.startswith("portfolio"):  # portfolio_fill builds the problem itself
        from csp_crossword.api.portfolio import portfolio_fill, portfolio_members

        size = int(spec or 2)
        members = portfolio_members(size, seed=seed, backend="ac" if name == "portfolio-ac" else None)
        result = portfolio_fill(grid, lexicon, members=members, time_limit=time_limit)
    else:
        options = parse_option_items([spec])  # "ac:value_order=window,restart_base=100", typed by the backend
        backend = get_backend(name)(options, seed=seed)
        result = backend.solve(build_problem(grid, lexicon), time_limit=time_limit)
    done = time.perf_counter()
    status = result.status.value
    if result.status.has_fill and verify_fill(grid, result.cells, lexicon):  # no options: the whole list
        status = "WRONG"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "instance": f"{dict_name}-{grid_name}",
        "grid": grid_name,
        "dict": dict_name,
        "backend": backend_name,
        "seed": seed,
        "time_limit": time_limit,
        "status": status,
        "load_s": round(loaded - start, 3),
        "seconds": round(done - loaded, 3),
        "nodes": result.stats.nodes,
        "backtracks": result.stats.backtracks,
        "restarts": result.stats.restarts,
        "peak_mb": round(peak, 1),
        "mean_score": round(result.mean_score, 2) if result.status.has_fill else "",
    }


def published() -> dict:
    """(dict, grid) -> {config: seconds or None when Gecode timed out} from the MPG tables."""
    table: dict = {}
    path = SHARED / "herald" / "published-gecode-runs.csv"
    if not path.exists():
        return table
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["kind"] != "stat" or row["config"] not in ("base", "nogoods"):
                continue
            seconds = float(row["runtime_ms"]) / 1000 if row["status"] in ("SAT", "UNSAT") else None
            table.setdefault((row["dict"], row["grid"]), {})[row["config"]] = seconds
    return table


def print_row(row: dict) -> None:
    widths = [12, 6, 6, 6, 4, 6, 13, 7, 9, 9, 10, 8, 8, 10]
    print("  ".join(str(row.get(c, "")).ljust(w) for c, w in zip(COLUMNS, widths)), flush=True)


def run_all(tasks: list[tuple], jobs: int, on_row) -> list[dict]:
    """Each task in a fresh process (so peak memory is per run), ``jobs`` at a time; ``on_row``
    gets each row as soon as its run ends (rows are saved even if the runner is interrupted)."""
    rows: list[dict] = []
    racing = [task for task in tasks if str(task[2]).startswith("portfolio")]
    for task in racing:  # members are child processes, which a pool's daemon workers cannot have
        row = run_one(task)
        rows.append(row)
        print_row(row)
        on_row(row)
    tasks = [task for task in tasks if task not in racing]
    if not tasks:
        return rows
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, maxtasksperchild=1) as pool:
        for row in pool.imap_unordered(run_one, tasks):
            rows.append(row)
            print_row(row)
            on_row(row)
    return rows


def summarise(rows: list[dict], markdown: bool = False) -> None:
    """Per instance and backend: solved runs, median and max seconds, Gecode's published times."""
    gecode = published()
    groups: dict = {}
    for row in rows:
        groups.setdefault((row["instance"], row["backend"]), []).append(row)
    show = lambda x: "timeout" if x is None else f"{x:.2f}"  # noqa: E731
    lines = []
    totals: dict = {}
    for (instance, backend), group in sorted(groups.items(), key=lambda item: _order(item[0])):
        dict_name, grid_name = instance.split("-")
        solved = [r for r in group if r["status"] in SOLVED]
        times = [float(r["seconds"]) for r in group if r.get("seconds") not in (None, "")]
        median = statistics.median(times) if times else float("nan")
        ref = gecode.get((dict_name, grid_name), {})
        base, nogoods = ref.get("base", "n/a"), ref.get("nogoods", "n/a")
        ratio = ""
        if solved and len(solved) == len(group) and isinstance(base, float) and base > 0:
            ratio = f"{median / base:.2f}x"
        statuses = "/".join(sorted({r["status"] for r in group}))
        lines.append(
            (
                instance,
                backend,
                f"{len(solved)}/{len(group)}",
                statuses,
                f"{median:.2f}",
                f"{max(times, default=float('nan')):.2f}",
                show(base) if base != "n/a" else "n/a",
                show(nogoods) if nogoods != "n/a" else "n/a",
                ratio,
            )
        )
        total = totals.setdefault(backend, [0, 0, 0, 0])
        total[0] += 1
        total[1] += len(solved) == len(group)
        total[2] += bool(solved)
        total[3] += any(r["status"] == "WRONG" for r in group)
    head = (
        "instance",
        "backend",
        "solved",
        "status",
        "median s",
        "max s",
        "Gecode base s",
        "Gecode nogoods s",
        "median / base",
    )
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        print("\nsummary: solved runs / runs, seconds (build + search), Gecode 4.4 published (MPG)")
        widths = (12, 10, 7, 14, 9, 9, 13, 16, 13)
        print("  " + " ".join(h.ljust(w) for h, w in zip(head, widths)))
        for line in lines:
            print("  " + " ".join(str(v).ljust(w) for v, w in zip(line, widths)))
    for backend, (n, all_seeds, any_seed, wrong) in sorted(totals.items()):
        print(
            f"\n{backend}: {all_seeds}/{n} instances solved on every seed, {any_seed}/{n} on at least one; {wrong} with a wrong fill"
        )


def _order(key: tuple) -> tuple:
    instance, backend = key
    dict_name, grid_name = instance.split("-")
    return (dict_name != "words", grid_name, backend)


def read_csv(path: str) -> list[dict]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def select(patterns: list[str]) -> list[str]:
    names = [p.stem for p in sorted(GRIDS.glob("*.txt"))]
    chosen = [n for n in names if any(fnmatch.fnmatch(n, p) or fnmatch.fnmatch(n, p + ".txt") for p in patterns)]
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grids", action="append", help="grid name glob(s) (default: the 40 Herald grids)")
    parser.add_argument(
        "--dict", action="append", choices=["words", "uk", "scowl-55"], help="word list(s) (default words and uk)"
    )
    parser.add_argument(
        "--backend",
        action="append",
        help="backend(s) (default ac); options after a colon, e.g. 'ac:value_order=window'",
    )
    parser.add_argument("--portfolio", type=int, metavar="N", help="portfolio mode: N members race in each run")
    parser.add_argument("--seeds", type=int, default=1, help="seeds 0..N-1 per instance (default 1)")
    parser.add_argument("--time-limit", type=float, help="seconds per run (default 600; 60 with --quick)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time, each in its own process (default 1)")
    parser.add_argument("--quick", action="store_true", help="the 12-instance quick set (see QUICK)")
    parser.add_argument("--csv", help="append the rows to this CSV file")
    parser.add_argument("--summary", metavar="CSV", action="append", help="only summarise the rows of these CSV files")
    parser.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table")
    args = parser.parse_args(argv)

    if args.summary:
        rows = [row for path in args.summary for row in read_csv(path)]
        summarise(rows, args.markdown)
        return 1 if any(r["status"] == "WRONG" for r in rows) else 0

    backends = args.backend or ([f"portfolio:{args.portfolio}"] if args.portfolio else ["ac"])
    if args.quick:
        instances = QUICK
        time_limit = args.time_limit or QUICK_TIME_LIMIT
    else:
        grids = select(args.grids) if args.grids else HERALD
        instances = [(g, d) for d in (args.dict or ["words", "uk"]) for g in grids]
        time_limit = args.time_limit or 600.0
    tasks = [(g, d, b, seed, time_limit) for g, d in instances for b in backends for seed in range(args.seeds)]
    # Instances Gecode's base model could not solve go first: with --jobs N the long runs then
    # overlap with the short ones instead of trailing alone at the end.
    gecode = published()
    tasks.sort(key=lambda task: gecode.get((task[1], task[0]), {}).get("base", 0.0) is not None)
    print(f"{len(tasks)} runs, {args.jobs} at a time, {time_limit:g} s each")
    print("  ".join(c.ljust(w) for c, w in zip(COLUMNS, [12, 6, 6, 6, 4, 6, 13, 7, 9, 9, 10, 8, 8, 10])))

    def save(row: dict) -> None:
        append_rows(args.csv, COLUMNS, [row])

    rows = run_all(tasks, max(1, args.jobs), save)
    rows.sort(key=lambda r: (r["instance"], r["backend"], int(r["seed"])))
    summarise(rows)
    return 1 if any(r["status"] == "WRONG" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
