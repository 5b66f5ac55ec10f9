"""Coverage of the shipped clues: how many entries of real fills get a clue, and that none gives
its answer away.

Fills every pattern (default ``grids/american/*.txt``) with the built-in list and the default
settings (``csp_crossword.api.fill``, seeds 0 .. SEEDS-1), asks the shipped clues
(``csp_crossword.clues.builtin.BuiltinClues``) for each entry's best clue, and reports the share
of entries with a clue (target: 95%), any clue that holds its answer or a word of its stem
(``csp_crossword.clues.rules.reveals``; target: none), how long the file takes to load and a lookup
takes, and lists the entries without a clue.

Usage::

    python benchmarks/clue_coverage.py                          # grids/american, seed 0
    python benchmarks/clue_coverage.py --seeds 3 --patterns 'grids/american*/*.txt'
    python benchmarks/clue_coverage.py --seeds 3 --first-seed 10 --patterns 'grids/american*/*.txt'
    python benchmarks/clue_coverage.py --show 40                # also 40 random clues to read
"""

from __future__ import annotations

import argparse
import glob
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from csp_crossword import api
from csp_crossword.clues.builtin import BuiltinClues
from csp_crossword.clues.rules import reveals
from csp_crossword.words.crossword_list import DisplayForms

TARGET = 0.95


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patterns", default="grids/american/*.txt", help="glob of grid files (from the repo root)")
    parser.add_argument("--seeds", type=int, default=1, help="fills per pattern (seeds FIRST..FIRST+N-1)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--show", type=int, default=0, help="print this many random clued entries")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    source = BuiltinClues()
    size = len(source)
    load = time.perf_counter() - started
    paths = sorted(glob.glob(str(REPO / args.patterns)))
    if not paths:
        parser.error(f"no grid matches {args.patterns}")
    entries: list[str] = []
    for path in paths:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            result = api.fill(path, seed=seed)
            entries += [e.answer for e in result.entries if e.answer]

    started = time.perf_counter()
    best = source.best(entries)
    lookup = (time.perf_counter() - started) / max(1, len(entries))
    displays = DisplayForms()
    missing = sorted({e for e in entries if e not in best})
    revealing = sorted(
        {(e, c) for e, c in best.items() if reveals(e, c, displays.get(e, "").replace("-", " ").split())}
    )
    clued = sum(1 for e in entries if e in best)
    share = clued / len(entries)
    print(f"patterns: {len(paths)} x {args.seeds} seed(s); entries: {len(entries)} ({len(set(entries))} distinct)")
    print(f"clued: {clued} ({share:.1%}; target {TARGET:.0%}): {'met' if share >= TARGET else 'NOT met'}")
    print(f"clues that give their answer away: {len(revealing)}")
    for entry, clue in revealing:
        print(f"  {entry}: {clue}")
    print(f"shipped entries: {size}; load {load:.3f} s; lookup {lookup * 1e6:.1f} us per entry")
    print(f"mean clue length: {statistics.mean(len(c) for c in best.values()):.1f} characters")
    print(f"without a clue ({len(missing)}): {' '.join(missing)}")
    if args.show:
        rng = random.Random(0)
        for entry in rng.sample(sorted(best), min(args.show, len(best))):
            print(f"  {entry:16} {' | '.join(s.clue for s in source.suggestions(entry))}")
    return 0 if share >= TARGET and not revealing else 1


if __name__ == "__main__":
    sys.exit(main())
