"""The rates the open style's work budgets assume, measured on this machine, and whether a
generated grid stays the same beside busy loops.

``generate --style open`` turns its time limit into a budget of work (``layout/generate.py``):
``CSP_NODES_PER_SECOND`` search nodes a second for the CSP path's pattern fills and
``PROGRESSIVE_WORK_PER_SECOND`` units a second (a step weighing rows + cols) for progressive
search. The budget ends the search before the clock when the machine does at least that much work
a second. For each size this prints:

* ``csp nodes/s``: ``ac``'s nodes a second on random patterns with runs as long as the side (most
  of them do not fill), ``PATTERN_NODES`` each, drawing and building included;
* ``progressive units/s``: progressive search's steps x (rows + cols) a second;
* ``headroom``: the measured rate over the budget's (how many times slower the machine may get
  before the clock, not the budget, ends a search);
* ``same``: ``generate`` run twice with one seed and a budget of ``--budget`` seconds under a
  distant cap, the second beside ``--busy`` busy loops in other processes: whether the grids match.

    python benchmarks/layout_rates.py --seconds 4 --busy 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csp_crossword.backends.ac import ACBackend
from csp_crossword.layout.generate import (
    CSP_NODES_PER_SECOND,
    PATTERN_NODES,
    PROGRESSIVE_WORK_PER_SECOND,
    generate,
)
from csp_crossword.layout.patterns import random_pattern
from csp_crossword.layout.progressive import ProgressiveSearch
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.words.builtin import builtin_lexicon
from csp_crossword.words.lexicon import Lexicon

#: (rows, cols, longest run): grids whose random patterns mostly do not fill.
SIZES = [(7, 7, 7), (10, 10, 10), (12, 12, 12), (15, 15, 15)]
#: Seconds of the clock's cap in the ``same`` runs: far beyond the budget.
CAP_SECONDS = 600.0


def csp_rate(lexicon: Lexicon, rows: int, cols: int, run: int, seconds: float) -> float:
    """ac's search nodes a second over random patterns, drawing and building included."""
    rng = random.Random(1)
    nodes, started, tried = 0, time.monotonic(), 0
    while time.monotonic() - started < seconds:
        grid = random_pattern(rows, cols, rng, run, False)
        if grid is None:
            break
        tried += 1
        problem = build_problem(grid, lexicon, FillOptions())
        if not problem.unsatisfiable:
            nodes += ACBackend(seed=tried).solve(problem, node_limit=PATTERN_NODES).stats.nodes
    return nodes / (time.monotonic() - started)


def progressive_rate(lexicon: Lexicon, rows: int, cols: int, run: int, seconds: float) -> float:
    """Progressive search's units of work (steps x (rows + cols)) a second."""
    search = ProgressiveSearch(rows, cols, lexicon, max_run=run, seed=1)
    started = time.monotonic()
    _layout, steps = search.run(time_limit=seconds)
    return steps * (rows + cols) / (time.monotonic() - started)


def spin(stop) -> None:
    while not stop.is_set():
        sum(range(10_000))


def made(lexicon: Lexicon, rows: int, cols: int, run: int, budget: float) -> tuple:
    result = generate(rows, cols, lexicon, max_run=run, seed=3, time_limit=CAP_SECONDS, budget_seconds=budget)
    return result.method, result.patterns_tried, result.result.cells


def same_beside_busy_loops(lexicon: Lexicon, rows: int, cols: int, run: int, budget: float, busy: int) -> bool:
    quiet = made(lexicon, rows, cols, run, budget)
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    loops = [context.Process(target=spin, args=(stop,), daemon=True) for _ in range(busy)]
    for loop in loops:
        loop.start()
    try:
        loaded = made(lexicon, rows, cols, run, budget)
    finally:
        stop.set()
        for loop in loops:
            loop.join(10)
    return loaded == quiet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds each rate is measured over")
    parser.add_argument("--budget", type=float, default=2.0, help="budget seconds of the same-grid runs")
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the second same-grid run")
    args = parser.parse_args()
    lexicon = builtin_lexicon("en")
    print("size     run  csp nodes/s  headroom  progressive units/s  headroom  same")
    for rows, cols, run in SIZES:
        csp = csp_rate(lexicon, rows, cols, run, args.seconds)
        progressive = progressive_rate(lexicon, rows, cols, run, args.seconds)
        same = same_beside_busy_loops(lexicon, rows, cols, run, args.budget, args.busy)
        print(
            f"{rows}x{cols:<5} {run:>3}  {csp:>11,.0f}  {csp / CSP_NODES_PER_SECOND:>7.1f}x"
            f"  {progressive:>19,.0f}  {progressive / PROGRESSIVE_WORK_PER_SECOND:>7.1f}x  {'yes' if same else 'NO'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
