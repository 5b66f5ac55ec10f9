"""The clue database at archive size: import 10,000 puzzles' clues, then time random lookups.

The archive is synthetic but shaped like the real files in ../shared/data/realfiles: each puzzle
is one of the daily-size real puzzles there (70 clues or more: 15x15 and Sunday 21x21 grids,
written again in their own format, .puz, .ipuz or .xd), with its own title and about half its
clues reworded. Rewordings are drawn from a skewed pool per answer, so popular clues repeat
across puzzles (as "Opera solo" does for ARIA), which is what ``uses`` counts. The files are
written to a temporary folder first (not timed); the import is the library's real path, the
files read by the format readers in worker processes and stored in batches, as
``csp-crossword clues import FOLDER`` does.

Lookups: ``--lookups`` entries drawn at random (seeded) from those stored, one
``suggestions(entry, 10)`` call each on the open database; median and 99th percentile in ms.

Judging again: the database is then marked as judged by other rules (as after an upgrade that
changes them). The same lookups are timed again (each judges the rows it reads), then
``judge_again()`` over every stored clue, whole, and stopped by a deadline and resumed.

Usage:
    python benchmarks/clue_db.py                       # 10,000 puzzles
    python benchmarks/clue_db.py --puzzles 500 --lookups 2000
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from csp_crossword.api import import_clues
from csp_crossword.clues.database import ClueDatabase
from csp_crossword.core.errors import InputError
from csp_crossword.formats import FILE_FORMATS, Puzzle, read_crossword

REALFILES = Path(os.environ.get("CSP_CROSSWORD_SHARED", ROOT.parent / "shared" / "data")) / "realfiles"
#: A daily puzzle has about 78 clues (15x15) and a Sunday about 140: smaller test files are left out.
MIN_CLUES = 70
#: Share of a puzzle's clues reworded (the rest keep the real file's wording).
REWORDED = 0.5
#: Rewordings per answer; the k-th is drawn with weight 1/k, so a few are common.
POOL = 40
POOL_WEIGHTS = [1 / k for k in range(1, POOL + 1)]


def shapes(folder: Path) -> list[tuple[str, Puzzle]]:
    """(extension, puzzle) of every well-formed daily-size real file with its solution and clues."""
    found = []
    for path in sorted(folder.iterdir()):
        ext = path.suffix.lower()
        if ext not in FILE_FORMATS or ext in (".txt", ".json"):
            continue
        try:
            puzzle = read_crossword(path)
        except InputError:
            continue
        if puzzle.locked is None and sum(1 for _, answer, clue in puzzle.entries() if answer and clue) >= MIN_CLUES:
            found.append((ext, puzzle))
    return found


def write_archive(folder: Path, count: int, seed: int) -> int:
    """Write ``count`` puzzle files to ``folder``; returns the clues they hold."""
    rng = random.Random(seed)
    bases = shapes(REALFILES)
    if not bases:
        raise SystemExit(f"no daily-size puzzles in {REALFILES} (set CSP_CROSSWORD_SHARED)")
    clues = 0
    for number in range(count):
        ext, base = bases[number % len(bases)]
        new_clues = {}
        for slot, answer, clue in base.entries():
            if answer and clue and rng.random() < REWORDED:
                k = rng.choices(range(1, POOL + 1), POOL_WEIGHTS)[0]
                clue = f"{clue.rstrip('?.')} (version {k})"
            new_clues[slot.id] = clue
        puzzle = replace(base, clues=new_clues, title=f"Synthetic {number:05d}", notes="", warnings=[])
        data = FILE_FORMATS[ext].dumps(puzzle)
        # plain writes: the library's atomic write fsyncs every file, which would time the disk
        (folder / f"p{number:05d}{ext}").write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        clues += sum(1 for clue in new_clues.values() if clue)
    return clues


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and its finished child processes (the
    import's workers: a busy machine stretches the wall time, not this)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=10_000)
    parser.add_argument("--lookups", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, help="processes reading files (default: one per CPU)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clue-db-bench-") as scratch:
        archive = Path(scratch) / "archive"
        archive.mkdir()
        started = time.perf_counter()
        clues = write_archive(archive, options.puzzles, options.seed)
        print(
            f"archive: {options.puzzles:,} puzzle files, {clues:,} clues, written in {time.perf_counter() - started:.1f} s"
        )
        print(f"  (shapes: the real files of {REALFILES} with {MIN_CLUES}+ clues, as .puz/.ipuz/.xd)")
        load_before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        database = ClueDatabase(Path(scratch) / "clues.sqlite")
        started, cpu = time.perf_counter(), cpu_seconds()
        report = import_clues([archive], database, workers=options.workers)
        imported, cpu = time.perf_counter() - started, cpu_seconds() - cpu
        print(f"import (files read and stored, {os.cpu_count()} CPUs): {imported:.1f} s: {report.summary()}")
        print(
            f"  CPU time of the import, this process and its workers: {cpu:.1f} s "
            f"({cpu / options.puzzles * 1000:.2f} ms a file); load average before it: {load_before}"
        )
        started = time.perf_counter()
        again = import_clues([archive], database, workers=options.workers)
        print(f"import again (nothing new): {time.perf_counter() - started:.1f} s: {again.summary()}")
        database.checkpoint()
        stats = database.stats()
        print(
            f"database: {stats.entries:,} entries, {stats.clues:,} clue rows, {stats.sources:,} sources, "
            f"{stats.size_bytes / 1e6:.1f} MB ({stats.size_bytes / max(stats.clues, 1):.0f} bytes a clue row)"
        )
        connection = database._connect(create=False)
        assert connection is not None
        entries = [row[0] for row in connection.execute("SELECT DISTINCT entry FROM clues")]
        times = lookup_times(database, entries, options)
        print(
            f"lookups: {options.lookups:,} random entries, suggestions(entry, 10): median "
            f"{statistics.median(times):.3f} ms, 99th percentile {percentile(times, 0.99):.3f} ms, "
            f"max {max(times):.3f} ms"
        )
        started = time.perf_counter()
        best = database.best(entries[:1000])
        print(f"best() of 1,000 entries at once: {(time.perf_counter() - started) * 1000:.1f} ms ({len(best):,} found)")
        database.close()
        judging(database, entries, options)


def lookup_times(database: ClueDatabase, entries: list[str], options: argparse.Namespace) -> list[float]:
    """Milliseconds of ``suggestions(entry, 10)`` for ``options.lookups`` entries drawn with its seed."""
    rng = random.Random(options.seed)
    times = []
    for _ in range(options.lookups):
        entry = rng.choice(entries)
        started = time.perf_counter()
        database.suggestions(entry, 10)
        times.append((time.perf_counter() - started) * 1000)
    return times


def judging(database: ClueDatabase, entries: list[str], options: argparse.Namespace) -> None:
    """Lookups on a database judged by other rules, then judging it again: whole, and in two
    halves (a deadline, then the rest)."""
    import sqlite3

    def mark_stale() -> None:
        with sqlite3.connect(database.path) as connection:
            connection.execute("UPDATE meta SET value = 'older' WHERE key = 'clue_rules'")
        database.close()

    mark_stale()
    times = lookup_times(database, entries, options)
    print(
        f"lookups judged by other rules (each judges what it reads): median {statistics.median(times):.3f} ms, "
        f"99th percentile {percentile(times, 0.99):.3f} ms, max {max(times):.3f} ms"
    )
    with sqlite3.connect(database.path) as connection:
        rows = connection.execute("SELECT COUNT(*) FROM clue_uses").fetchone()[0]
    database.close()
    started, cpu = time.perf_counter(), cpu_seconds()
    assert database.judge_again()
    whole, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    print(f"judge_again(), whole: {whole:.1f} s ({cpu:.1f} s CPU) for {rows:,} distinct clues")
    mark_stale()
    started = time.perf_counter()
    done = database.judge_again(deadline=time.monotonic() + whole / 2)
    first = time.perf_counter() - started
    database.close()
    started = time.perf_counter()
    assert database.judge_again()
    rest = time.perf_counter() - started
    print(f"judge_again() stopped at half that time: {first:.2f} s (done: {done}), then the rest: {rest:.2f} s")
    database.close()


if __name__ == "__main__":
    main()
