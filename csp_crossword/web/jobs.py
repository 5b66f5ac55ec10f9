"""The server's job pool: solver work in a bounded set of long-lived worker processes.

Each worker (:mod:`.worker`) runs one job at a time and keeps its loaded word lists. Jobs wait in
a queue of at most ``max_queued`` when every worker is busy; beyond that :class:`PoolFull`
(the API answers 503). One I/O thread watches every worker's pipe and process at once
(``multiprocessing.connection.wait``): it records progress and results, starts queued jobs, and
enforces time limits: a job still running STOP_GRACE seconds after its time limit is asked to
stop (it answers its best result so far), and one still running KILL_GRACE seconds after that
(or after a cancel) has its worker killed and replaced. A worker that dies fails its job alone,
with the reason; the server goes on.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .wordlists import ListSource, builtin_source
from .worker import worker_main

#: Jobs that may wait for a worker before new ones are refused.
MAX_QUEUED_JOBS = 16
#: Finished jobs kept for their results (the oldest are forgotten first).
MAX_FINISHED_JOBS = 256
#: Seconds past a job's time limit before it is asked to stop, and past that (or a cancel)
#: before its worker is killed.
STOP_GRACE = 2.0
KILL_GRACE = 5.0
#: Seconds a worker may take to begin a job it was sent (finish its warm-up, load the job's word
#: list) before it is taken for hung and replaced. A job's time limit and a cancel's grace run
#: from its beginning: a worker still warming up cannot answer a stop yet, and answers it at once
#: when it begins (a slow start on a busy machine failed cancelled jobs before).
START_SECONDS = 120.0
#: How often the I/O thread looks at the clock when no message comes.
TICK_SECONDS = 0.2
#: Job states; the last three are final.
STATES = ("queued", "running", "done", "failed", "cancelled")


class PoolFull(Exception):
    """Every worker is busy and the queue is full."""


@dataclass
class Job:
    """One request to a worker and what came of it."""

    id: str
    kind: str
    request: dict[str, Any]
    source: ListSource | None
    time_limit: float
    state: str = "queued"
    progress: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    sent: float | None = None  # handed to a worker
    started: float | None = None  # begun by it (its word list loaded): the time limit runs from here
    handed_on: bool = False  # once sent to a worker that died before beginning it
    cancel_asked: float | None = None
    stop_asked: bool = False
    ended: float | None = None  # when it reached a final state
    version: int = 0  # grows at every change, for event streams

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def timing(self) -> dict[str, float | None]:
        """The whole job's time as its client lived it, in seconds: ``total`` from the request
        to the answer (or to now), ``waiting`` in the queue and for the worker to load the
        list, ``running`` from then on. The solver's own time is in the result's statistics."""
        now = self.ended if self.ended is not None else time.monotonic()
        began = self.started if self.started is not None else None
        return {
            "total": round(now - self.created, 3),
            "waiting": round((began if began is not None else now) - self.created, 3),
            "running": round(now - began, 3) if began is not None else None,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "progress": self.progress,
            "result": self.result,
            "error": self.error,
            "seconds": self.timing(),
        }


class _Worker:
    def __init__(self, context: Any):
        self.conn, child = context.Pipe()
        self.stop = context.Event()
        self.process = context.Process(
            target=worker_main, args=(child, self.stop, os.getpid()), daemon=True, name="csp-crossword-worker"
        )
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.warm = threading.Event()  # set when its warm-up is done

    def send(self, job: Job) -> None:
        # An upload's bytes go with every job (a worker keeps the list loaded by its key, so
        # only the first job parses it); a --words file or a built-in list goes by name.
        self.stop.clear()
        self.job = job
        self.conn.send((job.id, job.request, job.source))

    def close(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(timeout=2.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2.0)
        self.conn.close()


class JobPool:
    """Worker processes, a bounded queue and the jobs' records (thread-safe)."""

    def __init__(self, workers: int, *, max_queued: int = MAX_QUEUED_JOBS, warm: ListSource | None = None):
        self.size = max(1, workers)
        self.max_queued = max_queued
        self.context = multiprocessing.get_context("spawn")
        self.lock = threading.RLock()
        self.workers: list[_Worker] = []
        self.queue: deque[Job] = deque()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.closing = threading.Event()
        self.warm = warm if warm is not None else builtin_source("en", False)
        self.thread = threading.Thread(target=self._watch, name="csp-crossword-jobs", daemon=True)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        with self.lock:
            for _ in range(self.size):
                self.workers.append(self._new_worker())
        self.thread.start()

    def _new_worker(self) -> _Worker:
        worker = _Worker(self.context)
        worker.conn.send((None, None, self.warm))  # load the default list before the first job
        return worker

    def shutdown(self) -> None:
        self.closing.set()
        self.thread.join(timeout=2.0)
        with self.lock:
            for worker in self.workers:
                if worker.job is not None:
                    worker.stop.set()
            for worker in self.workers:
                worker.close(kill=worker.job is not None)
            self.workers.clear()

    # ------------------------------------------------------------------ requests

    def submit(self, kind: str, request: dict[str, Any], source: ListSource | None, time_limit: float) -> Job:
        job = Job(uuid.uuid4().hex, kind, request, source, time_limit)
        with self.lock:
            idle = next((w for w in self.workers if w.job is None), None)
            if idle is None and len(self.queue) >= self.max_queued:
                raise PoolFull(f"{len(self.workers)} jobs running and {len(self.queue)} waiting")
            self.jobs[job.id] = job
            self._forget_old()
            while idle is not None and not idle.process.is_alive():
                # an idle worker that died since the I/O thread last looked (killed, out of
                # memory): the job goes to its replacement instead, not down with it
                self._replace(idle, "the worker process ended unexpectedly")
                idle = next((w for w in self.workers if w.job is None), None)
            if idle is not None:
                self._start(idle, job)
            else:
                self.queue.append(job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask a job to end with its best result so far (a queued job just ends)."""
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None or job.finished:
                return job
            if job.state == "queued":
                self.queue.remove(job)
                self._finish(job, "cancelled")
                return job
            job.cancel_asked = time.monotonic()
            worker = self._worker_of(job)
            if worker is not None:
                worker.stop.set()
            job.version += 1
            return job

    def counts(self) -> dict[str, int]:
        with self.lock:
            running = sum(1 for w in self.workers if w.job is not None)
            warm = sum(1 for w in self.workers if w.warm.is_set())
            return {"running": running, "queued": len(self.queue), "workers": len(self.workers), "warm": warm}

    def wait_warm(self, timeout: float) -> bool:
        """Wait until every current worker has done its warm-up (True), or ``timeout`` seconds
        (False). A worker replaced meanwhile is waited for in its replacement."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if all(worker.warm.is_set() for worker in self.workers):
                    return True
            time.sleep(TICK_SECONDS / 2)
        return False

    # ------------------------------------------------------------------ the I/O thread

    def _watch(self) -> None:
        while not self.closing.is_set():
            with self.lock:
                waitables: dict[Any, _Worker] = {}
                for worker in self.workers:
                    waitables[worker.conn] = worker
                    waitables[worker.process.sentinel] = worker
            ready = wait(list(waitables), timeout=TICK_SECONDS) if waitables else []
            with self.lock:
                for item in ready:
                    worker = waitables[item]
                    if worker not in self.workers:
                        continue
                    if isinstance(item, Connection):
                        self._receive(worker)
                    elif not worker.process.is_alive():
                        self._replace(worker, "the worker process ended unexpectedly")
                self._enforce_limits()

    def _receive(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                kind, job_id, data = worker.conn.recv()
                if kind == "warm":
                    worker.warm.set()
                    continue
                job = worker.job
                if job is None or job.id != job_id:
                    continue
                if kind == "loaded":  # its word list is loaded: the time limit runs from now
                    job.started = time.monotonic()
                elif kind == "progress":
                    job.progress = data
                    job.version += 1
                elif kind == "done":
                    job.result = data
                    self._finish(job, "cancelled" if job.cancel_asked else "done")
                    self._next(worker)
                else:
                    job.error = data
                    self._finish(job, "failed")
                    self._next(worker)
        except (EOFError, OSError):
            self._replace(worker, "the worker process ended unexpectedly")

    def _enforce_limits(self) -> None:
        now = time.monotonic()
        for worker in list(self.workers):
            job = worker.job
            if job is None:
                continue
            if job.started is None:
                if job.sent is not None and now - job.sent > START_SECONDS:
                    self._replace(worker, f"the worker did not begin the job within {START_SECONDS:g} s", kill=True)
                continue
            over = now - (job.started + job.time_limit)
            if over > STOP_GRACE and not job.stop_asked:
                job.stop_asked = True
                worker.stop.set()
            since_cancel = now - job.cancel_asked if job.cancel_asked is not None else -1.0
            if over > STOP_GRACE + KILL_GRACE or since_cancel > KILL_GRACE:
                self._replace(worker, f"the job did not stop within {KILL_GRACE:g} s of being asked to", kill=True)

    # ------------------------------------------------------------------ helpers (lock held)

    def _start(self, worker: _Worker, job: Job) -> None:
        job.state = "running"
        job.sent = time.monotonic()
        job.version += 1
        try:
            worker.send(job)
        except OSError:
            self._replace(worker, "the worker process could not be reached")

    def _next(self, worker: _Worker) -> None:
        worker.job = None
        if self.queue:
            self._start(worker, self.queue.popleft())

    def _replace(self, worker: _Worker, reason: str, kill: bool = False) -> None:
        job = worker.job
        if worker in self.workers:
            self.workers.remove(worker)
        worker.job = None
        worker.close(kill=True)
        code = worker.process.exitcode
        if job is not None and not job.finished and job.started is None and not job.handed_on and not kill:
            # the worker died before it began the job (killed while idle, just as the job was
            # sent): the job never ran, so its replacement takes it, once
            job.handed_on = True
            job.state = "queued"
            job.version += 1
            self.queue.appendleft(job)
            job = None
        if job is not None and not job.finished:
            job.error = reason if kill or code is None else f"{reason} (exit code {code})"
            self._finish(job, "failed")
        if not self.closing.is_set():
            fresh = self._new_worker()
            self.workers.append(fresh)
            self._next(fresh)

    def _finish(self, job: Job, state: str) -> None:
        job.state = state
        job.ended = time.monotonic()
        job.version += 1

    def _worker_of(self, job: Job) -> _Worker | None:
        return next((w for w in self.workers if w.job is job), None)

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.finished]
        for job in finished[: max(0, len(finished) - MAX_FINISHED_JOBS)]:
            del self.jobs[job.id]
