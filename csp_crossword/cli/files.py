"""``convert``, ``render`` and ``export``: crossword files, printable pages, other solvers' input."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from .. import api
from ..core.errors import CannotWrite, ExitCode, InputError
from ..core.files import write_atomically
from ..formats import Puzzle
from ..formats.documents import to_json
from .common import Reporter, fill_settings, open_grid, write_output
from .fill import apply_clues, report_clues
from .puzzle_details import apply_puzzle_details
from .word_lists import load_words


def cmd_convert(args: argparse.Namespace, reporter: Reporter) -> int:
    puzzle = api.read_puzzle(args.input, rtl=args.rtl)
    for warning in puzzle.warnings:
        reporter.warn(f"{args.input}: {warning}")
    clue_report = apply_clues(args, puzzle, reporter)
    try:
        losses = api.write_puzzle(args.output, puzzle)
    except OSError as error:
        raise CannotWrite(f"{args.output}: cannot write ({error.strerror or error})") from None
    for loss in losses:
        reporter.warn(f"{args.output}: {loss}")
    circles = puzzle.style_counts()["circles"]
    solution = "locked solution" if puzzle.locked is not None else "solution" if puzzle.solution is not None else ""
    reporter.info(
        f"{args.input} -> {args.output}: {puzzle.grid.rows}x{puzzle.grid.cols}, {len(puzzle.grid.slots)} entries, "
        f"{len(puzzle.clues)} clues"
        + "".join(f" + {len(group.clues)} under {group.heading}" for group in puzzle.extra_clues)
        + f", {'with ' + solution if solution else 'no solution'}"
        + (f", {circles} circles" if circles else "")
        + (f", {len(puzzle.voids)} void cells" if puzzle.voids else "")
        + (", diagramless" if puzzle.diagramless else "")
    )
    if args.clues != "none":  # a plain conversion says nothing of clues it did not touch
        report_clues(clue_report, reporter, kept_from="the file")
    if args.json:
        sys.stdout.write(to_json(conversion_summary(args.input, args.output, puzzle, losses)))
    return ExitCode.OK


def conversion_summary(source: str, target: str, puzzle: Puzzle, losses: list[str]) -> dict[str, object]:
    """The JSON summary of ``convert --json``."""
    return {
        "input": source,
        "output": target,
        "rows": puzzle.grid.rows,
        "cols": puzzle.grid.cols,
        "entries": len(puzzle.grid.slots),
        "clues": puzzle.clue_count(),
        "solution": "locked" if puzzle.locked is not None else puzzle.solution is not None,
        **puzzle.style_counts(),
        "voids": len(puzzle.voids),
        "diagramless": puzzle.diagramless,
        "variety": puzzle.kind or None,
        "warnings": list(puzzle.warnings),
        "dropped": losses,
    }


def cmd_render(args: argparse.Namespace, reporter: Reporter) -> int:
    from ..printing import rendering

    puzzle = api.read_puzzle(args.input, rtl=args.rtl)
    for warning in puzzle.warnings:
        reporter.warn(f"{args.input}: {warning}")
    if (args.solution or args.key) and puzzle.solution is None:
        why = "its solution is locked (scrambled)" if puzzle.locked is not None else "it has no solution"
        raise InputError(f"{why}: --solution and --key need the answers", args.input)
    apply_puzzle_details(args, puzzle, reporter)
    clue_report = apply_clues(args, puzzle, reporter)
    if args.clues != "none":  # the empty clues left are named by clue_warnings below
        report_clues(replace(clue_report, empty=[]), reporter, kept_from="the file")
    fmt = args.format or rendering.format_for(args.output)
    if fmt in rendering.BINARY_FORMATS and not args.output:
        raise InputError(f"{fmt} output is binary: give --output FILE")
    page = args.page or rendering.default_page()
    if fmt != "svg" and not args.solution:  # an answer key needs no clues
        for warning in rendering.clue_warnings(puzzle):
            reporter.warn(warning)
    elif args.key:
        reporter.warn("--key adds a page: the svg output is the grid alone, without it")
    if fmt == "play" and (args.solution or args.key or args.page):
        reporter.warn("--solution, --key and --page do not apply to play: the page plays the puzzle")
    outputs: list[tuple[str | None, str | bytes]]
    if fmt == "png":
        images = rendering.render_pages(puzzle, args.solution, page=page, key=args.key)
        outputs = list(zip(rendering.page_paths(args.output, len(images)), images))
        summary = f"{len(images)} page{'s' if len(images) > 1 else ''} on {page} paper"
    elif fmt == "pdf":
        pdf, count = rendering.pdf_document(puzzle, args.solution, page=page, key=args.key)
        outputs = [(args.output, pdf)]
        summary = f"{count} page{'s' if count > 1 else ''} on {page} paper"
    else:
        outputs = [(args.output, api.render(puzzle, fmt, solution=args.solution, page=page, key=args.key))]
        summary = ""
    for path, data in outputs:
        if path:
            try:
                write_atomically(path, data)
            except OSError as error:
                raise CannotWrite(f"{path}: cannot write ({error.strerror or error})") from None
        elif isinstance(data, str):
            sys.stdout.write(data)
    if summary:
        reporter.info(f"wrote {', '.join(str(path) for path, _ in outputs)}: {summary}")
    return ExitCode.OK


def cmd_export(args: argparse.Namespace, reporter: Reporter) -> int:
    grid_file = open_grid(args)
    lexicon = load_words(args, reporter, grid_file)
    write_output(args, api.export_minizinc(grid_file.grid, lexicon, **fill_settings(args, grid_file)))
    return ExitCode.OK
