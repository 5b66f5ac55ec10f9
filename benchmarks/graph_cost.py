"""What the constraint graph costs: building it against building the whole problem.

``build_problem`` first builds the networkx constraint graph (a node per slot, an edge per
crossing, the same-length groups), then the propagation network from it, then node and arc
consistency. This times the graph alone (``constraint_graph``) and the whole ``build_problem``
on the largest grids: the Herald grid with the most slots (with ``words`` and ``uk`` from
../shared/data/dict) and a 25x25 American-style pattern drawn with a fixed seed (with the
built-in list). Two kinds of build are timed: ``repeat``, on a word list whose indexes a first,
untimed build made (as a search's sub-problems are built: cores, regions), where the graph's
share is the largest it can be; and ``stage``, with ``min_score=30`` on the unfiltered list, so
that each build filters the list and builds its indexes, as every stage of the quality-first fill
does. Medians of ``--repeats`` runs.

Usage:
    python benchmarks/graph_cost.py [--repeats 9] [--output benchmarks/results/graph-cost.md]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csp_crossword.core.grid import Grid, read_grid
from csp_crossword.layout.american import _grid
from csp_crossword.layout.american_patterns import PatternRules, draw_pattern
from csp_crossword.search.graph import constraint_graph
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.words.builtin import builtin_lexicon
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.wordlists import load_word_lists

SHARED = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data"))
#: Seed of the 25x25 pattern (any seed gives a pattern of the same size class).
PATTERN_SEED = 1
#: The score floor of the ``stage`` builds (words scored below it are left out: a new filtered
#: list, new indexes, on every build).
STAGE_FLOOR = 30


def largest_herald() -> Path:
    """The Herald grid (h*.txt) with the most slots."""
    grids = sorted((SHARED / "herald" / "grids").glob("h*.txt"))
    return max(grids, key=lambda path: (len(read_grid(path).slots), path.name))


def american_25() -> Grid:
    pattern = draw_pattern(PatternRules.for_size(25, 25), random.Random(PATTERN_SEED))
    if pattern is None:
        raise SystemExit("no 25x25 pattern drawn")
    return _grid(pattern, {}, rtl=False)


def median_seconds(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(name: str, grid: Grid, lexicon: Lexicon, repeats: int) -> str:
    build_problem(grid, lexicon)  # builds the word indexes of the grid's lengths, untimed
    graph = median_seconds(lambda: constraint_graph(grid), repeats * 5)
    repeat = median_seconds(lambda: build_problem(grid, lexicon), repeats)
    stage = median_seconds(lambda: build_problem(grid, lexicon, FillOptions(min_score=STAGE_FLOOR)), repeats)
    slots, crossings = len(grid.slots), len(grid.crossings)
    return (
        f"| {name} | {slots} | {crossings} | {len(lexicon):,} | {graph * 1000:.2f} | {repeat * 1000:.1f} "
        f"| {100 * graph / repeat:.1f} % | {stage * 1000:.0f} | {100 * graph / stage:.2f} % |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    rows = [
        "| grid | slots | crossings | words | graph ms | repeat build ms | graph's share | stage build ms "
        "| graph's share |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    herald = largest_herald()
    for dictionary in ("words", "uk"):
        lexicon, _ = load_word_lists([str(SHARED / "dict" / f"{dictionary}.txt")])
        rows.append(measure(f"{dictionary}-{herald.stem}", read_grid(herald), lexicon, args.repeats))
        print(rows[-1], flush=True)
    rows.append(measure("25x25 American (seed 1), built-in", american_25(), builtin_lexicon("en"), args.repeats))
    print(rows[-1], flush=True)
    text = "\n".join(rows) + "\n"
    if args.output:
        args.output.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
