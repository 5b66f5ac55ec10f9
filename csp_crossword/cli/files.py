"""``convert``, ``render`` and ``export``: crossword files, printable pages, other solvers' input."""

from __future__ import annotations

import argparse
import sys

from .. import api
from ..errors import CannotWrite, ExitCode, InputError
from ..files import write_atomically
from .common import Reporter, fill_settings, load_words, open_grid, write_output
from .fill import apply_clues


def cmd_convert(args: argparse.Namespace, reporter: Reporter) -> int:
    puzzle = api.read_puzzle(args.input, rtl=args.rtl)
    apply_clues(args, puzzle, reporter)
    api.write_puzzle(args.output, puzzle)
    reporter.info(
        f"{args.input} -> {args.output}: {puzzle.grid.rows}x{puzzle.grid.cols}, {len(puzzle.grid.slots)} entries, "
        f"{len(puzzle.clues)} clues, {'with' if puzzle.solution is not None else 'no'} solution"
    )
    return ExitCode.OK


def cmd_render(args: argparse.Namespace, reporter: Reporter) -> int:
    from ..rendering import BINARY_FORMATS, format_for

    puzzle = api.read_puzzle(args.input, rtl=args.rtl)
    if args.title:
        puzzle.title = args.title
    apply_clues(args, puzzle, reporter)
    fmt = args.format or format_for(args.output)
    if fmt in BINARY_FORMATS and not args.output:
        raise InputError(f"{fmt} output is binary: give --output FILE")
    data = api.render(puzzle, fmt, solution=args.solution)
    if args.output:
        try:
            write_atomically(args.output, data)
        except OSError as error:
            raise CannotWrite(f"{args.output}: cannot write ({error.strerror or error})") from None
    elif isinstance(data, str):
        sys.stdout.write(data)
    return ExitCode.OK


def cmd_export(args: argparse.Namespace, reporter: Reporter) -> int:
    grid_file = open_grid(args)
    lexicon = load_words(args, reporter, grid_file)
    write_output(args, api.export_minizinc(grid_file.grid, lexicon, **fill_settings(args, grid_file)))
    return ExitCode.OK
