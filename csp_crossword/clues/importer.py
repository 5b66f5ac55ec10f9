"""Importing crossword files and clue lists into the clue database: every clued entry's
(answer, clue), with where it came from.

Files are given one by one or as folders (searched recursively for the crossword formats that
carry clues: .puz, .ipuz, .xd and our .json, and for clue lists: .tsv and .csv; grid texts have
none). A file given by name with another suffix (.txt, none) is read as a clue list when its
lines are answer and clue pairs (:mod:`.list_files`). A file already imported (the same bytes,
under any name) is skipped before it is read. A broken file is reported with the reader's
message, a list's bad lines with their line numbers, and the import goes on. Large imports read
the files in worker processes (reading a 15x15 .puz takes milliseconds of pure Python) and store
them in batches, one transaction each.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..core.errors import InputError
from ..formats import FILE_FORMATS, Puzzle, read_crossword
from .crossrefs import PLAIN
from .database import ClueDatabase, SourceInfo
from .list_files import LIST_SUFFIXES, read_clue_list
from .records import ClueRow, clue_rows

#: The crossword formats the library reads that carry clues (grid texts have none).
PUZZLE_SUFFIXES = tuple(sorted(ext for ext in FILE_FORMATS if ext != ".txt"))
#: The suffixes a folder is searched for: those crossword formats and the clue lists.
CLUE_SUFFIXES = tuple(sorted(PUZZLE_SUFFIXES + LIST_SUFFIXES))
#: Files stored per transaction: large enough that commits cost little, small enough that an
#: interrupted import keeps most of its work.
BATCH_FILES = 500
#: Fewer files than this are read in this process (starting workers costs more than it saves).
PARALLEL_FROM = 200
#: Files a worker reads per task (fewer round trips between the processes).
WORKER_CHUNK = 25
#: Bytes of an .xd or .ipuz file searched for its date (the header is at the top).
DATE_PEEK_BYTES = 8192
_XD_DATE = re.compile(r"^date:[ \t]*(\S.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_IPUZ_DATE = re.compile(r'"date"\s*:\s*"([^"\\]{1,40})"')
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_TEXT_DATE = re.compile(
    rf"\b(\d{{4}}-\d{{1,2}}-\d{{1,2}}|(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}},?\s+\d{{4}})\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")

#: Called after each file with (files done, files in all).
ImportProgress = Callable[[int, int], None]


@dataclass
class ImportReport:
    """What an import did.

    Attributes:
        files_read: Files read and stored (their clues added, or found already there).
        clues_added: New (entry, clue, source) rows.
        duplicates: Clues not added: the same clue for the same entry twice in one file.
        skipped: (file, reason) of every file not stored: broken (the reader's message), no
            solution, no clues, not a crossword file or clue list.
        already_imported: Files whose bytes the database already has (under any name).
        bad_lines: The clue lists' skipped lines, each an InputError naming the file, the line
            and why (the first REPORTED_BAD_ROWS of each file; ``bad_line_count`` counts all).
        bad_line_count: Lines of clue lists skipped (no answer, no clue, an answer no grid holds).
        theme_clues: Clues stored that are never suggested, being theme clues or cross-references
            ("*Quaint lodging", "See 17-Across"; :mod:`.crossrefs`).
        files_stored: Files read whose batch is committed (an import stopped half-way has read
            more than it stored; at the end, ``files_read``).
    """

    files_read: int = 0
    clues_added: int = 0
    duplicates: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    already_imported: list[str] = field(default_factory=list)
    bad_lines: list[InputError] = field(default_factory=list)
    bad_line_count: int = 0
    theme_clues: int = 0
    files_stored: int = 0

    def summary(self) -> str:
        """One line in words (bad lines and theme clues only when there are some)."""
        text = (
            f"{self.files_read:,} file{'' if self.files_read == 1 else 's'} read, "
            f"{self.clues_added:,} clue{'' if self.clues_added == 1 else 's'} added, "
            f"{self.duplicates:,} duplicate{'' if self.duplicates == 1 else 's'}, "
            f"{len(self.skipped):,} file{'' if len(self.skipped) == 1 else 's'} skipped, "
            f"{len(self.already_imported):,} already imported"
        )
        if self.bad_line_count:
            text += f", {self.bad_line_count:,} bad line{'' if self.bad_line_count == 1 else 's'} skipped"
        if self.theme_clues:
            text += (
                f", {self.theme_clues:,} theme or cross-reference clue{'' if self.theme_clues == 1 else 's'} "
                "kept but never suggested"
            )
        return text


@dataclass(frozen=True)
class FileClues:
    """One file read: its source description and its clues, ready to store; or why it is skipped.
    A clue list's skipped lines are in ``bad_lines`` (the first ones) and ``bad_line_count``."""

    info: SourceInfo
    rows: list[ClueRow] = field(default_factory=list)
    problem: str = ""
    bad_lines: list[InputError] = field(default_factory=list)
    bad_line_count: int = 0


def crossword_files(paths: Iterable[str | os.PathLike[str]], skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """The files to import: each file given, and every file with a clue-carrying suffix under each
    folder given (recursively, in name order). A path that does not exist is an InputError, raised
    before anything is imported. What is not a regular file (a FIFO, a device, a socket: reading
    one could wait for ever) and a folder that cannot be listed are left out, each added to
    ``skipped`` as (path, reason)."""
    found: list[str] = []
    passed = skipped if skipped is not None else []

    def unlisted(error: OSError) -> None:
        where = error.filename or ""
        passed.append((where, f"{where}: cannot read the folder: {error.strerror or error}"))

    for path in (os.fspath(p) for p in paths):
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path, onerror=unlisted):
                subfolders.sort()
                found += [
                    os.path.join(folder, name)
                    for name in sorted(names)
                    if os.path.splitext(name)[1].lower() in CLUE_SUFFIXES
                ]
        elif os.path.lexists(path):
            found.append(path)
        else:
            raise InputError("no such file or folder", path)
    files = []
    for path in dict.fromkeys(found):
        kind = _special_kind(path)
        if kind:
            passed.append((path, f"{path}: not a regular file ({kind}): left alone"))
        else:
            files.append(path)
    return files


def _special_kind(path: str) -> str:
    """What ``path`` is when it is not a file to read ("a FIFO", "a device", ...), else ""."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""  # a dangling link or no permission: reading it says why
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def file_hash(path: str) -> str:
    """SHA-256 of the file's bytes (the same puzzle under another name is the same source). The
    file is opened without waiting (a FIFO put in its place since it was listed is an OSError)."""
    digest = hashlib.sha256()
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError("not a regular file")
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def puzzle_date(path: str, puzzle: Puzzle) -> str:
    """The puzzle's date as its file states it: the .xd ``Date:`` header, the ipuz ``date``, else a
    date in the title, copyright or notes, else the copyright's year ("" when none is found)."""
    ext = os.path.splitext(path)[1].lower()
    if ext in (".xd", ".ipuz"):
        with open(path, "rb") as handle:
            head = handle.read(DATE_PEEK_BYTES).decode("utf-8", errors="replace")
        match = (_XD_DATE if ext == ".xd" else _IPUZ_DATE).search(head)
        if match:
            return match.group(1).strip()
    for text in (puzzle.title, puzzle.copyright, puzzle.notes):
        match = _TEXT_DATE.search(text)
        if match:
            return " ".join(match.group(1).split())
    match = _YEAR.search(puzzle.copyright)
    return match.group(1) if match else ""


def read_clues(path: str, sha256: str) -> FileClues:
    """Read one file's clued entries (never raises for a bad file: the problem is returned): a
    crossword file by its suffix, any other file as a clue list."""
    info = SourceInfo(path, sha256)
    if os.path.splitext(path)[1].lower() not in PUZZLE_SUFFIXES:
        return read_list_clues(path, sha256)
    try:
        puzzle = read_crossword(path)
        # the rows are made here, in the worker: normalising ~100 clues a file is work too
        rows = clue_rows((answer, clue) for _, answer, clue in puzzle.entries() if answer and clue)
        date = puzzle_date(path, puzzle)
    except InputError as error:
        return FileClues(info, problem=str(error))
    except (OSError, UnicodeError, ValueError) as error:  # a reader's gap must not end a long import
        return FileClues(info, problem=f"{path}: cannot read: {error}")
    info = SourceInfo(path, sha256, puzzle.title.strip(), puzzle.author.strip(), date)
    if not rows:
        clued = any(clue for _, _, clue in puzzle.entries())
        reason = "no solution: the answers are not in the file" if clued else "no clues"
        if puzzle.locked is not None:
            reason = "the solution is scrambled (locked)"
        return FileClues(info, problem=f"{path}: {reason}")
    return FileClues(info, rows)


def read_list_clues(path: str, sha256: str) -> FileClues:
    """Read a clue list (:mod:`.list_files`); never raises for a bad file."""
    info = SourceInfo(path, sha256)
    try:
        found = read_clue_list(path)
    except InputError as error:
        return FileClues(info, problem=str(error))
    except (OSError, UnicodeError, ValueError) as error:  # a reader's gap must not end a long import
        return FileClues(info, problem=f"{path}: cannot read: {error}")
    rows = clue_rows(found.pairs)
    problem = "" if rows else f"{path}: no answer and clue pairs"
    return FileClues(info, rows, problem, found.bad_rows, found.bad_count)


def _read_many(jobs: list[tuple[str, str]]) -> list[FileClues]:
    return [read_clues(path, sha) for path, sha in jobs]


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C is for the importing process alone, which stops the workers; a
    worker stopped by it while starting could leave the pool waiting for it for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _read_all(jobs: list[tuple[str, str]], workers: int) -> Iterator[FileClues]:
    """Read ``jobs`` (path, hash), in order, in ``workers`` processes (1: here)."""
    if workers <= 1:
        for path, sha in jobs:
            yield read_clues(path, sha)
        return
    from concurrent.futures import ProcessPoolExecutor  # only large imports pay for its import

    chunks = [jobs[start : start + WORKER_CHUNK] for start in range(0, len(jobs), WORKER_CHUNK)]
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        for done in pool.map(_read_many, chunks):
            yield from done
    finally:
        # an interrupted import (Ctrl-C, an error storing a batch) drops the chunks not yet read
        pool.shutdown(wait=True, cancel_futures=True)


def import_files(
    paths: Iterable[str | os.PathLike[str]],
    database: ClueDatabase,
    *,
    progress: ImportProgress | None = None,
    workers: int | None = None,
    report: ImportReport | None = None,
) -> ImportReport:
    """Import the clues of ``paths`` (files and folders) into ``database``.

    ``workers``: processes reading the files (default: one per CPU for a large import, none for
    fewer than PARALLEL_FROM files). ``progress`` is called after each file. ``report``: the
    report to fill in (a caller that is interrupted still has what was done until then).

    The stored clues are first judged again when the rules changed since they were judged
    (:meth:`.ClueDatabase.judge_again`). Each batch is one transaction: an import stopped by
    Ctrl-C or an error keeps the batches stored before, and the same import run again stores the
    rest (the files stored are recognised by their hashes)."""
    report = report if report is not None else ImportReport()
    files = crossword_files(paths, report.skipped)
    database.judge_again()
    hashes: list[tuple[str, str]] = []
    for path in files:
        try:
            hashes.append((path, file_hash(path)))
        except OSError as error:  # unreadable (permissions, a folder given as a file): the others go on
            report.skipped.append((path, f"{path}: cannot read: {error.strerror or error}"))
    known = database.known_hashes(sha for _, sha in hashes)
    jobs: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for path, sha in hashes:
        if sha in known or sha in seen:
            report.already_imported.append(path)
        else:
            seen[sha] = path
            jobs.append((path, sha))
    done = len(files) - len(jobs)
    if workers is None:
        workers = (os.cpu_count() or 1) if len(jobs) >= PARALLEL_FROM else 1
    batch: list[tuple[SourceInfo, list[ClueRow]]] = []

    def store() -> None:
        added, duplicates = database.add_sources(batch)
        report.files_stored += len(batch)
        report.clues_added += added
        report.duplicates += duplicates
        batch.clear()

    for read in _read_all(jobs, workers):
        report.bad_lines += read.bad_lines
        report.bad_line_count += read.bad_line_count
        if read.problem:
            report.skipped.append((read.info.path, read.problem))
        else:
            report.files_read += 1
            report.theme_clues += sum(1 for row in read.rows if row[4] != PLAIN)
            batch.append((read.info, read.rows))
            if len(batch) >= BATCH_FILES:
                store()
        done += 1
        if progress is not None:
            progress(done, len(files))
    if batch:
        store()
    return report
