"""Engines: where a batch's (or a portfolio's) tasks run, behind one interface.

An engine runs one function, given when it is made, on many task payloads in worker processes:
``local`` (this machine's process pool, the default) or ``ray`` (a Ray cluster; the optional
extra ``csp-crossword[distributed]``). Both honour the same contract, tested by one suite
(tests/engines/test_engines.py):

- :meth:`Engine.submit` queues a task; :meth:`Engine.wait` returns the tasks finished since,
  each exactly once, as a :class:`Done`;
- a worker lost mid-task (killed, out of memory, a node gone) costs that task a retry, up to
  ``max_attempts`` runs in all; then the task is done with ``kind == "lost"``;
- a task running past :func:`hard_limit` of its time limit is stopped (``kind == "overrun"``):
  the job's own deadline normally ends it long before;
- :meth:`Engine.cancel` stops a task, queued or running; :meth:`Engine.shutdown` stops them all
  and leaves no worker of this engine running.

The registry's first entry is the default.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..core.errors import InputError

#: Runs of one task at most, the first included, when workers are lost under it.
MAX_ATTEMPTS = 3
#: A task is stopped once it runs OVERRUN_FACTOR x its time limit + OVERRUN_GRACE seconds: the
#: job's own deadline ends it first unless something (a stuck import, a swapped machine) is wrong.
OVERRUN_FACTOR = 1.25
OVERRUN_GRACE = 15.0


def hard_limit(time_limit: float | None) -> float | None:
    """Seconds after its start at which a task of ``time_limit`` is stopped (None: never)."""
    return None if time_limit is None else time_limit * OVERRUN_FACTOR + OVERRUN_GRACE


@dataclass
class Task:
    """A unit of work: ``payload`` is the argument of the engine's function.

    Attributes:
        id: Unique among the engine's tasks.
        payload: Picklable argument of the engine's function.
        time_limit: The job's own limit in seconds (the engine stops it at :func:`hard_limit`).
        attempts: Runs started so far.
    """

    id: str
    payload: Any
    time_limit: float | None = None
    attempts: int = 0


@dataclass
class Done:
    """A finished task.

    Attributes:
        task: The task.
        kind: ``ok`` (``value`` is the function's return value), ``error`` (the function raised:
            ``reason``), ``lost`` (its worker was lost ``max_attempts`` times) or ``overrun``.
        value: The function's return value (``ok`` only).
        reason: What went wrong, in words.
        worker: The worker that ran it last.
    """

    task: Task
    kind: Literal["ok", "error", "lost", "overrun"]
    value: Any = None
    reason: str | None = None
    worker: str = ""


class Engine(Protocol):
    """What every engine offers (see the module docstring for the contract)."""

    name: str

    def submit(self, task: Task) -> None: ...

    def wait(self, timeout: float) -> list[Done]: ...

    def cancel(self, task_id: str) -> None: ...

    def running(self) -> dict[str, str]:
        """Task id -> worker (``host:pid`` or the engine's name for it) of every running task."""
        ...

    def outstanding(self) -> int:
        """Tasks submitted and not yet returned by :meth:`wait`."""
        ...

    def size(self) -> int:
        """Tasks that run at once."""
        ...

    def shutdown(self) -> None: ...


#: Engine name -> ``module:class`` (imported on first use). The first entry is the default.
ENGINES: dict[str, str] = {
    "local": "csp_crossword.engines.local:LocalEngine",
    "ray": "csp_crossword.engines.ray_engine:RayEngine",
}
DEFAULT_ENGINE = next(iter(ENGINES))


def make_engine(
    name: str,
    run: Callable[[Any], Any],
    *,
    workers: int | None = None,
    address: str | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    start_method: str | None = None,
) -> Engine:
    """An engine running ``run`` on task payloads: ``workers`` at once (default: every core of
    this machine, or of the Ray cluster); ``address`` is Ray's (``auto``: the running cluster,
    ``local``: a private one on this machine, or ``HOST:PORT``); ``start_method`` the local
    pool's multiprocessing start method (default ``forkserver``)."""
    if name not in ENGINES:
        raise InputError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
    if workers is not None and workers < 1:
        raise InputError("the number of workers must be 1 or more")
    module_name, _, class_name = ENGINES[name].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    options: dict[str, Any] = {"workers": workers, "max_attempts": max_attempts}
    if name == "ray":
        options["address"] = address
    else:
        options["start_method"] = start_method
    engine: Engine = cls(run, **options)
    return engine


__all__ = ["DEFAULT_ENGINE", "ENGINES", "MAX_ATTEMPTS", "Done", "Engine", "Task", "hard_limit", "make_engine"]
