"""``clues``: the user's clue database. ``clues import PATH...`` stores the clues of crossword
files and clue lists (TSV, CSV, one answer and clue a line); ``clues ENTRY`` lists the entry's
clues, most used first, with where they came from."""

from __future__ import annotations

import argparse
import sys
import time

from ..core.errors import ExitCode, InputError
from ..core.glyphs import normalize_entry
from ..formats.documents import to_json
from .common import PROGRESS_DELAY, PROGRESS_LINE_INTERVAL, Reporter

#: The first word that makes ``clues`` an import rather than a lookup.
IMPORT_WORD = "import"
#: Seconds between two progress lines of an import on a terminal (a log gets PROGRESS_LINE_INTERVAL).
TERMINAL_PROGRESS_INTERVAL = 1.0


def cmd_clues(args: argparse.Namespace, reporter: Reporter) -> int:
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be 1 or more")
    if args.words[0] == IMPORT_WORD:
        return _import(args, args.words[1:], reporter)
    return _lookup(args, " ".join(args.words))


def _import(args: argparse.Namespace, paths: list[str], reporter: Reporter) -> int:
    from ..api import clue_database, import_clues
    from ..clues.importer import CLUE_SUFFIXES

    if not paths:
        raise InputError("clues import needs the crossword files, clue lists or folders to import")
    database = clue_database(args.db)
    report = import_clues(paths, database, progress=_Progress(reporter))
    database.checkpoint()  # the write-ahead log into the file: its size is then the database's
    stats = database.stats()
    database.close()
    if report.files_read == 0 and not report.already_imported and not report.skipped:
        raise InputError(f"no crossword files or clue lists ({', '.join(CLUE_SUFFIXES)}) in {', '.join(paths)}")
    for _path, reason in report.skipped:
        reporter.warn(f"skipped {reason}")
    for line in report.bad_lines:
        reporter.warn(f"skipped line {line}")
    unnamed = report.bad_line_count - len(report.bad_lines)
    if unnamed:
        lines = f"{unnamed:,} more bad line{'' if unnamed == 1 else 's'}"
        reporter.warn(f"skipped {lines} (the first ones of each file are named above)")
    if args.format == "json":
        sys.stdout.write(
            to_json(
                {
                    "database": stats.path,
                    "files_read": report.files_read,
                    "clues_added": report.clues_added,
                    "duplicates": report.duplicates,
                    "already_imported": report.already_imported,
                    "skipped": [{"file": path, "reason": reason} for path, reason in report.skipped],
                    "bad_lines": [
                        {"file": line.path, "line": line.line, "reason": line.message} for line in report.bad_lines
                    ],
                    "bad_line_count": report.bad_line_count,
                    "theme_clues": report.theme_clues,
                    "entries": stats.entries,
                    "clues": stats.clues,
                    "sources": stats.sources,
                    "size_bytes": stats.size_bytes,
                }
            )
        )
    else:
        print(report.summary())
        files = f"{stats.sources:,} file{'' if stats.sources == 1 else 's'}"
        print(f"{stats.path}: {stats.entries:,} entries, {stats.clues:,} clues from {files}, {_size(stats.size_bytes)}")
    if report.files_read == 0 and not report.already_imported:
        return ExitCode.BAD_INPUT  # every file was broken or had no clues: each one is named above
    return ExitCode.OK


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"


class _Progress:
    """An import's progress line on stderr: after PROGRESS_DELAY seconds, then every interval."""

    def __init__(self, reporter: Reporter):
        self.reporter = reporter
        self.last = reporter.start
        self.interval = TERMINAL_PROGRESS_INTERVAL if reporter.terminal else PROGRESS_LINE_INTERVAL

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.reporter.quiet or now - self.reporter.start < PROGRESS_DELAY or now - self.last < self.interval:
            return
        self.last = now
        elapsed = now - self.reporter.start
        print(f"csp-crossword: clues import: {done:,} of {total:,} files, {elapsed:.1f} s", file=sys.stderr, flush=True)


def _lookup(args: argparse.Namespace, text: str) -> int:
    from ..api import clue_database

    entry = normalize_entry(text)
    if not entry:
        raise InputError(f"not an entry: {text!r}")
    database = clue_database(args.db)
    suggestions = database.suggestions(entry, args.limit or 10)
    database.close()
    if args.format == "json":
        rows = [{"clue": s.clue, "uses": s.uses, "source": s.source} for s in suggestions]
        sys.stdout.write(to_json({"entry": entry, "database": database.path, "suggestions": rows}))
        return ExitCode.OK
    if not database.exists():
        print(
            f"csp-crossword: no clue database at {database.path}: "
            "import crossword files with 'csp-crossword clues import PATH...'",
            file=sys.stderr,
        )
    elif not suggestions:
        print(f"csp-crossword: no clues for {entry} in {database.path}", file=sys.stderr)
    for number, suggestion in enumerate(suggestions, 1):
        more = f" and {suggestion.uses - 1:,} more" if suggestion.uses > 1 else ""
        uses = f"{suggestion.uses:,} use{'' if suggestion.uses == 1 else 's'}"
        print(f"{number:>2}. {suggestion.clue}\n    {uses}: {suggestion.source}{more}")
    return ExitCode.OK
