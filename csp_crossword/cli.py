"""The ``csp-crossword`` command: results on stdout, progress and statistics on stderr."""

from __future__ import annotations

import argparse
import sys
import time

from . import __version__
from .backends import DEFAULT as DEFAULT_BACKEND
from .backends import get_backend, names as backend_names
from .errors import ExitCode, InputError
from .graph import components
from .grid import Grid, read_grid
from .lexicon import Lexicon, load_word_lists
from .files import write_atomically
from .output import result_to_dict, result_to_text, to_json
from .problem import FillOptions, build_problem
from .result import FillResult, SearchStats, Status
from .verify import verify_fill

EXIT_CODES_HELP = """exit codes:
  0    success (filled, or the requested listing)
  1    proved unsatisfiable: no fill exists
  2    bad input or usage (the message names the file, line and column)
  3    time limit reached without a full result (the best partial fill is printed)
  130  interrupted (Ctrl-C); the best partial fill is printed
"""

#: Seconds before the progress line appears (short runs stay quiet).
PROGRESS_DELAY = 1.0


class _Reporter:
    """Messages, warnings and the progress line, all on stderr."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.start = time.monotonic()
        self._status = None
        self._console = None
        if not quiet and sys.stderr.isatty():
            from rich.console import Console

            self._console = Console(stderr=True)

    def info(self, message: str) -> None:
        if not self.quiet:
            self.stop()
            print(message, file=sys.stderr)

    def warn(self, message: str) -> None:
        self.stop()
        print(f"csp-crossword: warning: {message}", file=sys.stderr)

    def progress(self, stats: SearchStats) -> None:
        if self._console is None or time.monotonic() - self.start < PROGRESS_DELAY:
            return
        text = (
            f"searching… {stats.seconds:.1f} s, {stats.nodes} nodes, "
            f"{stats.backtracks} backtracks, {stats.restarts} restarts"
        )
        if self._status is None:
            self._status = self._console.status(text)
            self._status.start()
        else:
            self._status.update(text)

    def stop(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


# ----------------------------------------------------------------------------- arguments


def _add_grid_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("grid", metavar="GRID", help="grid file (# block, . open cell, else a glyph)")
    parser.add_argument("--rtl", action="store_true", help="right-to-left grid (implied by --lang ar)")


def _add_lexicon_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--words",
        action="append",
        metavar="FILE",
        help="word list (plain, word;score, CSV, JSON); repeat to combine, later files override",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "ar", "bn"),
        default="en",
        help="language of the built-in word list used without --words (default en)",
    )
    parser.add_argument("--min-score", type=int, metavar="N", help="ignore words scored below N")
    parser.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD")
    parser.add_argument(
        "--allow-duplicates", action="store_true", help="allow the same entry in two slots"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress or statistics")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="csp-crossword",
        description="Fill crossword grids by constraint solving.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"csp-crossword {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    fill = sub.add_parser(
        "fill",
        help="fill a grid from a word list",
        description="Fill every slot of GRID with words of the list, crossings agreeing.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_grid_args(fill)
    _add_lexicon_args(fill)
    fill.add_argument("--backend", default=DEFAULT_BACKEND, choices=backend_names(), help="solver (default %(default)s)")
    fill.add_argument("--seed", type=int, default=0, help="random seed: the same seed gives the same fill")
    fill.add_argument("--time-limit", type=float, metavar="SEC", help="stop after SEC seconds")
    fill.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="SLOT=WORD",
        help="put WORD in SLOT (e.g. 1A=CROSSWORD); repeatable",
    )
    fill.add_argument("--format", choices=("text", "json"), default=None, help="output format (default text, or json for a .json --output)")
    fill.add_argument("--output", "-o", metavar="FILE", help="write the result to FILE (atomically)")
    fill.set_defaults(handler=cmd_fill)

    slots = sub.add_parser(
        "slots",
        help="list the numbered slots and the grid statistics",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_grid_args(slots)
    slots.add_argument("--format", choices=("text", "json"), default="text")
    slots.set_defaults(handler=cmd_slots)

    cand = sub.add_parser(
        "candidates",
        help="ranked words for one slot that survive arc consistency",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_grid_args(cand)
    cand.add_argument("slot", metavar="SLOT", help="slot id such as 1A or 12D")
    _add_lexicon_args(cand)
    cand.add_argument("--limit", type=int, default=20, metavar="N", help="show N words (default 20; 0 for all)")
    cand.add_argument("--format", choices=("text", "json"), default="text")
    cand.set_defaults(handler=cmd_candidates)
    return parser


# ----------------------------------------------------------------------------- shared steps


def _load_grid(args) -> Grid:
    rtl = args.rtl or getattr(args, "lang", "en") == "ar"
    return read_grid(args.grid, rtl=rtl)


def _load_lexicon(args, reporter: _Reporter) -> Lexicon:
    if args.words:
        lexicon, reports = load_word_lists(args.words)
        for report in reports:
            warning = report.warning()
            if warning:
                reporter.warn(warning)
        return lexicon
    from .builtin import builtin_lexicon

    return builtin_lexicon(args.lang)


def _options(args, grid: Grid) -> FillOptions:
    required = []
    for item in getattr(args, "require", []):
        slot_id, sep, word = item.partition("=")
        if not sep or not slot_id.strip() or not word.strip():
            raise InputError(f"--require {item!r}: write SLOT=WORD, e.g. 1A=CROSSWORD")
        try:
            grid.slot(slot_id)
        except KeyError:
            raise InputError(f"--require {item!r}: the grid has no slot {slot_id.strip().upper()}", args.grid) from None
        required.append((slot_id.strip().upper(), word.strip()))
    if args.min_score is not None and args.min_score < 0:
        raise InputError("--min-score must be 0 or more")
    return FillOptions(
        allow_duplicates=args.allow_duplicates,
        min_score=args.min_score,
        banned=frozenset(args.ban),
        required=tuple(required),
    )


def _note_components(grid: Grid, problem, reporter: _Reporter) -> None:
    parts = components(problem.graph)
    if len(parts) > 1:
        sizes = ", ".join(str(len(p)) for p in parts)
        reporter.info(f"note: the grid has {len(parts)} independent regions (slots per region: {sizes})")


_EXIT_BY_STATUS = {
    Status.FILLED: ExitCode.OK,
    Status.OPTIMAL: ExitCode.OK,
    Status.UNSATISFIABLE: ExitCode.UNSATISFIABLE,
    Status.TIMEOUT: ExitCode.TIMEOUT,
    Status.INTERRUPTED: ExitCode.INTERRUPTED,
}


# ----------------------------------------------------------------------------- commands


def cmd_fill(args, reporter: _Reporter) -> int:
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError("--time-limit must be more than 0 seconds")
    grid = _load_grid(args)
    options = _options(args, grid)
    lexicon = _load_lexicon(args, reporter)
    problem = build_problem(grid, lexicon, options)
    _note_components(grid, problem, reporter)
    backend = get_backend(args.backend)(
        time_limit=args.time_limit, seed=args.seed, on_progress=reporter.progress
    )
    result = backend.solve(problem)
    reporter.stop()
    if result.status.has_fill:
        problems = verify_fill(
            grid,
            result.cells,
            problem.lexicon,
            allow_duplicates=options.allow_duplicates,
            extra_words=problem.extra_words,
        )
        if problems:  # a backend bug: never hand out a wrong fill
            raise RuntimeError(f"backend {args.backend} returned an invalid fill: {problems[0]}")
    _emit_fill(args, grid, result)
    _report_fill(result, reporter)
    return _EXIT_BY_STATUS[result.status]


def _emit_fill(args, grid: Grid, result: FillResult) -> None:
    fmt = args.format or ("json" if args.output and args.output.lower().endswith(".json") else "text")
    text = to_json(result_to_dict(grid, result)) if fmt == "json" else result_to_text(grid, result)
    if args.output:
        if text:
            write_atomically(args.output, text)
    elif text:
        sys.stdout.write(text)
        sys.stdout.flush()


def _report_fill(result: FillResult, reporter: _Reporter) -> None:
    s = result.stats
    effort = f"{s.seconds:.2f} s, {s.nodes} nodes, {s.backtracks} backtracks, {s.restarts} restarts"
    if result.status.has_fill:
        reporter.info(
            f"{result.status.value} by {result.backend} in {effort}; "
            f"{len(result.entries)} entries, mean score {result.mean_score}"
        )
    elif result.status == Status.UNSATISFIABLE:
        reporter.warn(f"unsatisfiable: {result.reason}")
    else:
        done = len(result.entries)
        reporter.warn(f"{result.status.value} after {effort}; best partial fill has {done} entries")


def cmd_slots(args, reporter: _Reporter) -> int:
    grid = _load_grid(args)
    stats = grid.stats()
    if args.format == "json":
        data = {
            "slots": [
                {
                    "id": slot.id,
                    "number": slot.number,
                    "direction": slot.direction,
                    "row": slot.start[0],
                    "col": slot.start[1],
                    "length": slot.length,
                    "pattern": grid.pattern_text(slot),
                }
                for slot in grid.slots
            ],
            "stats": stats.to_dict(),
        }
        sys.stdout.write(to_json(data))
        return ExitCode.OK
    lines = [f"{'slot':>6}  {'len':>3}  {'row':>3} {'col':>3}  pattern"]
    for slot in grid.slots:
        r, c = slot.start
        lines.append(f"{slot.id:>6}  {slot.length:>3}  {r + 1:>3} {c + 1:>3}  {grid.pattern_text(slot)}")
    hist = ", ".join(f"{k}:{v}" for k, v in stats.length_histogram.items())
    lines += [
        "",
        f"size {stats.rows}x{stats.cols}, {stats.blocks} blocks, {stats.open_cells} open cells "
        f"({stats.prefilled_cells} pre-filled)",
        f"{stats.slots} slots ({stats.across_slots} across, {stats.down_slots} down), "
        f"average length {stats.average_length}; lengths {hist}",
        f"unchecked cells {stats.unchecked_cells}, isolated cells {stats.isolated_cells}, "
        f"{'connected' if stats.connected else f'{stats.components} separate regions'}, "
        f"symmetry: {', '.join(stats.symmetries) or 'none'}",
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return ExitCode.OK


def cmd_candidates(args, reporter: _Reporter) -> int:
    if args.limit < 0:
        raise InputError("--limit must be 0 or more")
    grid = _load_grid(args)
    try:
        slot = grid.slot(args.slot)
    except KeyError:
        raise InputError(f"the grid has no slot {args.slot.strip().upper()!r} (see 'csp-crossword slots')", args.grid) from None
    lexicon = _load_lexicon(args, reporter)
    problem = build_problem(grid, lexicon, _options(args, grid))
    if problem.unsatisfiable:
        reason = "; ".join(f"{sid}: {why}" for sid, why in problem.empty)
        if args.format == "json":
            sys.stdout.write(to_json({"slot": slot.id, "status": "unsatisfiable", "reason": reason, "candidates": []}))
        reporter.warn(f"no candidates: the grid cannot be filled ({reason})")
        return ExitCode.UNSATISFIABLE
    index = problem.index_of(slot.id)
    words = problem.candidates(slot.id, limit=args.limit or None)
    total = problem.domains[problem.network.slot_number[slot.id]].bit_count()
    rows = [
        {"word": w, "display": problem.lexicon.display_form(w), "score": index.scores[index.position[w]]}
        for w in words
    ]
    if args.format == "json":
        data = {"slot": slot.id, "pattern": grid.pattern_text(slot), "total": total, "candidates": rows}
        sys.stdout.write(to_json(data))
    else:
        out = [f"{slot.id} {grid.pattern_text(slot)}: {total} candidates"]
        out += [f"{i:>5}. {row['word']}  {row['score']}" for i, row in enumerate(rows, 1)]
        sys.stdout.write("\n".join(out) + "\n")
    return ExitCode.OK


# ----------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse exits 2 on usage errors, 0 on --help
        return int(stop.code or 0)
    reporter = _Reporter(getattr(args, "quiet", False))
    try:
        return int(args.handler(args, reporter))
    except InputError as error:
        reporter.stop()
        print(f"csp-crossword: error: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:
        reporter.stop()
        print("csp-crossword: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK

