"""Freeform benchmark: csp-crossword's freeform layout against genxword, same words and time.

For each board size, word count and seed, ``--count`` words of 3 to 10 letters are drawn from a
word list (default ``../shared/data/dict/words.txt``); both engines lay them out on the board for
the same time. Every layout is re-read from its cells by the independent checker
(``verify_fill``: every run of two or more letters is a listed word, none twice) and measured the
same way: words placed (runs), crossings per word (2 x shared cells / words) and board fill
(letter cells / board cells). genxword runs in its own interpreter through
``benchmarks/genxword_runner.py`` (``--genxword-python``: a venv with
``pip install --no-deps genxword==2.2.0``); without it only our engine runs.

    python benchmarks/freeform.py --sizes 15 21 --counts 20 50 100 --seeds 10 --time-limit 1 \\
        --greedy-only --genxword-python /tmp/gx/bin/python

Large-list mode: ``--counts 0`` lays out the whole list, as a user would: the command
``csp-crossword freeform WORDS --size NxN --time-limit T --seed S --format json`` runs in its own
interpreter and its wall time is measured from launch to exit (reading the list, indexing it,
the search, checking and writing the board); ``limit`` says whether it kept the promised
time limit plus max(10 %, 0.5 s). Only our engine runs on the whole list.

    python benchmarks/freeform.py --sizes 30 --counts 0 --seeds 5 --time-limit 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from csp_crossword.layout.freeform import Freeform
from csp_crossword.verify.fill import _runs, verify_fill
from csp_crossword.words.lexicon import Lexicon

DEFAULT_WORDS = HERE.parent.parent / "shared" / "data" / "dict" / "words.txt"


def measure(cells, words: list[str]) -> dict:
    """Words, crossings per word and fill of a board, read from its cells; 'valid' from verify_fill."""
    from csp_crossword.core.grid import Grid

    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in cells))
    problems = verify_fill(grid, cells, Lexicon.from_words(words))
    blocks = [[v is None for v in row] for row in cells]
    runs = list(_runs(blocks, False))
    across = {cell for d, run in runs if d == "across" for cell in run}
    down = {cell for d, run in runs if d == "down" for cell in run}
    crossings = len(across & down)
    letters = sum(v is not None for row in cells for v in row)
    placed = len(runs)
    return {
        "placed": placed,
        "cpw": 2 * crossings / placed if placed else 0.0,
        "fill": letters / (len(cells) * len(cells[0])),
        "valid": not problems,
        "problem": problems[0] if problems else "",
    }


def run_ours(words, size, seconds, seed, greedy_only=False) -> dict:
    import csp_crossword.layout.freeform.search as engine

    share = engine.GREEDY_SHARE
    engine.GREEDY_SHARE = 1.0 if greedy_only else share
    try:
        result = Freeform(words, rows=size, cols=size).run(seconds, seed)
    finally:
        engine.GREEDY_SHARE = share
    data = measure(result.cells, words)
    data["seconds"] = result.seconds
    return data


def run_cli(path: str, words: list[str], size: int, seconds: float, seed: int) -> dict:
    """The whole command on the whole list, timed from launch to exit."""
    command = [sys.executable, "-m", "csp_crossword", "freeform", path, "--size", f"{size}x{size}"]
    command += ["--time-limit", str(seconds), "--seed", str(seed), "--format", "json", "-q"]
    began = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.monotonic() - began
    if out.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(command)} exited {out.returncode}: {out.stderr}")
    cells = json.loads(out.stdout)["cells"]
    data = measure(cells, words)
    data["seconds"] = wall
    data["in_limit"] = wall <= seconds + max(0.1 * seconds, 0.5)
    return data


def run_genxword(python: str, words, size, seconds, seed) -> dict:
    job = json.dumps({"words": words, "rows": size, "cols": size, "seconds": seconds, "seed": seed})
    out = subprocess.run(
        [python, str(HERE / "genxword_runner.py")], input=job, capture_output=True, text=True, check=True
    )
    answer = json.loads(out.stdout)
    cells = [[None] * size for _ in range(size)]
    for word, row, col, vertical in answer["placements"]:
        for k, glyph in enumerate(word):
            r, c = (row + k, col) if vertical else (row, col + k)
            cells[r][c] = glyph
    data = measure(cells, words)
    data["seconds"] = answer["seconds"]
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 21])
    parser.add_argument("--counts", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--words", default=str(DEFAULT_WORDS), help="word list, one word per line")
    parser.add_argument("--greedy-only", action="store_true", help="also run our engine without the improvement phase")
    parser.add_argument("--genxword-python", metavar="PYTHON", help="interpreter with genxword installed")
    args = parser.parse_args(argv)
    listed = [w.strip().upper() for w in Path(args.words).read_text().split()]
    pool = sorted({w for w in listed if 3 <= len(w) <= 10 and w.isalpha()})
    engines = (
        ["csp-crossword"]
        + (["greedy-only"] if args.greedy_only else [])
        + (["genxword"] if args.genxword_python else [])
    )
    print(
        f"{'board':<7}{'words':>6}{'seed':>5}  {'engine':<14}{'placed':>7}{'cross/word':>11}{'fill':>7}{'valid':>7}{'seconds':>9}"
    )
    rows = []
    for size in args.sizes:
        for count in args.counts:
            for seed in range(args.seeds):
                if count == 0:  # the whole list, through the command
                    data = run_cli(args.words, listed, size, args.time_limit, seed)
                    rows.append((size, count, "csp-crossword", data))
                    print(
                        f"{size}x{size:<4}{len(listed):>6}{seed:>5}  {'csp-crossword':<14}{data['placed']:>7}"
                        f"{data['cpw']:>11.2f}{data['fill']:>7.2f}{'yes' if data['valid'] else 'NO':>7}"
                        f"{data['seconds']:>9.2f}{'' if data['in_limit'] else '  over the time limit'}",
                        flush=True,
                    )
                    continue
                words = random.Random(f"{size}-{count}-{seed}").sample(pool, count)
                for engine in engines:
                    if engine == "genxword":
                        data = run_genxword(args.genxword_python, words, size, args.time_limit, seed)
                    else:
                        data = run_ours(words, size, args.time_limit, seed, greedy_only=engine == "greedy-only")
                    rows.append((size, count, engine, data))
                    print(
                        f"{size}x{size:<4}{count:>6}{seed:>5}  {engine:<14}{data['placed']:>7}{data['cpw']:>11.2f}"
                        f"{data['fill']:>7.2f}{'yes' if data['valid'] else 'NO':>7}{data['seconds']:>9.2f}",
                        flush=True,
                    )
                    if not data["valid"]:
                        print(f"    invalid: {data['problem']}", flush=True)
    print(
        "\nsummary (means over seeds): board, words (0: the whole list), engine, placed, crossings per word, "
        "fill, valid runs, seconds (whole list: wall time of the command, max)"
    )
    print(
        "| board | words | engine | placed | crossings/word | fill | valid | seconds |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    for size in args.sizes:
        for count in args.counts:
            for engine in engines if count else ["csp-crossword"]:
                group = [d for s, n, e, d in rows if s == size and n == count and e == engine]
                seconds = max(d["seconds"] for d in group)
                print(
                    f"| {size}x{size} | {count} | {engine} | {statistics.mean(d['placed'] for d in group):.1f} "
                    f"(min {min(d['placed'] for d in group)}) | {statistics.mean(d['cpw'] for d in group):.2f} | "
                    f"{statistics.mean(d['fill'] for d in group):.2f} (min {min(d['fill'] for d in group):.2f}) | "
                    f"{sum(d['valid'] for d in group)}/{len(group)} | {seconds:.2f} |"
                )
    ours = [d for *key, d in rows if key[2] != "genxword"]
    return 0 if all(d["valid"] and d.get("in_limit", True) for d in ours) else 1


if __name__ == "__main__":
    sys.exit(main())
