"""``clues``: the user's clue database. ``clues import PATH...`` stores the clues of crossword
files and clue lists (TSV, CSV, one answer and clue a line); ``clues ENTRY`` lists the entry's
clues, most used first, with where they came from.

Clue text and titles come from files downloaded from anywhere: what is printed shows their control
characters as escapes (``\\x1b``), so none of them reaches a terminal raw.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import TYPE_CHECKING

from ..core.errors import ExitCode, InputError
from ..core.glyphs import normalize_entry
from ..formats.documents import to_json
from .common import PROGRESS_DELAY, PROGRESS_LINE_INTERVAL, Reporter

if TYPE_CHECKING:
    from ..clues.importer import ImportReport

#: The first word that makes ``clues`` an import rather than a lookup.
IMPORT_WORD = "import"
#: Seconds between two progress lines of an import on a terminal (a log gets PROGRESS_LINE_INTERVAL).
TERMINAL_PROGRESS_INTERVAL = 1.0
#: Characters a terminal acts on rather than shows: C0 and C1 controls (ESC among them) and DEL,
#: the line and paragraph separators, the bidirectional embeddings, overrides and isolates
#: (which reorder the rest of a line), and lone surrogates (a file name not in UTF-8).
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: The same, less those JSON escapes itself (below U+0020): what our JSON output escapes on top.
_UNSHOWN_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape: ESC as
    ``\\x1b``, NEL as ``\\x85``, a tab as ``\\t``, U+202E as ``\\u202e``; the rest as it is."""
    return _UNSHOWN.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def _json_text(data: object) -> str:
    """``data`` as our JSON, with the characters :func:`visible` escapes as ``\\uXXXX`` escapes too
    (the same JSON to a parser; lone surrogates, which no UTF-8 output can hold, included)."""
    return _UNSHOWN_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", to_json(data))


def cmd_clues(args: argparse.Namespace, reporter: Reporter) -> int:
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be 1 or more")
    if args.words[0] == IMPORT_WORD:
        return _import(args, args.words[1:], reporter)
    return _lookup(args, " ".join(args.words))


def _import(args: argparse.Namespace, paths: list[str], reporter: Reporter) -> int:
    from ..api import clue_database
    from ..clues.importer import CLUE_SUFFIXES, ImportReport, import_files

    if not paths:
        raise InputError("clues import needs the crossword files, clue lists or folders to import")
    database = clue_database(args.db)
    report = ImportReport()
    try:
        import_files(paths, database, progress=_Progress(reporter), report=report)
        database.checkpoint()  # the write-ahead log into the file: its size is then the database's
        stats = database.stats()
    except BaseException:
        # stopped (Ctrl-C, a busy or damaged database): what was read is still reported, and the
        # batches stored before stay stored; the same import run again stores the rest
        _warn_skipped(report, reporter)
        if report.files_read:
            stored = f"{report.files_stored:,} of the {report.files_read:,} files read"
            reporter.warn(
                f"the import stopped; {stored} are stored ({report.clues_added:,} clues): "
                "run it again to store the rest"
            )
        raise
    finally:
        database.close()
    if report.files_read == 0 and not report.already_imported and not report.skipped:
        raise InputError(f"no crossword files or clue lists ({', '.join(CLUE_SUFFIXES)}) in {', '.join(paths)}")
    _warn_skipped(report, reporter)
    if args.format == "json":
        sys.stdout.write(
            _json_text(
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
        where = visible(stats.path)
        print(f"{where}: {stats.entries:,} entries, {stats.clues:,} clues from {files}, {_size(stats.size_bytes)}")
    if report.files_read == 0 and not report.already_imported:
        return ExitCode.BAD_INPUT  # every file was broken or had no clues: each one is named above
    return ExitCode.OK


def _warn_skipped(report: ImportReport, reporter: Reporter) -> None:
    """A warning for each file and line skipped (their names and reasons shown escaped)."""
    for _path, reason in report.skipped:
        reporter.warn(f"skipped {visible(reason)}")
    for line in report.bad_lines:
        reporter.warn(f"skipped line {visible(str(line))}")
    unnamed = report.bad_line_count - len(report.bad_lines)
    if unnamed:
        lines = f"{unnamed:,} more bad line{'' if unnamed == 1 else 's'}"
        reporter.warn(f"skipped {lines} (the first ones of each file are named above)")


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
        raise InputError(f"not an entry: {visible(repr(text))}")
    database = clue_database(args.db)
    try:
        suggestions = database.suggestions(entry, args.limit or 10)
    finally:
        database.close()
    if args.format == "json":
        rows = [{"clue": s.clue, "uses": s.uses, "source": s.source} for s in suggestions]
        sys.stdout.write(_json_text({"entry": entry, "database": database.path, "suggestions": rows}))
        return ExitCode.OK
    if not database.exists():
        print(
            f"csp-crossword: no clue database at {visible(database.path)}: "
            "import crossword files with 'csp-crossword clues import PATH...'",
            file=sys.stderr,
        )
    elif not suggestions:
        print(f"csp-crossword: no clues for {visible(entry)} in {visible(database.path)}", file=sys.stderr)
    for number, suggestion in enumerate(suggestions, 1):
        more = f" and {suggestion.uses - 1:,} more" if suggestion.uses > 1 else ""
        uses = f"{suggestion.uses:,} use{'' if suggestion.uses == 1 else 's'}"
        print(f"{number:>2}. {visible(suggestion.clue)}\n    {uses}: {visible(suggestion.source)}{more}")
    return ExitCode.OK
