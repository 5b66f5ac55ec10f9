"""A constructor's own word list file against the built-in list: wall time of whole fills.

Writes a 300,000-entry ``word;score`` list (the built-in English list's best 300,000 entries by
score, ties alphabetical, in lower case as lists like Spread the Wordlist write them) into a
temporary folder, then times ``csp-crossword fill GRID --seed 0`` with the built-in list and with
``--words LIST`` as subprocesses, on grids/american/am15-01.txt and grids/demo/mini-5x5.txt:

* ``first run``: an empty cache folder (``XDG_CACHE_HOME`` new on every run): the built-in list's
  ready index is built, and the list file is parsed and its ready index written;
* ``second run on``: the cache folder of a first run: both lists map their ready index.

Each case runs REPEATS times, the cases alternating so that they share the machine's state; the
table gives the medians and each list file's median over the built-in list's on the same grid and
run. Nothing is kept: the list and the cache folders are removed at the end.

Usage:
    python benchmarks/list_file_speed.py [--repeats 5] [--entries 300000] [--output FILE]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRIDS = {
    "am15-01 (15x15)": ROOT / "grids" / "american" / "am15-01.txt",
    "mini-5x5": ROOT / "grids" / "demo" / "mini-5x5.txt",
}
#: Entries of the list file: about the size of Spread the Wordlist.
ENTRIES = 300_000
#: The list file's fill, from the second run on, should take at most this many times the built-in list's.
TARGET_RATIO = 1.5


def write_list(path: Path, entries: int) -> int:
    """The built-in list's best ``entries`` entries as ``word;score`` lines; how many were written."""
    sys.path.insert(0, str(ROOT))
    from csp_crossword.words.builtin import builtin_lexicon

    scores = builtin_lexicon("en").scores
    best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:entries]
    path.write_text("".join(f"{entry.lower()};{score}\n" for entry, score in best), encoding="utf-8")
    return len(best)


#: The program the runs call.
PROGRAM = "csp-crossword"


def command() -> list[str]:
    """``csp-crossword`` as installed beside this Python, else ``python -m csp_crossword``."""
    script = Path(sys.executable).with_name(PROGRAM)
    return [str(script)] if script.exists() else [sys.executable, "-m", "csp_crossword"]


def wall(argv: list[str], cache: Path, fresh: bool) -> float:
    if fresh:  # a first run: nothing cached
        shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode != 0 or not done.stdout.strip():  # a fill prints its grid
        raise SystemExit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="list-file-speed-"))
    try:
        listed = write_list(work / "my.dict", args.entries)
        load = os.getloadavg()[0]
        # (grid, list, run) -> (command, cache folder, fresh)
        cases: dict[tuple[str, str, str], tuple[list[str], Path, bool]] = {}
        for name, grid in GRIDS.items():
            fill = [*command(), "fill", str(grid), "--seed", "0"]
            for words, extra in (("built-in", []), ("list file", ["--words", str(work / "my.dict")])):
                for run, fresh in (("first run", True), ("second run on", False)):
                    folder = work / f"cache-{len(cases)}"
                    cases[(name, words, run)] = ([*fill, *extra], folder, fresh)
        for argv_, folder, fresh in cases.values():  # the warm cases' caches, written once
            if not fresh:
                wall(argv_, folder, fresh=True)
        times: dict[tuple[str, str, str], list[float]] = {key: [] for key in cases}
        for _ in range(args.repeats):
            for key, (argv_, folder, fresh) in cases.items():
                times[key].append(wall(argv_, folder, fresh))
        lines = [f"{'grid':<18}{'list':<12}{'run':<15}{'median s':>10}{'min s':>8}{'max s':>8}{'vs built-in':>13}"]
        for (name, words, run), values in times.items():
            median = statistics.median(values)
            ratio = median / statistics.median(times[(name, "built-in", run)])
            lines.append(
                f"{name:<18}{words:<12}{run:<15}{median:>10.3f}{min(values):>8.3f}{max(values):>8.3f}{ratio:>12.2f}x"
            )
        warm = [
            statistics.median(times[(name, "list file", "second run on")])
            / statistics.median(times[(name, "built-in", "second run on")])
            for name in GRIDS
        ]
        verdict = "met" if max(warm) <= TARGET_RATIO else "NOT met"
        lines.append(
            f"({args.repeats} runs each, alternating; list file: {listed:,} entries, {(work / 'my.dict').stat().st_size:,} bytes;"
        )
        lines.append(
            f" command: {PROGRAM} fill GRID --seed 0 [--words FILE]; Python {sys.version.split()[0]}; "
            f"{os.cpu_count()} CPUs; load average before the runs {load:.2f};"
        )
        lines.append(
            f" target: the list file within {TARGET_RATIO}x of the built-in list from the second run on: {verdict})"
        )
        text = "\n".join(lines)
        print(text)
        if args.output:
            args.output.write_text(text + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
