"""``generate`` and ``freeform``: crosswords without a given pattern."""

from __future__ import annotations

import argparse
import random
from typing import Any

from .. import api
from ..core.errors import ExitCode, InputError
from ..core.result import Status
from ..formats import Puzzle, is_crossword_file, puzzle_from_fill
from ..formats.documents import freeform_to_dict, grid_rows, result_to_dict, result_to_text, to_json
from .arguments import FREEFORM_PARTS
from .common import (
    Reporter,
    job_deadline,
    no_shared_substring,
    output_format,
    parse_size,
    write_output,
    write_puzzle_output,
)
from .fill import apply_clues, chosen_clue_sources, report_clues
from .puzzle_details import apply_puzzle_details


def cmd_generate(args: argparse.Namespace, reporter: Reporter) -> int:
    rows, cols = parse_size(args.size)
    deadline = job_deadline(args, reporter)
    if args.max_run is not None and args.max_run < 2:
        raise InputError("--max-run must be 2 or more")
    numeric = args.lexicon == "products"
    style = args.style or ("open" if numeric else "american")
    if style == "american":
        given = [name for name, value in (("--method", args.method), ("--symmetric", args.symmetric)) if value]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise InputError(f"{' and '.join(given)} {verb} to --style open only (see --symmetry for American grids)")
    else:
        given = [
            name
            for name, value in (
                ("--blocks", args.blocks is not None),
                ("--max-words", args.max_words is not None),
                ("--entry", bool(args.entry)),
                ("--symmetry", args.symmetry is not None),
            )
            if value
        ]
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise InputError(f"{', '.join(given)} {verb} to --style american only")
    from ..words.numeric import products_lexicon

    words = (
        None
        if numeric
        else api.load_words(
            args.words or (),
            lang=args.lang,
            allow_offensive=args.allow_offensive,
            on_warning=reporter.warn,
            overrides=args.overrides,
            deadline=deadline,
            spelling=generate_spelling(args),
        )
    )
    # a puzzle file gets every clue: its fill uses only entries a clue source has (the word
    # list's own clues count), unless --allow-unclued
    writes_puzzle = bool(args.output) and is_crossword_file(args.output)
    sources = chosen_clue_sources(args, reporter) if writes_puzzle else None
    clued_by = sources if sources and not numeric and not args.allow_unclued else None
    made = api.generate(
        rows,
        cols,
        words,
        clued_by=clued_by,
        lang=args.lang,
        numeric=numeric,
        min_score=args.min_score,
        max_run=args.max_run,
        symmetric=args.symmetric,
        method=args.method or "auto",
        style=style,
        blocks=args.blocks,
        max_words=args.max_words,
        symmetry=args.symmetry or "rotational",
        entries=args.entry,
        allow_duplicates=args.allow_duplicates,
        allow_shared_roots=args.allow_shared_roots,
        no_shared_substring=no_shared_substring(args),
        time_limit=args.time_limit,
        deadline=deadline,
        seed=args.seed,
        progress=reporter.progress,
    )
    reporter.stop()  # the live progress line goes before the result
    result = made.result
    extra: dict[str, Any] = {"method": made.method, "patterns_tried": made.patterns_tried}
    if made.method == "progressive":
        extra.update(unknown=made.unknown, scrambled=made.scrambled)
    if made.method == "american":
        extra.update(repairs=made.repairs, theme=made.theme)
    if output_format(args) == "json":
        text = to_json(result_to_dict(made.grid, result, extra))
    else:
        text = result_to_text(made.grid, result)
    if writes_puzzle:
        if result.status.has_fill and result.cells is not None:
            # a numeric fill's clues ("7×8 or 4×14") are its lexicon's, made by api.generate
            puzzle = puzzle_from_fill(made.grid, result.cells, products_lexicon() if numeric else words)
        else:
            puzzle = Puzzle(made.grid.with_cells(result.cells) if result.cells else made.grid)
        apply_puzzle_details(args, puzzle, reporter)
        clue_report = apply_clues(args, puzzle, reporter, sources)
        write_puzzle_output(args, puzzle, text, reporter)
        report_clues(clue_report, reporter, kept_from="the word list and --clue" if args.clue else "list")
    else:
        write_output(args, text)
    if result.status.has_fill:
        if made.method == "american":
            reporter.info(
                f"american pattern: {len(result.entries)} entries, {made.grid.stats().blocks} blocks, "
                f"in {result.stats.seconds:.2f} s ({made.patterns_tried} pattern(s) drawn, "
                f"{made.repairs} repair(s)), mean score {result.mean_score}"
            )
        else:
            reporter.info(
                f"{made.method} path: {len(result.entries)} entries in {result.stats.seconds:.2f} s "
                f"({made.patterns_tried} pattern(s) tried), mean score {result.mean_score}"
            )
        return ExitCode.OK
    if result.status == Status.INTERRUPTED:
        reporter.warn("interrupted: the best partial fill so far is above")
        return ExitCode.INTERRUPTED
    if made.method == "american":
        if not made.patterns_tried:
            reporter.warn(
                f"no pattern within the rules could be drawn in {result.stats.seconds:.1f} s "
                "(fewer --blocks, a longer --max-run or more --max-words leave more room)"
            )
        elif result.cells is None:
            reason = f": {result.reason}" if result.reason else ""
            reporter.warn(f"no fill for any of {made.patterns_tried} pattern(s){reason}")
        else:
            reporter.warn(
                f"no full crossword within {args.time_limit:g} s; the best partial fill of "
                f"{made.patterns_tried} pattern(s) ({made.repairs} repair(s)) is above"
            )
        return ExitCode.TIMEOUT
    if made.method == "csp":
        reporter.warn(
            f"no full crossword within the budget of --time-limit {args.time_limit:g} "
            f"({made.patterns_tried} pattern(s) tried); the last "
            "pattern with its partial fill is above (--style american draws patterns that fill more often)"
        )
        return ExitCode.TIMEOUT
    reporter.warn(
        f"no full crossword within the budget of --time-limit {args.time_limit:g}; best {made.method} layout has "
        f"{len(made.unknown)} unknown and {len(made.scrambled)} scrambled down run(s): "
        f"{', '.join(made.unknown + made.scrambled) or '-'}"
    )
    return ExitCode.TIMEOUT


def cmd_freeform(args: argparse.Namespace, reporter: Reporter) -> int:
    from ..layout.freeform import check_word_lengths
    from ..layout.sheets import alphabet_of, blank_grid_text, clue_lists_text, numbered_entries, word_search

    deadline = job_deadline(args, reporter)
    rows = cols = None
    if args.size:
        rows, cols = parse_size(args.size)
    parts = [p.strip() for p in args.show.split(",") if p.strip()]
    unknown = [p for p in parts if p not in FREEFORM_PARTS]
    if unknown or not parts:
        raise InputError(f"--show {args.show!r}: choose from {','.join(FREEFORM_PARTS)}")
    lexicon = api.load_words([args.words], on_warning=reporter.warn, deadline=deadline)
    if args.pick is not None and args.pick < 1:
        raise InputError("--pick must be 1 or more")
    if args.target is not None and args.target < 1:
        raise InputError("--target must be 1 or more")
    if not len(lexicon):
        raise InputError("the word list has no words", args.words)
    try:
        check_word_lengths(lexicon.scores)
    except InputError as error:
        raise InputError(error.message, args.words) from None
    result = api.freeform(
        lexicon,
        rows=rows,
        cols=cols,
        pick=args.pick,
        target=args.target,
        symmetric=args.symmetric,
        allow_islands=args.allow_islands,
        rtl=True if args.rtl else None,
        time_limit=args.time_limit,
        deadline=deadline,
        seed=args.seed,
        progress=reporter.progress,
    )
    reporter.stop()  # the live progress line goes before the result
    words = result.placed + result.failed  # every word laid out or not
    entries = numbered_entries(result.grid, result.cells, lexicon)
    # the list's clues first, then the sources of --clues for the words without one
    clues = {e["id"]: e["clue"] for e in entries if e["clue"]}
    board = Puzzle(result.grid, solution=result.cells, clues=clues, freeform=True)
    clue_report = apply_clues(args, board, reporter)
    for entry in entries:
        entry["clue"] = board.clues.get(entry["id"], "")
    search = tuple(tuple(row) for row in word_search(result.cells, alphabet_of(words), random.Random(args.seed)))
    show = lexicon.display_form  # the words as the user wrote them
    if args.output and is_crossword_file(args.output):
        write_puzzle_output(args, board, "\n".join(grid_rows(result.cells)) + "\n", reporter)
        report_clues(clue_report, reporter)
        text = ""
    elif output_format(args) == "json":
        document = freeform_to_dict(
            result, entries=entries, words_listed=len(words), symmetric=args.symmetric, wordsearch=search, show=show
        )
        text = to_json(document)
    else:
        sections = {
            "solution": "Solution\n" + "\n".join(grid_rows(result.cells)) + "\n",
            "blank": "Puzzle\n" + blank_grid_text(result.grid),
            "clues": clue_lists_text(entries),
            "wordsearch": "Word search\n" + "\n".join(grid_rows(search)) + "\n",
            "report": _freeform_report(result, show),
            "failed": f"Not placed ({len(result.failed):,}): {', '.join(show(w) for w in result.failed) or '-'}\n",
        }
        text = "\n".join(sections[p] for p in parts)
    write_output(args, text)
    reporter.info(
        f"placed {len(result.placed):,} of {len(words):,} words on {result.grid.rows}x{result.grid.cols}, "
        f"{result.crossings} crossings, {result.boards} boards in {result.seconds:.2f} s"
    )
    if result.failed:  # counted, not listed: a large list leaves tens of thousands (--show failed)
        reporter.info(f"{_not_placed(result)} (--show failed lists them)")
    if result.interrupted:
        return ExitCode.INTERRUPTED
    if result.timed_out:
        reporter.warn("the time limit ran out before every word was tried: this is the best board so far")
        return ExitCode.TIMEOUT
    return ExitCode.OK


def _not_placed(result: Any) -> str:
    n = len(result.failed)
    return f"{n:,} word{'' if n == 1 else 's'} not placed"


def _freeform_report(result: Any, show: Any) -> str:
    lines = [
        f"Placed ({len(result.placed):,}): {', '.join(show(w) for w in result.placed) or '-'}",
        _not_placed(result).capitalize() if result.failed else "Every word placed",
    ]
    if result.isolated:
        lines.append(f"Isolated ({len(result.isolated)}): {', '.join(show(w) for w in result.isolated)}")
    return "\n".join(lines) + "\n"


def generate_spelling(args: argparse.Namespace) -> str:
    """``--spelling`` for ``generate``: ``auto`` is US spellings from the built-in English list (a
    generated pattern is American-style) and a user's own list as written."""
    if args.spelling != "auto":
        return str(args.spelling)
    return "us" if args.lang == "en" and not args.words else "any"
