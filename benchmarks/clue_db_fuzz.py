"""The clue-database part of the fuzz campaign (``benchmarks/fuzz.py --db-cases N``).

A small database is made once (a few .xd puzzles and a clue list imported). Each case is either a
damaged copy of it (truncated, pages overwritten with junk or zeros, ``user_version`` changed, a
meta row or a table dropped, the rules version changed) or a puzzle file (.ipuz or our .json)
whose JSON escapes hostile text into clues and the title (lone surrogates, NUL, ESC sequences, C1
controls, line and paragraph separators, bidirectional overrides). The case runs, in this process
under an alarm, ``clues ENTRY`` as text and JSON, ``clues import`` of the puzzle file into it,
and ``fill --output case.puz --clue-db`` on a small grid.

A failure: an exit code outside the documented ones or 70, a traceback, a command past the
campaign's ``--time-limit`` (the fill: past FILL_ALLOWANCE times that), or a lookup whose stdout holds a raw control character (what a terminal would act on).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode
from csp_crossword.formats import read_crossword, write_crossword

DOCUMENTED = frozenset(int(code) for code in ExitCode) - {int(ExitCode.INTERNAL_ERROR)}
#: A grid every entry of which the small database clues: DOG over #NO.
XD_GRID = "DOG\n#NO\n"
#: Characters a terminal acts on: none may reach a lookup's stdout raw.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: Hostile pieces escaped into a puzzle's JSON text.
ESCAPES = [
    "\\ud800",
    "\\udfff",
    "\\ud83d",
    "\\u0000",
    "\\u001b[2J",
    "\\u001b]0;title\\u0007",
    "\\u009b31m",
    "\\u0085",
    "\\u2028",
    "\\u2029",
    "\\u202e",
    "\\u2066",
    "\\t",
    "\\r\\n",
    "\\\\",
    '\\"',
    "\\ufeff",
    "\\uffff",
    "~",
    "#",
]
#: The fill's --time-limit (seconds).
FILL_LIMIT = 2
#: The fill may take this many times the campaign's limit: in this process it takes 1.5 s or so
#: (the word list, the shipped clues), which a busy shared machine stretched past 12 s.
FILL_ALLOWANCE = 3
#: Bytes of an SQLite page (the size the library's databases use).
PAGE = 4096


class CaseTimeout(BaseException):
    """Raised by SIGALRM (not an Exception, so the CLI's catch-all does not turn it into exit 70)."""


def _alarm(_signum: int, _frame: object) -> None:
    raise CaseTimeout()


def xd_puzzle(title: str, across: str, down: str) -> str:
    clues = f"A1. {across} ~ DOG\nA4. Negative ~ NO\n\nD2. Upon ~ ON\nD3. {down} ~ GO\n"
    return f"Title: {title}\nAuthor: Fuzz\n\n\n{XD_GRID}\n\n{clues}"


def base_database(folder: Path) -> Path:
    """The database every damaged case starts from, made by the command itself."""
    for number in range(4):
        (folder / f"base{number}.xd").write_text(xd_puzzle(f"Base {number}", f"Canine {number}", "Leave"), "utf-8")
    (folder / "base.tsv").write_text("answer\tclue\nDOG\tMan's best friend\nGO\tDepart\n", "utf-8")
    path = folder / "base.sqlite"
    files = [str(folder / name) for name in sorted(os.listdir(folder)) if name.startswith("base")]
    run(["clues", "import", *files, "--db", str(path), "-q"])
    return path


def damaged(base: bytes, rng: random.Random, path: Path) -> str:
    """A damaged copy of ``base`` at ``path``; returns what was done."""
    choice = rng.randrange(7)
    data = bytearray(base)
    if choice == 0:
        cut = rng.randrange(len(data))
        path.write_bytes(bytes(data[:cut]))
        return f"truncated at {cut}"
    if choice in (1, 2):
        page = rng.randrange(max(1, len(data) // PAGE))
        fill = bytes(rng.randrange(256) for _ in range(PAGE)) if choice == 1 else bytes(PAGE)
        data[page * PAGE : (page + 1) * PAGE] = fill
        path.write_bytes(bytes(data))
        return f"page {page + 1} {'junk' if choice == 1 else 'zeros'}"
    if choice == 3:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        return "bytes flipped"
    path.write_bytes(bytes(data))
    with contextlib.closing(sqlite3.connect(path)) as connection:
        if choice == 4:
            version = rng.choice([-1, 0, 1, 2, 4, 99, 2**31 - 1])
            connection.execute(f"PRAGMA user_version = {version}")
            what = f"user_version {version}"
        elif choice == 5:
            table = rng.choice(["meta", "clue_uses", "sources", "clues"])
            connection.execute(f"DROP TABLE {table}")
            what = f"table {table} dropped"
        else:
            value = rng.choice(["1", "x", "", "99999", "\x1b"])
            connection.execute("UPDATE meta SET value = ? WHERE key = 'clue_rules'", (value,))
            what = f"rules version {value!r}"
        connection.commit()
    return what


def hostile_puzzle(folder: Path, rng: random.Random) -> Path:
    """A .ipuz or .json puzzle whose clues and title hold escaped hostile text."""
    seed = folder / "seed.xd"
    seed.write_text(xd_puzzle("Seed", "Pet", "Leave"), "utf-8")
    path = folder / rng.choice(["case.ipuz", "case.json"])
    write_crossword(path, read_crossword(seed))
    text = path.read_text("utf-8")
    for plain in rng.sample(["Pet", "Leave", "Negative", "Upon", "Seed"], k=rng.randint(1, 5)):
        pieces = "".join(rng.choice(ESCAPES) for _ in range(rng.randint(1, 4)))
        text = text.replace(f'"{plain}', f'"{plain} {pieces}', 1)
    path.write_text(text, "utf-8")
    json.loads(text)  # still JSON: only the text inside strings is hostile
    return path


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def run_case(database: Path, puzzle: Path | None, folder: Path, limit: float) -> str | None:
    """The commands of one case; the first failure in words, or None."""
    grid = folder / "grid.txt"
    grid.write_text("...\n.#.\n...\n")
    steps = [
        ["clues", "DOG", "--db", str(database)],
        ["clues", "GO", "--db", str(database), "--format", "json"],
        ["fill", str(grid), "--words", str(folder / "words.txt"), "--output", str(folder / "out.puz")]
        + ["--clue-db", str(database), "--time-limit", str(FILL_LIMIT)],
    ]
    if puzzle is not None:
        steps.insert(0, ["clues", "import", str(puzzle), "--db", str(database), "-q"])
    for argv in steps:
        signal.signal(signal.SIGALRM, _alarm)
        bound = limit * (FILL_ALLOWANCE if argv[0] == "fill" else 1)
        signal.setitimer(signal.ITIMER_REAL, bound)
        try:
            code, out, err = run(argv)
        except CaseTimeout:
            return f"{argv[0]} {argv[1]}: past {bound} s"
        except BaseException:  # any escape from main is a failure
            return f"{argv[0]} {argv[1]}: {traceback.format_exc(limit=-2).strip()[-300:]}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if code not in DOCUMENTED:
            return f"{argv[0]} {argv[1]}: exit {code}: {err.strip()[-300:]}"
        if "Traceback" in err:
            return f"{argv[0]} {argv[1]}: traceback"
        if code and not err.strip():
            return f"{argv[0]} {argv[1]}: exit {code} without a message"
        if argv[0] == "clues" and argv[1] != "import" and RAW_CONTROL.search(out):
            return f"clues {argv[1]}: a raw control character on stdout: {out!r:.200}"
    return None


def run_clue_db_campaign(cases: int, seed: int, limit: float) -> int:
    """Run ``cases`` clue-database cases; print the summary; return the number of failures."""
    rng = random.Random(seed)
    started = time.monotonic()
    failures: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="csp-fuzz-db-") as scratch:
        folder = Path(scratch)
        (folder / "words.txt").write_text("CAT\nACE\nTEA\nCAT\nATE\nTEN\nNET\nEAT\nETA\nTAN\nANT\n")
        previous = os.environ.get("CSP_CROSSWORD_CLUE_DB")
        os.environ["CSP_CROSSWORD_CLUE_DB"] = str(folder / "default.sqlite")  # never the user's own
        try:
            base = base_database(folder).read_bytes()
            for number in range(cases):
                database = folder / "case.sqlite"
                for leftover in folder.glob("case.sqlite*"):
                    leftover.unlink()
                if rng.random() < 0.5:
                    what, puzzle = damaged(base, rng, database), None
                else:
                    shutil.copyfile(folder / "base.sqlite", database)
                    puzzle = hostile_puzzle(folder, rng)
                    what = f"hostile {puzzle.suffix}"
                codes[what.split()[0]] += 1
                failure = run_case(database, puzzle, folder, limit)
                if failure is not None:
                    failures[failure.split(":")[0]] += 1
                    print(f"FAIL db case {number} ({what}): {failure}", flush=True)
        finally:
            if previous is None:
                os.environ.pop("CSP_CROSSWORD_CLUE_DB", None)
            else:
                os.environ["CSP_CROSSWORD_CLUE_DB"] = previous
    print(f"\n{cases} clue-database cases in {time.monotonic() - started:.0f} s (seed {seed})")
    print("  cases: " + ", ".join(f"{kind} {n}" for kind, n in sorted(codes.items())))
    print(f"  failures: {sum(failures.values())}")
    for kind, n in failures.most_common():
        print(f"    {n:5}  {kind}")
    return sum(failures.values())
