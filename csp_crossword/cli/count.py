"""``count`` and ``enumerate``: every fill of a small puzzle."""

from __future__ import annotations

import argparse
import sys

from .. import api
from ..core.errors import ExitCode
from ..formats.documents import count_to_dict, enumerated_fill, result_to_text, to_json, to_json_line
from .common import Reporter, check_limit, grid_job


def cmd_count(args: argparse.Namespace, reporter: Reporter) -> int:
    check_limit(args)
    job = grid_job(args, reporter)
    result = api.count(job.grid, job.lexicon, limit=args.limit, **job.keywords)
    reporter.stop()
    timed_out = not result.exact and (args.limit is None or result.count < args.limit)
    if args.format == "json":
        stopped = "time limit" if timed_out else ("limit" if not result.exact else None)
        sys.stdout.write(to_json(count_to_dict(result, limit=args.limit, backend=args.backend, stopped=stopped)))
    else:
        if result.exact:
            text = f"{result.count} fill{'s' if result.count != 1 else ''}"
        else:
            why = "the time limit" if timed_out else f"--limit {args.limit}"
            text = f"at least {result.count} fills (stopped by {why})"
        sys.stdout.write(text + "\n")
    reporter.info(f"counted by {args.backend} in {result.seconds:.2f} s over {result.components} region(s)")
    return ExitCode.TIMEOUT if timed_out else ExitCode.OK


def cmd_enumerate(args: argparse.Namespace, reporter: Reporter) -> int:
    check_limit(args)
    job = grid_job(args, reporter)
    grid_file = job.grid_file
    fills = api.enumerate_fills(job.grid, job.lexicon, limit=args.limit, **job.keywords)
    for fill in fills:
        reporter.stop()  # the live progress line goes before each fill (and comes back while searching on)
        cells = fill.cells or ()
        if args.format == "json":
            sys.stdout.write(to_json_line(enumerated_fill(fills.produced, cells, fill.entries)))
        else:
            separator = "\n" if fills.produced > 1 else ""
            sys.stdout.write(separator + result_to_text(grid_file.grid, fill, grid_file.block, grid_file.empty))
        sys.stdout.flush()
    reporter.stop()
    complete = fills.complete
    timed_out = not complete and not fills.stopped_by_limit
    state = "all" if complete else ("time limit reached after" if timed_out else "stopped at --limit after")
    reporter.info(f"{state} {fills.produced} fill(s), by {args.backend} in {fills.stats.seconds:.2f} s")
    return ExitCode.TIMEOUT if timed_out else ExitCode.OK
