"""Fuzz campaign over every command and option: random command lines built from the parser itself.

For each case a command is drawn (every one ``csp-crossword`` has but ``serve``), then its
positional arguments (a small valid input of the right kind most of the time, else a missing
path, a directory, a device, a FIFO or junk) and up to five of its options, each with a value from
a pool of hostile ones (0, negatives, huge numbers, NaN, superscript digits, sizes such as
``3x3x3``, empty text, control characters, paths to devices and pipes, a step out of the
folder...) or a valid choice. Every case runs in a scratch folder, so that its outputs and steps
up stay inside it (an early version ran in the caller's folder: ``-o ../../etc/passwd``, as root,
replaced the system's user list). A search gets ``--time-limit`` 1 unless the case draws its own. The case runs in this process
(``main(argv)``) under an alarm, every ``--subprocess-every``-th one also as a child process.

A failure is an exit code outside the documented ones (``errors.ExitCode``) or 70 (an internal
error), a traceback on stderr, or a case past its time bound (the limit plus 10 s: first uses and
CP-SAT's model builds are slow). Failures are printed with their command line and counted per
kind; the summary counts cases per command and exit code.

``clues`` is drawn as a lookup (an entry, plain or hostile) or as ``clues import`` of one to three
paths (a clue list with control characters, a puzzle, a FIFO, a folder...), its ``--db`` a good
database, a damaged one, one of a newer release, a grid file or one of the hostile values. The
default database is a file in the scratch folder (``CSP_CROSSWORD_CLUE_DB``), never the user's.
``--commands clues,fill`` draws only those commands.

Usage:
    python benchmarks/fuzz_options.py [--cases 10000] [--seed 1] [--subprocess-every 50] [--commands LIST]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csp_crossword.cli import main
from csp_crossword.cli.parser import build_parser
from csp_crossword.core.errors import ExitCode

DOCUMENTED = {int(code) for code in ExitCode} - {int(ExitCode.INTERNAL_ERROR)}
SKIPPED_COMMANDS = {"serve"}  # a server does not end by itself
TIMED = {"fill", "check", "count", "enumerate", "generate", "freeform", "candidates"}
HOSTILE = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "100",
    "1e9",
    "nan",
    "inf",
    "-inf",
    "1.5",
    "99999999999999999999",
    "",
    " ",
    "x",
    "٣",
    "²",
    "3x3",
    "3x³",
    "3x3x3",
    "0x0",
    "51x51",
    "15x15",
    "a,b",
    ",",
    "1A",
    "1A=CAT",
    "9Z=Q",
    "\x85",
    "\x00",
    "\u2028",
    "../escape.txt",
    "/dev/zero",
    "{fifo}",
    "{dir}",
    "{missing}",
    "{grid}",
    "{words}",
    "{puzzle}",
    "{out_txt}",
    "{out_puz}",
    "{out_json}",
    "{out_ipuz}",
    "{out_pdf}",
    "{db}",
    "{db_damaged}",
    "{db_newer}",
    "{clue_list}",
]
#: Characters a terminal acts on: none may reach the stdout of ``clues`` raw (text clues are
#: printed with them escaped, JSON has them as ``\\u`` escapes).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: Entries a ``clues`` lookup is drawn from (besides the hostile values).
LOOKUPS = ["DOG", "etna", "ice age", "ERA", "Opera\x1bsolo", "\u202eDOG", "a" * 300]


class CaseTimeout(BaseException):
    """Raised by SIGALRM (not an Exception: the CLI's catch-all must not turn it into exit 70)."""


def _alarm(_signum: int, _frame: object) -> None:
    raise CaseTimeout()


def _files(folder: Path) -> dict[str, str]:
    """The named inputs and outputs a case may use."""
    (folder / "grid.txt").write_text("...\n...\n...\n")
    (folder / "words.txt").write_text((ROOT / "examples" / "small.dict").read_text())
    (folder / "dir").mkdir(exist_ok=True)
    fifo = folder / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    from csp_crossword import api

    puzzle = folder / "puzzle.ipuz"
    if not puzzle.exists():
        filled = api.fill(api.read_grid(folder / "grid.txt"), api.load_words(folder / "words.txt"))
        api.write_puzzle(
            puzzle, api.fill_puzzle(api.open_grid(folder / "grid.txt"), api.load_words(folder / "words.txt"), filled)
        )
    _clue_databases(folder)
    names = {"grid": "grid.txt", "words": "words.txt", "puzzle": "puzzle.ipuz", "fifo": "fifo", "dir": "dir"}
    names |= {"missing": "missing.txt", "out_txt": "out.txt", "out_puz": "out.puz", "out_json": "out.json"}
    names |= {"out_ipuz": "out.ipuz", "out_pdf": "out.pdf", "db": "clues.sqlite", "db_damaged": "damaged.sqlite"}
    names |= {"db_newer": "newer.sqlite", "clue_list": "clues.tsv"}
    return {key: str(folder / name) for key, name in names.items()}


def _clue_databases(folder: Path) -> None:
    """A clue list whose clues hold control characters, a database of it, a damaged copy (its
    second half cut off) and one stamped with a newer schema."""
    import sqlite3

    clue_list = folder / "clues.tsv"
    clue_list.write_text("answer\tclue\nDOG\tCanine\x1b[2J\nETNA\tSicilian \x9bvolcano\u202e\nERA\tTime\n")
    database = folder / "clues.sqlite"
    if not database.exists():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["clues", "import", str(clue_list), "--db", str(database), "-q"])
    data = database.read_bytes()
    (folder / "damaged.sqlite").write_bytes(data[: len(data) // 2])
    (folder / "newer.sqlite").write_bytes(data)
    with contextlib.closing(sqlite3.connect(folder / "newer.sqlite")) as connection:
        connection.execute("PRAGMA user_version = 99")
        connection.commit()


def _clues_words(rng: random.Random, files: dict[str, str]) -> list[str]:
    """The positional words of ``clues``: an entry to look up, or ``import`` and paths."""
    if rng.random() < 0.5:
        return [rng.choice(LOOKUPS + HOSTILE).format(**files)]
    pool = [files["clue_list"], files["puzzle"], files["fifo"], files["dir"], files["grid"], files["db"]]
    return ["import", *(rng.choice(pool + HOSTILE).format(**files) for _ in range(rng.randint(1, 3)))]


def _value(rng: random.Random, action: argparse.Action, files: dict[str, str]) -> str:
    if action.choices and rng.random() < 0.6:
        return str(rng.choice(list(action.choices)))
    if action.dest in ("db", "clue_db") and rng.random() < 0.6:
        return rng.choice([files["db"], files["db_damaged"], files["db_newer"], files["grid"]])
    return rng.choice(HOSTILE).format(**files)


def _positional(rng: random.Random, action: argparse.Action, command: str, files: dict[str, str]) -> str:
    if rng.random() < 0.15:
        return rng.choice(HOSTILE).format(**files)
    name = action.dest
    if name in ("words",) or command == "freeform":
        return files["words"]
    if name in ("output",):
        return rng.choice([files["out_ipuz"], files["out_puz"], files["out_json"], files["out_txt"]])
    if name in ("slot",):
        return rng.choice(["1A", "1D", "2D", "4A", "99A"])
    if command in ("convert", "render", "export"):
        return files["puzzle"]
    if command == "batch":
        return files["missing"]
    return files["grid"]


def make_case(
    rng: random.Random, parser: argparse.ArgumentParser, files: dict[str, str], only: set[str] | None = None
) -> list[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands = sorted(name for name in sub.choices if name not in SKIPPED_COMMANDS and (not only or name in only))
    command = rng.choice(commands)
    own = sub.choices[command]
    argv = [command]
    for action in own._actions:
        if not action.option_strings and action.dest != "help":
            if action.nargs in ("?", "*") and rng.random() < 0.5:
                continue
            if command == "clues":
                argv += _clues_words(rng, files)
                continue
            argv.append(_positional(rng, action, command, files))
    options = [a for a in own._actions if a.option_strings and "--help" not in a.option_strings]
    for action in rng.sample(options, k=min(len(options), rng.randint(0, 5))):
        argv.append(rng.choice(action.option_strings))
        if action.nargs != 0:
            argv.append(_value(rng, action, files))
    if command in TIMED and "--time-limit" not in argv:
        argv += ["--time-limit", "1"]
    return argv


def run_in_process(argv: list[str], limit: float) -> tuple[int, str, float]:
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except CaseTimeout:
        code = -1
    except BaseException:  # any escape from main is a failure, with its traceback
        err.write(traceback.format_exc())
        code = -2
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if argv[0] == "clues" and RAW_CONTROL.search(out.getvalue()):
        err.write(f"\nraw control character on stdout: {out.getvalue()!r:.300}")
        code = -3
    return code, err.getvalue(), time.monotonic() - started


def run_child(argv: list[str], folder: Path, limit: float) -> tuple[int, str, float]:
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "csp_crossword", *argv], cwd=folder, capture_output=True, text=True, timeout=limit
        )
    except subprocess.TimeoutExpired:
        return -1, "", time.monotonic() - started
    return proc.returncode, proc.stderr, time.monotonic() - started


def main_campaign() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--subprocess-every", type=int, default=50)
    parser.add_argument("--commands", default="", help="draw only these commands (comma-separated)")
    options = parser.parse_args()
    only = {name.strip() for name in options.commands.split(",") if name.strip()}
    rng = random.Random(options.seed)
    cli = build_parser()
    failures: Counter[str] = Counter()
    codes: Counter[tuple[str, int]] = Counter()
    started = time.monotonic()
    home = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "work"
        folder.mkdir()
        # the default clue database: a file of the scratch folder, never the user's own
        os.environ["CSP_CROSSWORD_CLUE_DB"] = str(folder / "default-clues.sqlite")
        files = _files(folder)
        # every case runs in the scratch folder: a relative output name (``-o 0``) or a step up
        # (``../escape.txt``) lands inside it, never in the checkout or the system
        os.chdir(folder)
        for number in range(options.cases):
            argv = make_case(rng, cli, files, only)
            limit = 11.0 + (float(argv[argv.index("--time-limit") + 1]) if _numeric_limit(argv) else 0.0)
            child = options.subprocess_every and number % options.subprocess_every == 0
            child = child and not any("\x00" in arg for arg in argv)  # no process takes a NUL in its argv
            code, err, _seconds = run_child(argv, folder, limit) if child else run_in_process(argv, limit)
            codes[(argv[0], code)] += 1
            problem = None
            if code == -1 and argv[0] == "freeform" and not _numeric_limit(argv):
                pass  # freeform uses all of its time, by design: a huge limit is a long run
            elif code == -1:
                problem = f"ran past {limit:g} s"
            elif code == -3:
                problem = "raw control character on stdout"
            elif code == -2 or "Traceback" in err:
                problem = "traceback"
            elif code == int(ExitCode.INTERNAL_ERROR):
                problem = "internal error (70)"
            elif code not in DOCUMENTED:
                problem = f"undocumented exit {code}"
            if problem:
                failures[f"{argv[0]}: {problem}"] += 1
                where = " (child process)" if child else ""
                print(
                    f"FAIL {problem}{where}: csp-crossword {' '.join(map(repr, argv))}\n  {err.strip()[-600:]}",
                    flush=True,
                )
            if number % 500 == 499:
                print(
                    f"{number + 1} cases, {sum(failures.values())} failures, {time.monotonic() - started:.0f} s",
                    flush=True,
                )
        os.chdir(home)
    print(f"\n{options.cases} cases in {time.monotonic() - started:.0f} s; failures: {sum(failures.values())}")
    for kind, n in failures.most_common():
        print(f"  {n:5}  {kind}")
    print("cases per command and exit code:")
    for (command, code), n in sorted(codes.items()):
        print(f"  {command:12} {code:4}  {n}")
    return 1 if failures else 0


def _numeric_limit(argv: list[str]) -> bool:
    try:
        value = float(argv[argv.index("--time-limit") + 1])
    except (ValueError, IndexError):
        return False
    return 0 <= value < 1e6


if __name__ == "__main__":
    sys.exit(main_campaign())
