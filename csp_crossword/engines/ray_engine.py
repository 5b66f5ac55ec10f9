"""The ``ray`` engine: tasks on a Ray cluster (``pip install 'csp-crossword[distributed]'``).

Ray does the distributed part: it places tasks on the cluster's CPUs, restarts a task whose
worker process or node dies (``max_retries``), and kills a cancelled task's worker
(``ray.cancel(force=True)``). This module only keeps the engine contract
(:mod:`csp_crossword.engines`): at most one task per CPU in flight, so a task's time on
the clock starts when it is sent and a Ctrl-C has little to throw away; results handed back once.

Addresses: ``auto`` joins the cluster already running on this machine (``ray start --head``),
``HOST:PORT`` a remote one, ``local`` (or none) starts a private Ray instance for this run and
stops it at the end. Word lists are loaded once per Ray worker process, as in the local pool
(:func:`csp_crossword.batch.worker.worker_cache`): Ray reuses its worker processes across tasks.
Grid and word list paths must be readable by the workers (the same machine, or a shared path).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from ..core.errors import InputError
from . import MAX_ATTEMPTS, Done, Task, hard_limit

#: What to install when Ray is missing.
INSTALL_HINT = "pip install 'csp-crossword[distributed]'"


def batch_task(run: Callable[[Any], Any], payload: Any) -> Any:
    """The Ray task: ``run(payload)`` in a Ray worker (named so in ``ray list tasks``)."""
    return run(payload)


#: Seconds to wait for a Ray address to answer before calling it unreachable (Ray itself retries
#: for minutes).
CONNECT_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """InputError at once when nothing answers at ``HOST:PORT`` (``ray://`` addresses included)."""
    bare = address.split("://", 1)[-1]
    host, sep, port = bare.rpartition(":")
    if not sep or not port.isdigit():
        raise InputError(f"--ray {address!r}: give auto, local or HOST:PORT")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        raise InputError(f"no Ray cluster answers at {address}: {error.strerror or error}") from None


class RayEngine:
    """Tasks on a Ray cluster, at most one per CPU (or ``workers``) in flight."""

    name = "ray"

    def __init__(
        self,
        run: Callable[[Any], Any],
        *,
        workers: int | None = None,
        address: str | None = None,
        max_attempts: int = MAX_ATTEMPTS,
    ):
        try:
            import ray
        except ImportError:
            raise InputError(f"Ray is not installed: {INSTALL_HINT}") from None
        self._ray: Any = ray
        self._owns = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage reports from a batch run
            quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
            if address not in (None, "local", "auto"):
                _check_reachable(address)
            try:
                if address in (None, "local"):
                    ray.init(address="local", num_cpus=workers, **quiet)
                else:
                    ray.init(address=address, **quiet)
            except ConnectionError as error:
                hint = "start one with 'ray start --head', or use --ray local for a private one"
                raise InputError(f"no Ray cluster at {address}: {error} ({hint})") from None
            self._owns = True
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        self._size = workers or max(1, cpus)
        self._max_attempts = max_attempts
        self._remote = ray.remote(num_cpus=1, max_retries=max_attempts - 1, retry_exceptions=False)(batch_task)
        self._run = ray.put(run)  # sent to the object store once, not with every task
        self._queue: deque[Task] = deque()
        self._flying: dict[Any, tuple[Task, float]] = {}  # object ref -> (task, when sent)

    # ------------------------------------------------------------------ the Engine protocol

    def submit(self, task: Task) -> None:
        self._queue.append(task)
        self._send()

    def wait(self, timeout: float) -> list[Done]:
        ray = self._ray
        self._send()
        if not self._flying:
            return []
        refs = list(self._flying)
        ray.wait(refs, num_returns=1, timeout=min(timeout, self._until_overrun()))
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        finished = [self._collect(ref) for ref in ready]
        now = time.monotonic()
        for ref, (task, sent) in list(self._flying.items()):
            limit = hard_limit(task.time_limit)
            if limit is not None and now - sent > limit:
                ray.cancel(ref, force=True)
                del self._flying[ref]
                reason = f"stopped after {limit:g} s: over its {task.time_limit:g} s limit"
                finished.append(Done(task, "overrun", reason=reason, worker=self.name))
        self._send()
        return finished

    def cancel(self, task_id: str) -> None:
        self._queue = deque(t for t in self._queue if t.id != task_id)
        for ref, (task, _) in list(self._flying.items()):
            if task.id == task_id:
                self._ray.cancel(ref, force=True)
                del self._flying[ref]

    def running(self) -> dict[str, str]:
        return {task.id: self.name for task, _ in self._flying.values()}

    def outstanding(self) -> int:
        return len(self._queue) + len(self._flying)

    def size(self) -> int:
        return self._size

    def shutdown(self) -> None:
        """Cancel every task in flight (killing its worker) and stop a Ray instance we started."""
        self._queue.clear()
        for ref in list(self._flying):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:  # already finished or its node is gone: nothing left to stop
                pass
        self._flying.clear()
        if self._owns:
            self._ray.shutdown()
            self._owns = False

    # ------------------------------------------------------------------ inside

    def _send(self) -> None:
        while self._queue and len(self._flying) < self._size:
            task = self._queue.popleft()
            task.attempts += 1
            ref = self._remote.remote(self._run, task.payload)
            self._flying[ref] = (task, time.monotonic())

    def _collect(self, ref: Any) -> Done:
        exceptions = self._ray.exceptions
        task, _ = self._flying.pop(ref)
        try:
            value = self._ray.get(ref)
        except exceptions.RayTaskError as error:  # the function raised
            return Done(task, "error", reason=str(error.cause if error.cause is not None else error), worker=self.name)
        except exceptions.RayError as error:  # the worker or its node died more often than retried
            reason = f"its worker was lost {self._max_attempts} times ({type(error).__name__})"
            return Done(task, "lost", reason=reason, worker=self.name)
        return Done(task, "ok", value, worker=self.name)

    def _until_overrun(self) -> float:
        now = time.monotonic()
        ends = [sent + limit for task, sent in self._flying.values() if (limit := hard_limit(task.time_limit))]
        return max(0.0, min(ends) - now) if ends else float("inf")


__all__ = ["INSTALL_HINT", "RayEngine", "batch_task"]
