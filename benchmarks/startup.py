"""Fixed cost of a fill, side by side with Qxw: wall time of whole commands on small inputs.

Cases (each run REPEATS times, all cases alternating so that they share the machine's state):

* ``3x3/10 words``: an open 3x3 grid with a ten-word list (one fill exists): everything but the
  search (under 0.01 s) is fixed cost: interpreter start, imports, reading, building the
  problem, verifying, printing;
* ``7x7/built-in``: grids/demo/blocks-7x7.txt with the built-in English list (288k entries),
  loaded from its cache (warmed first);
* Qxw in batch mode (``qxw -b -d WORDS DECK``, Debian package ``qxw``), when installed: the same
  3x3 grid as a deck with the same ten words, and the same 7x7 grid with the built-in list
  written out as a dictionary file (its words only, unscored; Qxw builds its own index of them
  on every run);
* ``am15-01/built-in``: the everyday fill, grids/american/am15-01.txt with the built-in list
  (warm: the list's ready index cached, the ``.pyc`` files written);
* ``first fill``: the same command with an empty cache folder (``XDG_CACHE_HOME`` new on every
  run): what a newcomer's first fill after ``pip install`` costs, the ready index built included;
* ``python -c pass``: the interpreter's own start, the floor of any Python tool.

Our commands run as ``python -m csp_crossword`` from the checkout twice: as this environment is
set up (it may set ``PYTHONDONTWRITEBYTECODE=1``: then every run compiles our modules again) and
as an installed package runs (``.pyc`` files, here written to a temporary
``PYTHONPYCACHEPREFIX``). With ``--before PATH`` a second checkout (``git archive OLD | tar -x
-C PATH``) runs the same cases of ours.

Usage:
    python benchmarks/startup.py [--repeats 10] [--before PATH] [--output FILE]
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

from peers import QXW, qxw_deck

ROOT = Path(__file__).resolve().parent.parent
#: A 3x3 double word square and four more words: exactly one fill.
WORDS = ["CAB", "ORE", "WET", "COW", "ARE", "BET", "CAT", "DOG", "EEL", "ART"]
SEVEN = ROOT / "grids" / "demo" / "blocks-7x7.txt"
EVERYDAY = ROOT / "grids" / "american" / "am15-01.txt"
#: Runs of the first-fill cases (each builds the ready index: seconds).
FIRST_FILL_RUNS = 3


def builtin_words(path: Path) -> int:
    """Write the built-in English list (the entries ``fill`` may use), one word a line."""
    sys.path.insert(0, str(ROOT))
    from csp_crossword.words.builtin import builtin_lexicon

    lexicon = builtin_lexicon("en")
    path.write_text("\n".join(lexicon.scores) + "\n")
    return len(lexicon)


def wall(command: list[str], env: dict[str, str], cwd: Path) -> float:
    if env.get("XDG_CACHE_HOME", "").endswith("-first-fill"):  # an empty cache for every run
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    seconds = time.perf_counter() - start
    if done.returncode != 0 or (command[-1] != "pass" and not done.stdout.strip()):  # a fill prints its grid
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--before", type=Path, help="another csp-crossword checkout to compare")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="startup-"))
    grid, words, deck = work / "g3.txt", work / "w10.txt", work / "g3.qxd"
    grid.write_text("...\n...\n...\n")
    words.write_text("\n".join(WORDS) + "\n")
    deck.write_text(qxw_deck(["...", "...", "..."]))
    here = dict(os.environ)
    installed = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    installed["PYTHONPYCACHEPREFIX"] = str(work / "pycache")

    # name -> (command, environment, working directory, Qxw case it is compared with)
    cases: dict[str, tuple[list[str], dict[str, str], Path, str | None]] = {}
    cases["python -c pass"] = ([sys.executable, "-c", "pass"], here, work, None)
    checkouts = [("", ROOT)] + ([("before: ", args.before.resolve())] if args.before else [])
    for prefix, checkout in checkouts:
        fill = [sys.executable, "-m", "csp_crossword", "fill"]
        for mode, env in (("", here), (", .pyc", installed)):
            three = fill + [str(grid), "--words", str(words), "-q"]
            cases[f"{prefix}ours 3x3/10 words{mode}"] = (three, env, checkout, "qxw 3x3/10 words")
            cases[f"{prefix}ours 7x7/built-in{mode}"] = (fill + [str(SEVEN), "-q"], env, checkout, "qxw 7x7/built-in")
        everyday = fill + [str(EVERYDAY), "-q"]
        cases[f"{prefix}ours am15-01/built-in, .pyc"] = (everyday, installed, checkout, None)
        fresh = dict(installed, XDG_CACHE_HOME=str(work / f"{len(cases)}-first-fill"))
        cases[f"{prefix}ours first fill am15-01, .pyc"] = (everyday, fresh, checkout, None)
    if shutil.which(QXW):
        cases["qxw 3x3/10 words"] = ([QXW, "-b", "-d", str(words), str(deck)], here, work, None)
        listed = builtin_words(work / "builtin-en.txt")
        seven_deck = work / "g7.qxd"
        seven_deck.write_text(qxw_deck(SEVEN.read_text().split()))
        qxw_seven = [QXW, "-b", "-d", str(work / "builtin-en.txt"), str(seven_deck)]
        cases["qxw 7x7/built-in"] = (qxw_seven, here, work, None)
    for command, env, cwd, _ in cases.values():  # warm the caches (built-in list, .pyc) once
        wall(command, env, cwd)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for run in range(args.repeats):
        for name, (command, env, cwd, _) in cases.items():
            if "first fill" not in name or run < FIRST_FILL_RUNS:
                times[name].append(wall(command, env, cwd))
    lines = [f"{'case':<36}{'median s':>10}{'min s':>9}{'max s':>9}{'vs Qxw':>9}"]
    for name, values in times.items():
        median = statistics.median(values)
        against = cases[name][3]
        ratio = f"{median / statistics.median(times[against]):.2f}x" if against in times else "-"
        lines.append(f"{name:<36}{median:>10.3f}{min(values):>9.3f}{max(values):>9.3f}{ratio:>9}")
    lines.append(
        f"({args.repeats} runs each, {FIRST_FILL_RUNS} of a first fill, alternating; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs;"
    )
    lines.append(f" load average before the runs {load:.2f}; vs Qxw: median over Qxw's on the same grid)")
    if shutil.which(QXW):
        lines.append(f" Qxw's 7x7 dictionary: the built-in list, {listed} words")
    text = "\n".join(lines)
    print(text)
    if args.output:
        args.output.write_text(text + "\n")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
