"""Running a batch: the jobs of a spec not yet done, on an engine, into an output folder.

The driver sends every unfinished job to the engine, and for each one that comes back writes the
result file atomically, reads it back through :class:`~.checks.ResultChecker`, and appends the
job's manifest line. A job's result depends on its inputs and seed alone (its budgets are counted
in search nodes and steps, its time limit is the outer cap), not on which worker ran it or when;
at the end of the run the manifest and the report list the jobs in the spec's order.

Stopping (Ctrl-C, ``stop``) shuts the engine down at once; what was recorded stays, and the same
call again does the rest. A job that fails, times out or loses its worker too often is recorded
as such and the batch goes on.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.deadline import StopSignal
from ..core.errors import InputError
from ..core.files import write_atomically
from ..engines import DEFAULT_ENGINE, Done, Engine, Task, make_engine
from .checks import ResultChecker, remove_quietly
from .manifest import LOCK, MANIFEST, Manifest, lock_folder
from .spec import FORMATS, BatchJob, BatchSpec, read_spec
from .worker import FAILED, JobOutcome, run_job

#: Seconds between two looks at the engine (and two progress reports).
POLL_SECONDS = 0.5
#: Statuses whose job leaves a result file.
WITH_FILE = ("filled", "optimal")


@dataclass
class BatchProgress:
    """Where a batch stands.

    Attributes:
        total: Jobs in the spec.
        skipped: Jobs finished by an earlier run (not done again).
        done: Jobs finished in this run with a verified result file.
        failed: Jobs finished in this run without one (failed, timed out, no fill exists).
        running: Jobs running now.
        elapsed: Seconds since this run started.
    """

    total: int
    skipped: int = 0
    done: int = 0
    failed: int = 0
    running: int = 0
    elapsed: float = 0.0

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.done - self.failed

    @property
    def per_minute(self) -> float:
        """Jobs finished per minute in this run (done and failed)."""
        return 60.0 * (self.done + self.failed) / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class BatchReport:
    """What a batch run did.

    Attributes:
        folder: The output folder.
        manifest: The manifest's path.
        progress: The final counts.
        records: This run's manifest records, in the spec's order (not the order the jobs
            finished in).
        interrupted: Stopped before every job was finished (run it again to go on).
        engine: The engine's name; ``workers`` how many jobs ran at once.
        without_file: The spec's finished jobs (in this run or before) that have no result file:
            no fill exists, the time ran out, or the job failed (the manifest says which).
    """

    folder: str
    manifest: str
    progress: BatchProgress
    records: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    engine: str = DEFAULT_ENGINE
    workers: int = 0
    without_file: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every job of the spec is finished (in this run or an earlier one)."""
        return not self.interrupted and self.progress.remaining == 0


def run_batch(
    spec: BatchSpec | str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    engine: str | Engine = DEFAULT_ENGINE,
    workers: int | None = None,
    address: str | None = None,
    retry_failed: bool = False,
    stop: StopSignal | None = None,
    progress: Callable[[BatchProgress], None] | None = None,
) -> BatchReport:
    """Run the jobs of ``spec`` not finished in ``out`` yet (see the module docstring).

    ``engine``: ``local`` (``workers`` processes, default the cores), ``ray`` (``address``:
    ``auto``, ``local`` or ``HOST:PORT``), or an engine already made (it is shut down at the end).
    ``retry_failed``: also do again the jobs recorded as failed or timed out.
    """
    started = time.monotonic()
    batch = spec if isinstance(spec, BatchSpec) else read_spec(spec)
    folder = os.path.abspath(os.fspath(out))
    _refuse_overwriting_inputs(batch, folder)
    with lock_folder(folder):
        manifest = Manifest(folder)
        todo = [job for job in batch.jobs if not manifest.finished(job.id, job.key, retry_failed=retry_failed)]
        counts = BatchProgress(total=len(batch.jobs), skipped=len(batch.jobs) - len(todo))
        report = BatchReport(folder, manifest.path, counts)
        if not todo:
            report.without_file = _without_file(batch, manifest)
            return report
        runner = make_engine(engine, run_job, workers=workers, address=address) if isinstance(engine, str) else engine
        report.engine, report.workers = runner.name, runner.size()
        checker = ResultChecker()
        try:
            for job in todo:
                runner.submit(Task(job.id, job, job.time_limit))
            while runner.outstanding():
                if stop is not None and stop.is_set():
                    report.interrupted = True
                    break
                for done in runner.wait(POLL_SECONDS):
                    record = _record(done, folder, checker, manifest.records.get(done.task.payload.id))
                    manifest.append(record)
                    report.records.append(record)
                    if record["file"]:
                        counts.done += 1
                    else:
                        counts.failed += 1
                counts.running = len(runner.running())
                counts.elapsed = time.monotonic() - started
                if progress is not None:
                    progress(counts)
        except KeyboardInterrupt:
            report.interrupted = True
        finally:
            runner.shutdown()
        spec_order = [job.id for job in batch.jobs]
        manifest.rewrite_in_order(spec_order)
        position = {job_id: k for k, job_id in enumerate(spec_order)}
        report.records.sort(key=lambda record: position[record["job"]])
        counts.running = 0
        counts.elapsed = time.monotonic() - started
        report.without_file = _without_file(batch, manifest)
    return report


def _without_file(batch: BatchSpec, manifest: Manifest) -> list[str]:
    return [
        job.id for job in batch.jobs if manifest.finished(job.id, job.key) and not manifest.records[job.id].get("file")
    ]


def _refuse_overwriting_inputs(batch: BatchSpec, folder: str) -> None:
    """InputError, before any work, when a file the batch may write (a job's result in any
    format, the manifest, the lock) is one of the files it reads (the spec, a grid, a word list):
    an output folder that holds the batch's own inputs."""
    inputs: dict[str, str] = {_real(batch.path): "the spec"}
    for job in batch.jobs:
        if job.grid_path is not None:
            inputs.setdefault(_real(job.grid_path), f"a grid of {job.id.partition('/')[0]}")
        for path in (*job.words.files, *job.words.overrides):
            inputs.setdefault(_real(path), f"a word list of {job.id.partition('/')[0]}")
    writes = [(MANIFEST, "the manifest"), (LOCK, "the lock file")]
    writes += [(f"{job.id}.{fmt}", f"job {job.id}'s result") for job in batch.jobs for fmt in FORMATS]
    for name, what in writes:
        path = os.path.join(folder, name)
        role = inputs.get(_real(path))
        if role is not None:
            raise InputError(
                f"{what} would be written over {path}, {role}: give --out a folder that holds none of the "
                "batch's inputs",
                batch.path,
            )


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _record(done: Done, folder: str, checker: ResultChecker, previous: dict[str, Any] | None) -> dict[str, Any]:
    """The manifest line of a finished task, after its file is written and checked. Only files
    this batch wrote are ever removed: the one just written when it failed its check, and the
    file ``previous`` (the job's last manifest line) names when it is no longer the result."""
    job: BatchJob = done.task.payload
    path = os.path.join(folder, job.file)
    written = False
    record: dict[str, Any] = {
        "job": job.id,
        "key": job.key,
        "kind": job.kind,
        "seed": job.settings.get("seed"),
        "attempts": done.task.attempts,
        "worker": done.worker,
        "file": None,
        "verified": False,
        "seconds": None,
        "summary": {},
        "reason": done.reason,
    }
    if done.kind != "ok":
        record["status"] = "timeout" if done.kind == "overrun" else FAILED
    else:
        outcome: JobOutcome = done.value
        record.update(status=outcome.status, seconds=round(outcome.seconds, 3), summary=outcome.summary)
        record.update(worker=outcome.worker, reason=outcome.reason)
        if outcome.data is not None and outcome.status in WITH_FILE:
            write_atomically(path, outcome.data)
            written = True
            problems = checker.problems(job, path)
            if problems:
                record.update(status=FAILED, reason=f"the result file failed the check: {problems[0]}")
            else:
                record.update(file=job.file, verified=True)
    earlier = previous.get("file") if previous is not None else None
    if not record["file"] and (written or earlier == job.file):
        remove_quietly(path)  # no result, or a wrong one: never a stale or unchecked file of ours
    old_results = {f"{job.id}.{fmt}" for fmt in FORMATS if fmt != job.format}
    if earlier in old_results:
        remove_quietly(os.path.join(folder, earlier))  # the job's format changed: its old result goes
    record["finished"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return record


__all__ = ["BatchProgress", "BatchReport", "POLL_SECONDS", "run_batch"]
