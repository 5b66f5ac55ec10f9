"""``batch``: run a spec's jobs into an output folder, with a progress bar, resumable."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..batch import BatchProgress, run_batch
from ..batch.spec import read_spec
from ..core.errors import ExitCode, InputError
from .common import PROGRESS_LINE_INTERVAL, Reporter


def cmd_batch(args: argparse.Namespace, reporter: Reporter) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise InputError("--jobs must be 1 or more")
    given = {"clues": args.clues, "clue_db": os.path.abspath(args.clue_db) if args.clue_db else None}
    spec = read_spec(args.spec, {key: value for key, value in given.items() if value is not None})
    display = BatchDisplay(quiet=args.quiet)
    try:
        report = run_batch(
            spec,
            args.out,
            engine="ray" if args.ray else "local",
            workers=args.jobs,
            address=args.ray,
            retry_failed=args.retry_failed,
            progress=display.update,
        )
    finally:
        display.close()
    counts = report.progress
    rate = f", {counts.per_minute:.1f} jobs per minute" if counts.done + counts.failed else ""
    engine = (
        f" on {report.workers} {report.engine} worker{'s' if report.workers != 1 else ''}" if report.workers else ""
    )
    summary = (
        f"batch: {counts.total} jobs: {counts.done} done and verified, {counts.failed} without a result, "
        f"{counts.skipped} done before, {counts.remaining} remaining; {counts.elapsed:.1f} s{engine}{rate}"
    )
    if not report.interrupted and counts.skipped == counts.total:
        missing = len(report.without_file)
        extra = f", {missing} of them without a result file" if missing else ""
        reporter.info(f"batch: nothing to do: all {counts.total} jobs are finished{extra}")
        reporter.info(f"manifest: {report.manifest}")
        if missing:
            reporter.info("--retry-failed does the failed and timed-out ones again")
        return ExitCode.UNSATISFIABLE if missing else ExitCode.OK
    if report.interrupted:
        reporter.warn(f"interrupted; what finished is kept: run the same command again to go on\n{summary}")
        return ExitCode.INTERRUPTED
    reporter.info(summary)
    reporter.info(f"manifest: {report.manifest}")
    if counts.failed:
        failed = [r for r in report.records if not r["file"]]
        for record in failed[:5]:
            reporter.warn(f"{record['job']}: {record['status']}: {record['reason']}")
        if len(failed) > 5:
            reporter.warn(f"... and {len(failed) - 5} more without a result (see the manifest)")
        return ExitCode.UNSATISFIABLE
    if report.without_file:  # from an earlier run
        reporter.warn(f"{len(report.without_file)} job(s) finished earlier have no result file (see the manifest)")
        return ExitCode.UNSATISFIABLE
    return ExitCode.OK


class BatchDisplay:
    """The batch's progress on stderr: a bar on a terminal (rich), else a plain line every
    PROGRESS_LINE_INTERVAL seconds."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self._terminal = not quiet and sys.stderr.isatty()
        self._bar: Any = None
        self._task: Any = None
        self._last = time.monotonic()

    def update(self, counts: BatchProgress) -> None:
        if self.quiet:
            return
        text = (
            f"{counts.done} done, {counts.failed} failed, {counts.remaining} remaining, "
            f"{counts.running} running, {counts.per_minute:.1f}/min"
        )
        if self._terminal:
            self._show_bar(counts, text)
            return
        now = time.monotonic()
        if now - self._last >= PROGRESS_LINE_INTERVAL:
            self._last = now
            print(f"csp-crossword: batch: {text} ({counts.elapsed:.0f} s)", file=sys.stderr, flush=True)

    def _show_bar(self, counts: BatchProgress, text: str) -> None:
        todo = counts.total - counts.skipped
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("batch"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(text, total=todo)
        self._bar.update(self._task, completed=counts.done + counts.failed, description=text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


__all__ = ["BatchDisplay", "cmd_batch"]
