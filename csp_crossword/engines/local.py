"""The ``local`` engine: a pool of worker processes on this machine.

Each worker is a process that takes one task at a time over a pipe and answers over it. The
driver watches the pipes and the processes' sentinels together, so it learns at once of a result
and of a worker that died (SIGKILL, out of memory): that task is queued again, at the front, and a
fresh worker takes the dead one's place. Cancelling a running task kills its worker, which is the
only way to stop a search in C code (CP-SAT) at once.

Workers ignore SIGINT: a Ctrl-C in the terminal reaches the whole process group, and it is the
driver's to act on (stop the batch, keep what is done). Workers are daemon processes that also
end when their pipe closes, so none outlives the driver.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from . import MAX_ATTEMPTS, Done, Task, hard_limit

#: The start method by default: ``forkserver`` forks workers from a clean single-threaded server
#: (no lock held by one of the driver's threads is inherited), cheaply, with the package preloaded.
DEFAULT_START_METHOD = "forkserver"
#: Modules the fork server imports once, so every worker starts with them loaded.
PRELOAD = ["csp_crossword.batch.worker", "csp_crossword.api"]
#: prctl's option that names the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Seconds a worker is given to exit after its pipe closes before it is killed.
EXIT_GRACE = 2.0


def _serve(run: Callable[[Any], Any], conn: Connection) -> None:
    """A worker's life: run every task that arrives until the pipe closes or says stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task_id, payload = message
        try:
            answer = (task_id, True, run(payload))
        except Exception as error:  # the function's failure is the task's result
            answer = (task_id, False, f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this worker when its parent dies, even by SIGKILL: a worker
    deep in a search never reads its pipe, so it would not notice otherwise."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # no prctl here: the pipe's EOF still ends an idle worker
        pass


@dataclass
class _Worker:
    process: Any  # multiprocessing.process.BaseProcess
    conn: Connection
    task: Task | None = None
    started: float = 0.0

    @property
    def name(self) -> str:
        return f"{socket.gethostname()}:{self.process.pid}"


class LocalEngine:
    """Up to ``workers`` processes (default: the cores) running ``run`` on task payloads."""

    name = "local"

    def __init__(
        self,
        run: Callable[[Any], Any],
        *,
        workers: int | None = None,
        max_attempts: int = MAX_ATTEMPTS,
        start_method: str | None = None,
    ):
        method = start_method or DEFAULT_START_METHOD
        if method not in multiprocessing.get_all_start_methods():
            method = multiprocessing.get_start_method()
        self._context: Any = multiprocessing.get_context(method)
        if method == "forkserver":
            self._context.set_forkserver_preload(PRELOAD)
        self._run = run
        self._size = workers or os.cpu_count() or 1
        self._max_attempts = max_attempts
        self._queue: deque[Task] = deque()
        self._workers: list[_Worker] = []
        self._finished: list[Done] = []

    # ------------------------------------------------------------------ the Engine protocol

    def submit(self, task: Task) -> None:
        self._queue.append(task)
        self._dispatch()

    def wait(self, timeout: float) -> list[Done]:
        self._dispatch()
        busy = [w for w in self._workers if w.task is not None]
        if busy and not self._finished:
            watched: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            wait(watched, min(timeout, self._until_overrun(busy)))
        now = time.monotonic()
        for worker in busy:
            self._collect(worker, now)
        self._dispatch()
        finished, self._finished = self._finished, []
        return finished

    def cancel(self, task_id: str) -> None:
        self._queue = deque(t for t in self._queue if t.id != task_id)
        for worker in list(self._workers):
            if worker.task is not None and worker.task.id == task_id:
                self._kill(worker)
        self._finished = [d for d in self._finished if d.task.id != task_id]

    def running(self) -> dict[str, str]:
        return {w.task.id: w.name for w in self._workers if w.task is not None}

    def outstanding(self) -> int:
        return len(self._queue) + len(self.running()) + len(self._finished)

    def size(self) -> int:
        return self._size

    def shutdown(self) -> None:
        """Stop every worker: idle ones are asked to exit, busy ones are killed."""
        self._queue.clear()
        for worker in list(self._workers):
            if worker.task is None:
                try:
                    worker.conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
            else:
                worker.process.kill()
        for worker in list(self._workers):
            worker.process.join(EXIT_GRACE)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self._workers.clear()

    def worker_pids(self) -> list[int]:
        """The process ids of the live workers (for tests and diagnostics)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    # ------------------------------------------------------------------ inside

    def _dispatch(self) -> None:
        for dead in [w for w in self._workers if w.task is None and not w.process.is_alive()]:
            self._drop(dead)  # died while idle (killed from outside): nothing lost, replaced on demand
        while self._queue:
            idle = next((w for w in self._workers if w.task is None and w.process.is_alive()), None)
            if idle is None:
                if len(self._workers) >= self._size:
                    return
                idle = self._start_worker()
            task = self._queue.popleft()
            task.attempts += 1
            try:
                idle.conn.send((task.id, task.payload))
            except (BrokenPipeError, OSError):  # died while idle: replace it, the task waits
                task.attempts -= 1
                self._queue.appendleft(task)
                self._drop(idle)
                continue
            idle.task, idle.started = task, time.monotonic()

    def _start_worker(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(self._run, theirs), daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._workers.append(worker)
        return worker

    def _collect(self, worker: _Worker, now: float) -> None:
        task = worker.task
        assert task is not None  # only busy workers are collected
        answer = None
        try:
            if worker.conn.poll():
                answer = worker.conn.recv()
        except (EOFError, OSError):
            answer = None
        if answer is not None:
            _, ok, value = answer
            worker.task = None
            if ok:
                self._finished.append(Done(task, "ok", value, worker=worker.name))
            else:
                self._finished.append(Done(task, "error", reason=value, worker=worker.name))
            return
        if not worker.process.is_alive():
            name = worker.name
            code = worker.process.exitcode
            self._drop(worker)
            if task.attempts < self._max_attempts:
                self._queue.appendleft(task)
            else:
                reason = f"its worker was lost {task.attempts} times (last exit code {code})"
                self._finished.append(Done(task, "lost", reason=reason, worker=name))
            return
        limit = hard_limit(task.time_limit)
        if limit is not None and now - worker.started > limit:
            name = worker.name
            self._kill(worker)
            reason = f"stopped after {limit:g} s: over its {task.time_limit:g} s limit"
            self._finished.append(Done(task, "overrun", reason=reason, worker=name))

    def _until_overrun(self, busy: list[_Worker]) -> float:
        now = time.monotonic()
        ends = [w.started + limit for w in busy if w.task is not None and (limit := hard_limit(w.task.time_limit))]
        return max(0.0, min(ends) - now) if ends else float("inf")

    def _kill(self, worker: _Worker) -> None:
        worker.process.kill()
        worker.process.join()
        self._drop(worker)

    def _drop(self, worker: _Worker) -> None:
        worker.conn.close()
        if worker in self._workers:
            self._workers.remove(worker)


__all__ = ["DEFAULT_START_METHOD", "LocalEngine"]
