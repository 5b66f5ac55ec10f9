"""Fuzz campaign: thousands of generated and mutated inputs through every reader and the CLI.

Each case takes a valid seed of one kind (grid text, JSON result, .ipuz, .xd, .puz, word lists in
txt/tsv/csv/json; see ``tests/fuzzcases.py``), mutates it (bytes, JSON values, or .puz fields
rewritten through puzpy so the checksums stay valid; mutants the first command accepts join the
seeds, so mutations stack), and runs it through its reader and the
commands ``slots``, ``fill``, ``convert``, ``render`` (crossword files and grids) or ``fill`` and
``candidates`` (word lists), in this process. Every ``--subprocess-every``-th case also runs as
``python -m csp_crossword`` in a child process, and every other one of those gets SIGTERM after a
random delay (the exit code must then be 143 or the normal one).

Then ``--db-cases`` cases aim at the clue database (``clue_db_fuzz``): a small database damaged
(truncated, pages overwritten, its schema version or meta rows changed, a table dropped) or a
puzzle file whose JSON escapes hostile text into its clues and title (lone surrogates, NUL, ESC,
C1 controls, separators, bidirectional overrides), each run through ``clues ENTRY`` (text and
JSON), ``clues import`` and ``fill --output .puz --clue-db``. On top of the failures above, a
lookup's stdout holding a raw control character (ESC, a C1 control, a separator) is one.

A failure is an exit code 70 or outside the documented ones, an exception other than InputError
from a reader, a traceback, a non-zero exit without a message, or a case running past
``--time-limit``. Each failing case is saved under ``--out`` (default
``tests/data/fuzz-regressions``), named ``<kind>-<hash><ext>``; ``tests/cli/test_fuzz.py`` replays
every file there.

Usage:
    python benchmarks/fuzz.py [--cases 3000] [--db-cases 1000] [--seed 1] [--out DIR] [--time-limit 10]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from clue_db_fuzz import run_clue_db_campaign
from fuzzcases import DOCUMENTED, KINDS, REGRESSIONS, Outcome, commands, mutate, regression_name, run_case, seeds

#: Mutants the first command accepted (exit 0) are added to the seeds when smaller than this (bytes), so
#: later cases stack mutations without the corpus growing into slow, huge files.
MAX_GROWN = 50_000


class CaseTimeout(BaseException):
    """Raised by SIGALRM in a case running past its time limit (not an Exception, so the CLI's
    catch-all does not turn it into exit 70)."""


def _alarm(_signum: int, _frame: object) -> None:
    raise CaseTimeout()


def run_in_process(kind: str, path: str, folder: str, limit: float) -> Outcome:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return run_case(kind, path, folder)
    except CaseTimeout:
        return Outcome((), "hang", f"past {limit} s in process")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run_subprocess(kind: str, path: str, folder: str, limit: float, rng: random.Random) -> Outcome:
    """The case's commands as child processes; every other sample is sent SIGTERM mid-run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    codes = []
    for argv in commands(kind, path, folder):
        term_after = rng.uniform(0.05, 0.6) if rng.random() < 0.5 else None
        child = subprocess.Popen(
            [sys.executable, "-m", "csp_crossword", *argv],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        try:
            if term_after is not None:
                try:
                    child.wait(term_after)
                except subprocess.TimeoutExpired:
                    child.send_signal(signal.SIGTERM)
            _, err_bytes = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return Outcome(tuple(codes), "hang", f"{argv[0]}: past {limit} s in a child process")
        err = err_bytes.decode("utf-8", "replace")
        code = child.returncode
        if code == -signal.SIGTERM and term_after is not None:
            code = 128 + signal.SIGTERM  # killed before Python set its handler: the shell sees 143 all the same
        codes.append(code)
        if code not in DOCUMENTED:
            return Outcome(tuple(codes), f"exit {code}", f"{argv[0]} (child): {err.strip():.300}")
        if "Traceback" in err:
            return Outcome(tuple(codes), "traceback", f"{argv[0]} (child): {err.strip():.300}")
    return Outcome(tuple(codes))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=3000, help="how many cases (default 3000)")
    parser.add_argument("--db-cases", type=int, default=1000, help="clue-database cases (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, default=REGRESSIONS, help="where failing cases are saved")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds a case may take (default 10)")
    parser.add_argument("--subprocess-every", type=int, default=50, metavar="N", help="every Nth case also in a child")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    corpus = seeds()
    kinds = sorted(KINDS)
    by_kind: Counter[str] = Counter()
    codes: Counter[tuple[str, int]] = Counter()
    failures: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], str] = {}
    saved = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="csp-fuzz-") as folder:
        for number in range(args.cases):
            kind = kinds[number % len(kinds)]
            data = mutate(kind, rng.choice(corpus[kind]), rng)
            path = os.path.join(folder, "case" + KINDS[kind])
            Path(path).write_bytes(data)
            outcome = run_in_process(kind, path, folder, args.time_limit)
            if outcome.failure is None and args.subprocess_every and number % args.subprocess_every == 0:
                outcome = run_subprocess(kind, path, folder, args.time_limit, rng)
            by_kind[kind] += 1
            if outcome.failure is None and outcome.codes and outcome.codes[0] == 0 and len(data) < MAX_GROWN:
                corpus[kind].append(data)  # a mutant every reader accepts seeds deeper mutations
            for code in outcome.codes:
                codes[(kind, code)] += 1
            if outcome.failure is not None:
                failures[(kind, outcome.failure)] += 1
                examples.setdefault((kind, outcome.failure), outcome.detail)
                args.out.mkdir(parents=True, exist_ok=True)
                target = args.out / regression_name(kind, data)
                target.write_bytes(data)
                saved.append(target)
    elapsed = time.monotonic() - started
    print(f"{args.cases} cases in {elapsed:.0f} s (seed {args.seed})\n")
    print(f"{'kind':<12} {'cases':>6}  exit codes of the commands run")
    for kind in kinds:
        histogram = ", ".join(f"{code}: {n}" for (k, code), n in sorted(codes.items()) if k == kind)
        print(f"{kind:<12} {by_kind[kind]:>6}  {histogram}")
    print(f"\nfailures: {sum(failures.values())}")
    for (kind, failure), n in sorted(failures.items()):
        print(f"  {kind:<12} {failure:<24} {n:>5}  e.g. {examples[(kind, failure)]:.160}")
    if saved:
        print(f"\nsaved {len(set(saved))} case(s) under {args.out}")
    db_failures = run_clue_db_campaign(args.db_cases, args.seed, args.time_limit) if args.db_cases else 0
    return 1 if failures or db_failures else 0


if __name__ == "__main__":
    sys.exit(main())
