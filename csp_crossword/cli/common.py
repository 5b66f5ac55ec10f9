"""What every command shares: messages and the progress line, turning arguments into the library
API's keyword arguments, and writing results.

Every handler takes the parsed arguments and a :class:`Reporter`, writes results to stdout (or
``--output``), messages to stderr, and returns an exit code.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, deadline_after
from ..core.errors import CannotWrite, ExitCode, InputError, LoadTimeout
from ..core.files import output_target, write_atomically
from ..core.result import SearchStats, Status
from .word_lists import banned_words, load_words

if TYPE_CHECKING:
    from ..api import GridFile
    from ..core.grid import Grid
    from ..words.lexicon import Lexicon

#: Seconds before any progress shows (short runs stay quiet).
PROGRESS_DELAY = 1.0
#: Seconds between two plain progress lines when stderr is not a terminal (a pipe, a CI log, a
#: batch runner): often enough to show a long job is alive, rarely enough not to flood the log.
PROGRESS_LINE_INTERVAL = 5.0
#: What a progress line calls each phase of a job (``SearchStats.phase``).
PHASE_WORDS = {
    "search": "searching",
    "core": "finding the clashing slots",
    "count": "counting",
    "layout": "laying out",
    "race": "racing",
    # the steps of --optimize (csp_crossword.strategies.optimize) and of a fill's improvement
    "floor": "raising the weakest entry",
    "proof": "proving the best total by branch and bound",
    "refill": "re-filling neighbourhoods for a higher total",
    "cpsat": "CP-SAT looking for a higher total",
    "auto": "auto looking for a higher total",
    "improve": "raising the scores of the fill",
    "prepare": "preparing the built-in word list's index (first use)",
}
#: Phases that are a wait, not a search: their progress shows the elapsed time alone.
WAIT_PHASES = ("prepare",)
#: What ``nodes`` count in the phases that are not a backtracking search (which shows nodes,
#: backtracks and restarts): check's core search tests sets of slots, layouts take steps, a
#: portfolio's race counts the members still searching.
STEP_WORDS = {"core": "tests", "layout": "steps", "race": "members searching"}
#: ``freeform``'s layout steps are whole boards (its summary counts boards too).
FREEFORM_STEPS = "boards"

EXIT_BY_STATUS = {
    Status.FILLED: ExitCode.OK,
    Status.OPTIMAL: ExitCode.OK,
    Status.UNSATISFIABLE: ExitCode.UNSATISFIABLE,
    Status.TIMEOUT: ExitCode.TIMEOUT,
    Status.INTERRUPTED: ExitCode.INTERRUPTED,
}


def progress_text(stats: SearchStats, elapsed: float, command: str = "") -> str:
    """One progress report in words: the phase, the command's elapsed time and the effort."""
    parts = [f"{elapsed:.1f} s"]
    if stats.count is not None:
        parts.append(f"{stats.count:,} fill{'' if stats.count == 1 else 's'} so far")
    if stats.phase in WAIT_PHASES:  # nothing counted: the elapsed time says it all
        pass
    elif stats.phase in STEP_WORDS:
        steps = FREEFORM_STEPS if command == "freeform" and stats.phase == "layout" else STEP_WORDS[stats.phase]
        parts.append(f"{stats.nodes:,} {steps}")
    else:
        parts += [f"{stats.nodes:,} nodes", f"{stats.backtracks:,} backtracks", f"{stats.restarts:,} restarts"]
    return f"{PHASE_WORDS.get(stats.phase, stats.phase)}… " + ", ".join(parts)


class Reporter:
    """Messages, warnings and progress, all on stderr.

    Progress shows after PROGRESS_DELAY seconds, never with ``quiet``: on a terminal as one live
    line (rich) that is cleared before any other message or result; elsewhere as a plain line at
    most every PROGRESS_LINE_INTERVAL seconds, named after the command.
    """

    def __init__(self, quiet: bool, command: str = ""):
        self.quiet = quiet
        self.command = command
        self.start = time.monotonic()
        self._live: Any = None
        self._spinner: Any = None
        self._console: Any = None
        self._last_line = self.start  # when the last plain line went out (the start: none yet)
        self._terminal = not quiet and sys.stderr.isatty()
        if self._terminal:
            from rich.console import Console

            self._console = Console(stderr=True)

    @property
    def terminal(self) -> bool:
        """Whether messages go to a terminal (a person is watching), not to a log or a pipe."""
        return self._terminal

    def info(self, message: str) -> None:
        if not self.quiet:
            self.stop()
            print(message, file=sys.stderr)

    def warn(self, message: str) -> None:
        self.stop()
        print(f"csp-crossword: warning: {message}", file=sys.stderr)

    def progress(self, stats: SearchStats) -> None:
        """A job's progress callback: show ``stats`` with the command's elapsed time."""
        if self.quiet:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < PROGRESS_DELAY:
            return
        text = progress_text(stats, elapsed, self.command)
        if self._terminal:
            self._show_live(text)
        elif now - self._last_line >= PROGRESS_LINE_INTERVAL:
            self._last_line = now
            prefix = f"csp-crossword: {self.command}: " if self.command else "csp-crossword: "
            print(prefix + text, file=sys.stderr, flush=True)  # one whole line: never half of one in a log

    def _show_live(self, text: str) -> None:
        if self._live is not None:
            self._spinner.update(text=text)
            return
        from rich.live import Live
        from rich.spinner import Spinner

        self._spinner = Spinner("dots", text)
        # Not console.status(): its Live sends everything printed to stdout, while it shows,
        # through the stderr console, so a result piped to a file would land on the terminal.
        self._live = Live(
            self._spinner,
            console=self._console,
            transient=True,
            refresh_per_second=12.5,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._live.start()

    def stop(self) -> None:
        """Clear the live progress line (before a message or a result; it comes back with the
        next progress report)."""
        if self._live is not None:
            self._live.stop()
            self._live = None
            self._spinner = None


# ----------------------------------------------------------------------------- arguments -> keywords


def check_time_limit(args: argparse.Namespace) -> None:
    limit = getattr(args, "time_limit", None)
    if limit is not None and not limit > 0:
        raise InputError("--time-limit must be more than 0 seconds")


def job_deadline(args: argparse.Namespace, reporter: Reporter) -> Deadline:
    """``--time-limit`` as a deadline from the command's start: reading the grid and the word
    list count towards it, so the command as a whole keeps the limit."""
    check_time_limit(args)
    return deadline_after(getattr(args, "time_limit", None), start=reporter.start)


def check_limit(args: argparse.Namespace) -> None:
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be 1 or more")


def open_grid(args: argparse.Namespace) -> GridFile:
    from ..api import open_grid as open_grid_file

    rtl = args.rtl or getattr(args, "lang", "en") == "ar"
    grid_file = open_grid_file(args.grid, rtl=rtl, block=getattr(args, "block", None))
    theme = getattr(args, "theme", None)
    if theme:  # theme entries by position: letters of the grid from here on (kept as given)
        from dataclasses import replace

        from ..api.givens import parse_placement, place_entries

        grid_file = replace(grid_file, grid=place_entries(grid_file.grid, [parse_placement(t) for t in theme]))
    return grid_file


def fill_settings(args: argparse.Namespace, grid_file: GridFile) -> dict[str, Any]:
    """The fill options of the arguments, as keywords of the library API."""
    required = []
    for item in getattr(args, "require", []):
        slot_id, sep, word = item.partition("=")
        if not sep or not slot_id.strip() or not word.strip():
            raise InputError(f"--require {item!r}: write SLOT=WORD, e.g. 1A=CROSSWORD")
        try:
            grid_file.grid.slot(slot_id)
        except KeyError:
            raise InputError(f"--require {item!r}: the grid has no slot {slot_id.strip().upper()}", args.grid) from None
        required.append((slot_id.strip().upper(), word.strip()))
    if args.min_score is not None and args.min_score < 0:
        raise InputError("--min-score must be 0 or more")
    return {
        "no_shared_substring": no_shared_substring(args),
        "lang": args.lang,
        "min_score": args.min_score,
        "ban": [*args.ban, *banned_words(getattr(args, "ban_file", []))],
        "require": required,
        "allow_duplicates": args.allow_duplicates,
        "exact": grid_file.fill_in is not None or getattr(args, "exact", False),
    }


def no_shared_substring(args: argparse.Namespace) -> int | None:
    """``--no-shared-substring N``, checked (N >= 2)."""
    n: int | None = getattr(args, "no_shared_substring", None)
    if n is not None and n < 2:
        raise InputError(
            f"--no-shared-substring must be 2 or more (got {n}): N is the shortest run two entries may not share"
        )
    return n


def backend_settings(args: argparse.Namespace) -> dict[str, Any]:
    """``backend``, ``backend_options`` and ``seed`` of the arguments: ``--backend-option``
    items, with ``--workers`` and ``--formulation`` as shorthands for those options."""
    from ..backends.options import parse_option_items

    options: dict[str, Any] = parse_option_items(getattr(args, "backend_option", None) or [])
    for name in ("workers", "formulation"):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    return {"backend": args.backend, "backend_options": options, "seed": args.seed}


class LoadTimedOut(LoadTimeout):
    """The time limit passed while the word list loaded: the grid is read, so the command can
    still answer with a timed-out result for it."""

    def __init__(self, grid_file: GridFile, path: str):
        super().__init__(path)
        self.grid_file = grid_file


class LoadInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a stop signal) while the word list loaded: the grid is read, so the command can
    still answer with an interrupted result for it, as it would a moment later."""

    def __init__(self, grid_file: GridFile):
        super().__init__()
        self.grid_file = grid_file


@dataclass
class GridJob:
    """A grid command's inputs read from the arguments.

    Attributes:
        grid_file: The grid and what its file says beyond the pattern.
        lexicon: The word list (a fill-in puzzle's own, ``--words`` or the built-in list).
        keywords: The library API's keywords: fill options, backend, backend options, seed,
            time limit and the progress line.
    """

    grid_file: GridFile
    lexicon: Lexicon
    keywords: dict[str, Any]

    @property
    def grid(self) -> Grid:
        return self.grid_file.grid


def grid_job(args: argparse.Namespace, reporter: Reporter, *, note_regions: bool = True) -> GridJob:
    """Read the grid and the word list of ``fill``, ``check``, ``count`` or ``enumerate``."""
    deadline = job_deadline(args, reporter)
    grid_file = open_grid(args)
    try:
        lexicon = load_words(args, reporter, grid_file, deadline)
    except KeyboardInterrupt as stop:
        raise LoadInterrupted(grid_file) from stop
    except LoadTimeout as late:
        raise LoadTimedOut(grid_file, late.path) from late
    keywords = {
        **fill_settings(args, grid_file),
        **backend_settings(args),
        "deadline": deadline,
        "progress": reporter.progress,
    }
    if note_regions:
        from ..api import regions

        parts = regions(grid_file.grid)
        if len(parts) > 1:
            sizes = ", ".join(str(len(p)) for p in parts[:8]) + (", ..." if len(parts) > 8 else "")
            reporter.info(f"note: the grid has {len(parts)} independent regions (slots per region: {sizes})")
    return GridJob(grid_file, lexicon, keywords)


# ----------------------------------------------------------------------------- output


def output_format(args: argparse.Namespace) -> str:
    output = getattr(args, "output", None)
    chosen: str = args.format or ("json" if output and output.lower().endswith(".json") else "text")
    return chosen


#: Arguments that name files a command reads: ``--output`` may not be any of them.
INPUT_ARGUMENTS = ("grid", "input", "words", "overrides", "ban_file", "clue_db")


#: Commands whose ``--output`` is a puzzle or result file, its format chosen by the extension.
PUZZLE_OUTPUT_COMMANDS = ("fill:cmd_fill", "layout:cmd_generate", "layout:cmd_freeform", "files:cmd_convert")


def check_output(args: argparse.Namespace) -> None:
    """Refuse, before any work, an ``--output`` that is a directory, FIFO or device, or one of the
    command's own input files, or (for a command writing puzzles) a name whose extension is not a
    format we write (InputError)."""
    output = getattr(args, "output", None)
    if not output:
        return
    if getattr(args, "handler", None) in PUZZLE_OUTPUT_COMMANDS:
        check_puzzle_output(args, output)
    inputs: list[str] = []
    for name in INPUT_ARGUMENTS:
        value = getattr(args, name, None)
        if isinstance(value, str):
            inputs.append(value)
        elif isinstance(value, list):
            inputs += [v for v in value if isinstance(v, str)]
    output_target(output, inputs)


def write_puzzle_output(args: argparse.Namespace, puzzle: Any, fallback: str, reporter: Reporter) -> None:
    """``puzzle`` to ``--output`` in its crossword format, saying on stderr what the format left
    out; when writing fails (the format cannot hold the grid, the file cannot be written)
    ``fallback`` (the result as text) goes to stdout and :class:`CannotWrite` says why, so the
    computed result is never lost."""
    from ..formats import write_crossword

    try:
        for loss in write_crossword(args.output, puzzle):
            reporter.warn(f"{args.output}: {loss}")
    except (InputError, OSError) as error:
        sys.stdout.write(fallback)
        sys.stdout.flush()
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise CannotWrite(f"{args.output}: cannot write ({why}); the result was printed instead") from None


def check_puzzle_output(args: argparse.Namespace, output: str) -> None:
    """The output's extension names a format we write (or there is none: a text result), and
    ``--format json`` does not contradict it."""
    from ..formats import FILE_FORMATS

    ext = os.path.splitext(output)[1].lower()
    known = ", ".join(sorted(FILE_FORMATS))
    if ext and ext not in FILE_FORMATS:
        raise InputError(f"cannot write {ext} files: the output's extension chooses the format, one of {known}", output)
    if getattr(args, "format", None) == "json" and ext not in ("", ".json"):
        raise InputError(f"--format json and the {ext} output disagree: name the output .json or drop --format", output)


def write_output(args: argparse.Namespace, text: str) -> None:
    """``text`` to ``--output`` (atomically) or stdout."""
    if not text:
        return
    if getattr(args, "output", None):
        try:
            write_atomically(args.output, text)
        except OSError as error:
            sys.stdout.write(text)  # the computed result is not lost
            sys.stdout.flush()
            why = error.strerror or str(error)
            raise CannotWrite(f"{args.output}: cannot write ({why}); the result was printed instead") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def parse_size(text: str) -> tuple[int, int]:
    from ..core.limits import layout_size

    return layout_size(text, "--size")
