"""Fixed cost of a fill, side by side with Qxw: wall time of whole commands on tiny inputs.

Cases (each run REPEATS times, the engines alternating so that they share the machine's state):

* ``3x3/10 words``: an open 3x3 grid with a ten-word list (one fill exists): everything but the
  search (0.01 s) is fixed cost — interpreter start, imports, reading, building the problem,
  verifying, printing;
* ``7x7/built-in``: grids/demo/blocks-7x7.txt with the built-in English list (289k entries),
  loaded from its cache (the cache is warmed first);
* Qxw (``qxw -b``, batch mode, Debian package ``qxw``) on the same 3x3 grid as a deck with the
  same ten words, when installed;
* ``python -c pass``: the interpreter's own start, the floor for any Python tool.

With ``--before PATH`` a second checkout of csp-crossword (e.g. a ``git worktree`` of an older
commit) runs the same csp-crossword cases.

Usage:
    python benchmarks/startup.py [--repeats 20] [--before /tmp/before] [--output FILE]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A 3x3 double word square and four more words: exactly one fill (and its transpose is the same
#: entries in other slots, excluded by the crossing glyphs).
WORDS = ["CAB", "ORE", "WET", "COW", "ARE", "BET", "CAT", "DOG", "EEL", "ART"]
#: Qxw's deck format: one line per light (entry), listing its cells.
DECK = "00 01 02\n03 04 05\n06 07 08\n00 03 06\n01 04 07\n02 05 08\n"
QXW = "/usr/games/qxw"


def ours(checkout: Path, *args: str) -> list[str]:
    code = f"import sys; sys.path.insert(0, {str(checkout)!r}); from csp_crossword.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, *args]


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--before", type=Path, help="another csp-crossword checkout to compare")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="startup-"))
    grid, words, deck = work / "g3.txt", work / "w10.txt", work / "g3.qxd"
    grid.write_text("...\n...\n...\n")
    words.write_text("\n".join(WORDS) + "\n")
    deck.write_text(DECK)
    seven = str(ROOT / "grids" / "demo" / "blocks-7x7.txt")
    cases: dict[str, list[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "csp-crossword 3x3/10 words": ours(ROOT, "fill", str(grid), "--words", str(words), "-q"),
        "csp-crossword 7x7/built-in": ours(ROOT, "fill", seven, "-q"),
    }
    if args.before:
        cases["before: 3x3/10 words"] = ours(args.before, "fill", str(grid), "--words", str(words), "-q")
        cases["before: 7x7/built-in"] = ours(args.before, "fill", seven, "-q")
    if shutil.which(QXW):
        cases["qxw -b 3x3/10 words"] = [QXW, "-b", "-d", str(words), str(deck)]
    for command in cases.values():  # warm caches (built-in list, bytecode) once
        wall(command)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, command in cases.items():
            times[name].append(wall(command))
    qxw = statistics.median(times["qxw -b 3x3/10 words"]) if "qxw -b 3x3/10 words" in times else None
    lines = [f"{'case':<30}{'median s':>10}{'min s':>9}{'max s':>9}{'vs Qxw':>9}"]
    for name, values in times.items():
        median = statistics.median(values)
        ratio = f"{median / qxw:.2f}x" if qxw else "-"
        lines.append(f"{name:<30}{median:>10.3f}{min(values):>9.3f}{max(values):>9.3f}{ratio:>9}")
    lines.append(f"({args.repeats} runs each, alternating; Python {sys.version.split()[0]})")
    text = "\n".join(lines)
    print(text)
    if args.output:
        args.output.write_text(text + "\n")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
