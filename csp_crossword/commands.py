"""The work behind each ``csp-crossword`` command (the parser lives in ``cli.py``).

Every handler takes the parsed arguments and a :class:`Reporter`, writes results to stdout (or
``--output``), messages to stderr, and returns an exit code.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

from .backends import get_backend, names as backend_names, REGISTRY
from .errors import ExitCode, InputError
from .files import write_atomically
from .formats import Puzzle, is_crossword_file, puzzle_from_fill, read_crossword, write_crossword
from .graph import components
from .grid import BLOCK, EMPTY, Grid
from .lexicon import Lexicon, load_word_lists
from .output import JSON_FORMAT_VERSION, grid_rows, result_to_dict, result_to_text, to_json
from .problem import FillOptions, FillProblem, build_problem
from .puzzle import FillInPuzzle, read_puzzle
from .result import FillResult, SearchStats, Status
from .verify import verify_fill

#: Seconds before the progress line appears (short runs stay quiet).
PROGRESS_DELAY = 1.0


class Reporter:
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


# ----------------------------------------------------------------------------- shared steps


class Job:
    """A grid (or fill-in puzzle), its word list and options, loaded from the arguments."""

    def __init__(self, args, reporter: Reporter):
        rtl = args.rtl or getattr(args, "lang", "en") == "ar"
        self.crossword = None
        if is_crossword_file(args.grid) or args.grid.lower().endswith(".json"):
            self.crossword = read_crossword(args.grid, rtl=rtl)  # pattern and givens; its solution is not used
            self.grid, self.puzzle = self.crossword.grid, None
        else:
            self.grid, self.puzzle = read_puzzle(args.grid, block=getattr(args, "block", None), rtl=rtl)
        self.block = self.puzzle.block if self.puzzle else (getattr(args, "block", None) or BLOCK)
        self.empty = self.puzzle.empty if self.puzzle else EMPTY
        if not hasattr(args, "words"):
            return
        if self.puzzle is not None:
            if args.words:
                reporter.warn("a fill-in puzzle brings its own words; --words is ignored")
            self.lexicon = self.puzzle.lexicon()
        else:
            self.lexicon = _load_lexicon(args, reporter)
        self.options = _options(args, self.grid, exact=self.puzzle is not None or getattr(args, "exact", False))

    def problem(self, reporter: Reporter | None = None) -> FillProblem:
        problem = build_problem(self.grid, self.lexicon, self.options)
        if reporter is not None:
            parts = components(problem.graph)
            if len(parts) > 1:
                sizes = ", ".join(str(len(p)) for p in parts)
                reporter.info(f"note: the grid has {len(parts)} independent regions (slots per region: {sizes})")
        return problem

    def verify(self, problem: FillProblem, cells) -> list[str]:
        return verify_fill(
            self.grid,
            cells,
            problem.lexicon,
            allow_duplicates=problem.options.allow_duplicates,
            extra_words=problem.extra_words,
            exact_uses=problem.word_uses if problem.options.exact else None,
        )


def _load_lexicon(args, reporter: Reporter) -> Lexicon:
    if args.words:
        lexicon, reports = load_word_lists(args.words)
        for report in reports:
            warning = report.warning()
            if warning:
                reporter.warn(warning)
        return lexicon
    if getattr(args, "exact", False):
        raise InputError("--exact needs --words: the list of words to place")
    from .builtin import builtin_lexicon

    return builtin_lexicon(args.lang)


def _options(args, grid: Grid, exact: bool) -> FillOptions:
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
        exact=exact,
    )


def _check_time_limit(args) -> None:
    limit = getattr(args, "time_limit", None)
    if limit is not None and limit <= 0:
        raise InputError("--time-limit must be more than 0 seconds")


def _check_limits(args) -> None:
    _check_time_limit(args)
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be 1 or more")


def make_backend(args, reporter: Reporter, job: str = "fill"):
    """The backend named by ``--backend`` with the options it understands."""
    cls = get_backend(args.backend)
    if not cls.available():
        raise InputError(f"backend {args.backend} is not available here (see 'csp-crossword backends')")
    if job not in cls.supports:
        able = [n for n in backend_names() if job in get_backend(n).supports]
        raise InputError(f"backend {args.backend} cannot {job}; use one of: {', '.join(able)}")
    options: dict = {}
    if getattr(args, "optimize", False):
        if "optimize" not in cls.supports:
            raise InputError(f"backend {args.backend} cannot optimise; use --backend cpsat")
        options["optimize"] = True
    if args.backend in ("cpsat", "auto"):
        options["workers"] = getattr(args, "workers", None)
    if args.backend == "cpsat":
        options["formulation"] = getattr(args, "formulation", None) or "letters"
    return cls(options, seed=getattr(args, "seed", 0))


EXIT_BY_STATUS = {
    Status.FILLED: ExitCode.OK,
    Status.OPTIMAL: ExitCode.OK,
    Status.UNSATISFIABLE: ExitCode.UNSATISFIABLE,
    Status.TIMEOUT: ExitCode.TIMEOUT,
    Status.INTERRUPTED: ExitCode.INTERRUPTED,
}


def _write(args, text: str) -> None:
    if getattr(args, "output", None):
        if text:
            write_atomically(args.output, text)
    elif text:
        sys.stdout.write(text)
        sys.stdout.flush()


def _format(args) -> str:
    output = getattr(args, "output", None)
    return args.format or ("json" if output and output.lower().endswith(".json") else "text")


# ----------------------------------------------------------------------------- fill


def cmd_fill(args, reporter: Reporter) -> int:
    _check_time_limit(args)
    job = Job(args, reporter)
    backend = make_backend(args, reporter, "fill")
    problem = job.problem(reporter)
    result = backend.solve(problem, time_limit=args.time_limit, progress=reporter.progress)
    reporter.stop()
    if result.status.has_fill:
        problems = job.verify(problem, result.cells)
        if problems:  # a backend bug: never hand out a wrong fill
            raise RuntimeError(f"backend {args.backend} returned an invalid fill: {problems[0]}")
    if args.output and is_crossword_file(args.output):
        puzzle = _fill_puzzle(job, result)
        _apply_clues(args, puzzle, reporter)
        write_crossword(args.output, puzzle)
    elif _format(args) == "json":
        _write(args, to_json(result_to_dict(job.grid, result)))
    else:
        _write(args, result_to_text(job.grid, result, job.block, job.empty))
    _report_fill(result, reporter)
    return EXIT_BY_STATUS[result.status]


def _fill_puzzle(job: Job, result: FillResult) -> Puzzle:
    """The fill as a puzzle file: the solution with clues from the word list, or, without a full
    fill, the pattern with the letters placed so far as givens."""
    title = job.crossword.title if job.crossword else ""
    if result.status.has_fill:
        puzzle = puzzle_from_fill(job.grid, result.cells, job.lexicon, title=title)
    else:
        puzzle = Puzzle(job.grid.with_cells(result.cells) if result.cells else job.grid, title=title)
    if job.crossword:
        puzzle.author, puzzle.copyright = job.crossword.author, job.crossword.copyright
    return puzzle


def _apply_clues(args, puzzle: Puzzle, reporter: Reporter) -> None:
    """``--clues wordnet``: WordNet glosses for the answered entries without a clue."""
    if getattr(args, "clues", "list") != "wordnet":
        return
    from .clues import add_wordnet_clues, wordnet_directory

    if wordnet_directory() is None:
        reporter.warn("WordNet not found (install Debian's wordnet-base, or set WNSEARCHDIR); clues left empty")
        return
    added = add_wordnet_clues(puzzle)
    reporter.info(f"WordNet gave {added} clue(s)")


def _report_fill(result: FillResult, reporter: Reporter) -> None:
    s = result.stats
    effort = f"{s.seconds:.2f} s, {s.nodes} nodes, {s.backtracks} backtracks, {s.restarts} restarts"
    if result.status.has_fill:
        extra = ""
        if result.bound is not None:
            extra = f", total {result.total_score} (bound {result.bound:g}, gap {result.gap:.2%})"
        reporter.info(
            f"{result.status.value} by {result.backend} in {effort}; "
            f"{len(result.entries)} entries, mean score {result.mean_score}{extra}"
        )
    elif result.status == Status.UNSATISFIABLE:
        reporter.warn(f"unsatisfiable: {result.reason}")
    else:
        done = len(result.entries)
        reporter.warn(f"{result.status.value} after {effort}; best partial fill has {done} entries")


# ----------------------------------------------------------------------------- slots, candidates


def cmd_slots(args, reporter: Reporter) -> int:
    grid = Job(args, reporter).grid
    stats = grid.stats()
    if args.format == "json":
        data = {
            "slots": [
                {**slot.to_dict(), "pattern": grid.pattern_text(slot)}
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
    lines += [""] + _stats_lines(stats)
    sys.stdout.write("\n".join(lines) + "\n")
    return ExitCode.OK


def _stats_lines(stats) -> list[str]:
    hist = ", ".join(f"{k}:{v}" for k, v in stats.length_histogram.items())
    return [
        f"size {stats.rows}x{stats.cols}, {stats.blocks} blocks, {stats.open_cells} open cells "
        f"({stats.prefilled_cells} pre-filled)",
        f"{stats.slots} slots ({stats.across_slots} across, {stats.down_slots} down), "
        f"average length {stats.average_length}; lengths {hist}",
        f"unchecked cells {stats.unchecked_cells}, isolated cells {stats.isolated_cells}, "
        f"{'connected' if stats.connected else f'{stats.components} separate regions'}, "
        f"symmetry: {', '.join(stats.symmetries) or 'none'}",
    ]


def cmd_candidates(args, reporter: Reporter) -> int:
    if args.limit < 0:
        raise InputError("--limit must be 0 or more")
    job = Job(args, reporter)
    grid = job.grid
    try:
        slot = grid.slot(args.slot)
    except KeyError:
        raise InputError(f"the grid has no slot {args.slot.strip().upper()!r} (see 'csp-crossword slots')", args.grid) from None
    problem = job.problem()
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


# ----------------------------------------------------------------------------- backends


def cmd_backends(args, reporter: Reporter) -> int:
    rows = []
    for name in REGISTRY:
        cls = get_backend(name)
        available = cls.available()
        rows.append(
            {
                "name": name,
                "default": name == next(iter(REGISTRY)),
                "available": available,
                "version": cls.version() if available else None,
                "supports": sorted(cls.supports),
                "description": cls.description,
            }
        )
    if args.format == "json":
        sys.stdout.write(to_json(rows))
        return ExitCode.OK
    lines = []
    for row in rows:
        mark = " (default)" if row["default"] else ""
        state = f"available, version {row['version']}" if row["available"] else "not installed"
        lines.append(f"{row['name']}{mark}: {state}; supports {', '.join(row['supports'])}")
        lines.append(f"    {row['description']}")
    sys.stdout.write("\n".join(lines) + "\n")
    return ExitCode.OK


# ----------------------------------------------------------------------------- check


def cmd_check(args, reporter: Reporter) -> int:
    from .check import check

    _check_time_limit(args)
    job = Job(args, reporter)
    backend = make_backend(args, reporter, "fill")
    report = check(job.grid, job.lexicon, job.options, backend=backend, time_limit=args.time_limit, min_length=args.min_length)
    if report.witness is not None and job.verify(job.problem(), report.witness.cells):
        raise RuntimeError("the witness fill does not verify")
    if args.format == "json":
        data = {
            "status": report.status,
            "grid": grid_rows(report.witness.cells) if report.witness else None,
            "core": report.core,
            "core_minimal": report.core_minimal if report.core is not None else None,
            "patterns": report.patterns,
            "empty": [slot_id for slot_id, _ in report.empty],
            "empty_reasons": {slot_id: why for slot_id, why in report.empty},
            "reason": report.reason,
            "structure": report.structure,
            "seconds": round(report.seconds, 4),
        }
        sys.stdout.write(to_json(data))
    else:
        sys.stdout.write("\n".join(_check_lines(job, report)) + "\n")
    return {"solvable": ExitCode.OK, "unsolvable": ExitCode.UNSATISFIABLE}.get(report.status, ExitCode.TIMEOUT)


def _check_lines(job: Job, report) -> list[str]:
    s = report.structure
    lines = [report.status]
    missing = ", ".join(map(str, s["missing_lengths"])) or "none"
    lines.append(f"slot lengths without any word in the list: {missing}")
    for row in s["lengths"]:
        lines.append(f"  length {row['length']:>2}: {row['slots']:>3} slots, {row['words']:>7} words")
    if s["short_slots"]:
        lines.append(f"entries shorter than {s['min_length']}: {', '.join(s['short_slots'])}")
    if len(s["components"]) > 1:
        lines.append(f"{len(s['components'])} separate regions: " + " | ".join(" ".join(p) for p in s["components"]))
    lines.append(f"symmetry: {', '.join(s['symmetry'])}; unchecked cells: {s['unchecked_cells']}")
    if report.witness is not None:
        lines.append("")
        lines.append(result_to_text(job.grid, report.witness, job.block, job.empty).rstrip("\n"))
    if report.status == "unsolvable":
        for slot_id, why in report.empty:
            lines.append(f"no candidate for {slot_id}: {why}")
        if report.core:
            kind = "minimal" if report.core_minimal else "not proved minimal"
            lines.append(f"these slots cannot be filled together ({kind}):")
            for slot_id in report.core:
                lines.append(f"  {slot_id:>5}  {report.patterns[slot_id]}")
        elif report.reason:
            lines.append(report.reason)
    elif report.status == "unknown":
        lines.append(report.reason or "unknown")
    return lines


# ----------------------------------------------------------------------------- count, enumerate


def cmd_count(args, reporter: Reporter) -> int:
    from .counting import count_fills

    _check_limits(args)
    job = Job(args, reporter)
    backend = make_backend(args, reporter, "enumerate")
    result = count_fills(job.problem(reporter), backend, args.limit, time_limit=args.time_limit, progress=reporter.progress)
    timed_out = not result.exact and (args.limit is None or result.count < args.limit)
    if args.format == "json":
        data = result.to_dict()
        data["limit"] = args.limit
        data["backend"] = args.backend
        data["stopped"] = "time limit" if timed_out else ("limit" if not result.exact else None)
        sys.stdout.write(to_json(data))
    else:
        if result.exact:
            text = f"{result.count} fill{'s' if result.count != 1 else ''}"
        else:
            why = "the time limit" if timed_out else f"--limit {args.limit}"
            text = f"at least {result.count} fills (stopped by {why})"
        sys.stdout.write(text + "\n")
    reporter.info(f"counted by {args.backend} in {result.seconds:.2f} s over {result.components} region(s)")
    return ExitCode.TIMEOUT if timed_out else ExitCode.OK


def cmd_enumerate(args, reporter: Reporter) -> int:
    from .backends.base import fill_from_words

    _check_limits(args)
    job = Job(args, reporter)
    backend = make_backend(args, reporter, "enumerate")
    problem = job.problem(reporter)
    enumeration = backend.enumerate(problem, time_limit=args.time_limit, progress=reporter.progress)
    produced = 0
    for words in enumeration:
        cells, entries = fill_from_words(problem, words)
        problems = job.verify(problem, cells)
        if problems:
            raise RuntimeError(f"backend {args.backend} enumerated an invalid fill: {problems[0]}")
        produced += 1
        if args.format == "json":
            record = {"index": produced, "grid": grid_rows(cells), "entries": [e.to_dict() for e in entries]}
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            fill = FillResult(Status.FILLED, args.backend, cells, entries)
            sys.stdout.write(("\n" if produced > 1 else "") + result_to_text(job.grid, fill, job.block, job.empty))
        sys.stdout.flush()
        if args.limit is not None and produced >= args.limit:
            break
    complete = enumeration.complete
    timed_out = not complete and (args.limit is None or produced < args.limit)
    state = "all" if complete else ("time limit reached after" if timed_out else "stopped at --limit after")
    reporter.info(f"{state} {produced} fill(s), by {args.backend} in {enumeration.stats.seconds:.2f} s")
    return ExitCode.TIMEOUT if timed_out else ExitCode.OK


# ----------------------------------------------------------------------------- generate


def _size(text: str) -> tuple[int, int]:
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit() or not (2 <= int(rows) <= 50 and 2 <= int(cols) <= 50):
        raise InputError(f"--size {text!r}: write ROWSxCOLS with 2 to 50 each, e.g. 10x10")
    return int(rows), int(cols)


def cmd_generate(args, reporter: Reporter) -> int:
    from .generate import generate

    rows, cols = _size(args.size)
    _check_time_limit(args)
    if args.max_run is not None and args.max_run < 2:
        raise InputError("--max-run must be 2 or more")
    if args.lexicon == "products":
        from .numeric import products_lexicon

        lexicon = products_lexicon()
    else:
        args.exact = False
        lexicon = _load_lexicon(args, reporter)
    if args.min_score is not None:
        lexicon = lexicon.filtered(min_score=args.min_score)
    made = generate(
        rows, cols, lexicon, max_run=args.max_run, symmetric=args.symmetric, time_limit=args.time_limit,
        seed=args.seed, method=args.method, rtl=args.lang == "ar", allow_duplicates=args.allow_duplicates,
    )
    result = made.result
    if result.status.has_fill:
        problems = verify_fill(made.grid, result.cells, lexicon, allow_duplicates=args.allow_duplicates)
        if problems:
            raise RuntimeError(f"generate produced an invalid fill: {problems[0]}")
    extra = {"method": made.method, "patterns_tried": made.patterns_tried}
    if made.method == "progressive":
        extra.update(unknown=made.unknown, scrambled=made.scrambled)
    if _format(args) == "json":
        text = to_json(result_to_dict(made.grid, result, extra))
    else:
        text = result_to_text(made.grid, result)
    _write(args, text)
    if result.status.has_fill:
        reporter.info(
            f"{made.method} path: {len(result.entries)} entries in {result.stats.seconds:.2f} s "
            f"({made.patterns_tried} pattern(s) tried), mean score {result.mean_score}"
        )
        return ExitCode.OK
    reporter.warn(
        f"no full crossword within {args.time_limit:g} s; best {made.method} layout has "
        f"{len(made.unknown)} unknown and {len(made.scrambled)} scrambled down run(s): "
        f"{', '.join(made.unknown + made.scrambled) or '-'}"
    )
    return ExitCode.TIMEOUT


# ----------------------------------------------------------------------------- freeform

#: Parts of the text output of ``freeform``, in order.
FREEFORM_PARTS = ("solution", "blank", "clues", "wordsearch", "report")
#: Seconds ``freeform`` spends when no --time-limit is given.
FREEFORM_SECONDS = 2.0


def _is_rtl(words) -> bool:
    """Whether every word starts in a right-to-left script (Arabic, Hebrew, ...)."""
    import unicodedata

    return bool(words) and all(unicodedata.bidirectional(w[0]) in ("R", "AL") for w in words)


def cmd_freeform(args, reporter: Reporter) -> int:
    import random

    from .freeform import Freeform
    from .sheets import alphabet_of, blank_grid_text, clue_lists_text, numbered_entries, word_search

    _check_time_limit(args)
    rows = cols = None
    if args.size:
        rows, cols = _size(args.size)
    parts = [p.strip() for p in args.show.split(",") if p.strip()]
    unknown = [p for p in parts if p not in FREEFORM_PARTS]
    if unknown or not parts:
        raise InputError(f"--show {args.show!r}: choose from {','.join(FREEFORM_PARTS)}")
    lexicon, reports = load_word_lists([args.words])
    for report in reports:
        if report.warning():
            reporter.warn(report.warning())
    words = [w for w, n in lexicon.word_uses().items() for _ in range(n)]
    if args.pick is not None:
        if args.pick < 1:
            raise InputError("--pick must be 1 or more")
        if args.pick < len(words):
            words = random.Random(args.seed).sample(words, args.pick)
    if not words:
        raise InputError("the word list has no words", args.words)
    rtl = args.rtl or _is_rtl(words)
    engine = Freeform(words, rows=rows, cols=cols, allow_islands=args.allow_islands, symmetric=args.symmetric, rtl=rtl)
    result = engine.run(args.time_limit or FREEFORM_SECONDS, args.seed)
    problems = verify_fill(result.grid, result.cells, Lexicon.from_words(words), exact_uses=Counter(result.placed))
    if not args.allow_islands and result.placed and not result.grid.stats().connected:
        problems.append("the board is not one connected piece")
    if problems:
        raise RuntimeError(f"freeform produced an invalid board: {problems[0]}")
    entries = numbered_entries(result.grid, result.cells, lexicon)
    if args.clues == "wordnet":
        board = Puzzle(result.grid, solution=result.cells, clues={e["id"]: e["clue"] for e in entries if e["clue"]})
        _apply_clues(args, board, reporter)
        for entry in entries:
            entry["clue"] = board.clues.get(entry["id"], "")
    search = word_search(result.cells, alphabet_of(words), random.Random(args.seed))
    show = lexicon.display_form  # the words as the user wrote them
    if args.output and is_crossword_file(args.output):
        clues = {e["id"]: e["clue"] for e in entries if e["clue"]}
        write_crossword(args.output, Puzzle(result.grid, solution=result.cells, clues=clues, freeform=True))
        text = ""
    elif _format(args) == "json":
        data = {
            "format": JSON_FORMAT_VERSION,
            "kind": "freeform",
            "status": "interrupted" if result.interrupted else "filled",
            "rows": result.grid.rows,
            "cols": result.grid.cols,
            "rtl": rtl,
            "symmetric": args.symmetric,
            "grid": grid_rows(result.cells),
            "cells": [list(row) for row in result.cells],
            "entries": entries,
            "placed": [show(w) for w in result.placed],
            "failed": [show(w) for w in result.failed],
            "isolated": [show(w) for w in result.isolated],
            "wordsearch": grid_rows(tuple(tuple(row) for row in search)),
            "stats": {
                "words_listed": len(words),
                "words_placed": len(result.placed),
                "crossings": result.crossings,
                "crossings_per_word": round(2 * result.crossings / len(result.placed), 3) if result.placed else 0.0,
                "fill": round(result.fill, 3),
                "boards": result.boards,
                "seconds": round(result.seconds, 3),
            },
        }
        text = to_json(data)
    else:
        sections = {
            "solution": "Solution\n" + "\n".join(grid_rows(result.cells)) + "\n",
            "blank": "Puzzle\n" + blank_grid_text(result.grid),
            "clues": clue_lists_text(entries),
            "wordsearch": "Word search\n" + "\n".join(grid_rows(tuple(tuple(row) for row in search))) + "\n",
            "report": _freeform_report(result, show),
        }
        text = "\n".join(sections[p] for p in parts)
    _write(args, text)
    reporter.info(
        f"placed {len(result.placed)} of {len(words)} words on {result.grid.rows}x{result.grid.cols}, "
        f"{result.crossings} crossings, {result.boards} boards in {result.seconds:.2f} s"
    )
    if result.failed:
        reporter.info(f"not placed: {', '.join(show(w) for w in result.failed)}")
    return ExitCode.INTERRUPTED if result.interrupted else ExitCode.OK


def _freeform_report(result, show) -> str:
    lines = [
        f"Placed ({len(result.placed)}): {', '.join(show(w) for w in result.placed) or '-'}",
        f"Not placed ({len(result.failed)}): {', '.join(show(w) for w in result.failed) or '-'}",
    ]
    if result.isolated:
        lines.append(f"Isolated ({len(result.isolated)}): {', '.join(show(w) for w in result.isolated)}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- convert, render


def cmd_convert(args, reporter: Reporter) -> int:
    puzzle = read_crossword(args.input, rtl=args.rtl)
    _apply_clues(args, puzzle, reporter)
    write_crossword(args.output, puzzle)
    reporter.info(
        f"{args.input} -> {args.output}: {puzzle.grid.rows}x{puzzle.grid.cols}, {len(puzzle.grid.slots)} entries, "
        f"{len(puzzle.clues)} clues, {'with' if puzzle.solution is not None else 'no'} solution"
    )
    return ExitCode.OK


def cmd_render(args, reporter: Reporter) -> int:
    from .render import render

    puzzle = read_crossword(args.input, rtl=args.rtl)
    if args.title:
        puzzle.title = args.title
    _apply_clues(args, puzzle, reporter)
    fmt = args.format or _render_format(args.output)
    if fmt in ("pdf", "png") and not args.output:
        raise InputError(f"{fmt} output is binary: give --output FILE")
    data = render(puzzle, fmt, solution=args.solution)
    if args.output:
        write_atomically(args.output, data)
    else:
        sys.stdout.write(data)
    return ExitCode.OK


def _render_format(output: str | None) -> str:
    if output:
        ext = output.rsplit(".", 1)[-1].lower()
        if ext in ("svg", "html", "pdf", "png"):
            return ext
        if ext == "htm":
            return "html"
    return "svg"


# ----------------------------------------------------------------------------- export


def cmd_export(args, reporter: Reporter) -> int:
    from .minizinc import dzn_data

    job = Job(args, reporter)
    _write(args, dzn_data(job.problem()))
    return ExitCode.OK


__all__ = [
    "Reporter",
    "cmd_backends",
    "cmd_candidates",
    "cmd_check",
    "cmd_convert",
    "cmd_count",
    "cmd_enumerate",
    "cmd_export",
    "cmd_fill",
    "cmd_freeform",
    "cmd_generate",
    "cmd_render",
    "cmd_slots",
]
