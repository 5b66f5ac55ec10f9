"""Progress from the steps of a long job that report no progress of their own.

A job's progress callback shows a person that the job is alive (the command line's progress line
moves with every report). The steps of ``--optimize`` after the everyday fill — the search for
the highest weakest entry, the branch and bound, the neighbourhood re-fill and the optimiser —
each run for seconds to minutes; :class:`ProgressFeed` gives them one callback that names the
step (``SearchStats.phase``) and adds its nodes to the job's, and :func:`run_reporting` runs a
step that cannot report by itself (CP-SAT) in a worker thread while the caller's thread reports
at a steady beat and stays free to take Ctrl-C.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from ..core.deadline import StopAny

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..backends.base import ProgressCallback
    from ..core.deadline import StopSignal
    from ..core.result import SearchStats

#: Seconds between two reports of one step: a progress line on a terminal moves at least this
#: often; a step's first report always goes out at once.
HEARTBEAT_SECONDS = 0.5
#: Seconds between two looks at a step running in its worker thread: Ctrl-C, the stop signal and
#: the next beat are seen within this.
POLL_SECONDS = 0.05

Answer = TypeVar("Answer")


class ProgressFeed:
    """The job's ``progress`` callback (None: nobody listens), fed by every step with the job's
    statistics so far (``stats``, kept up to date by the job) plus the step's own nodes, under
    the step's phase name."""

    def __init__(self, progress: ProgressCallback | None, stats: SearchStats):
        self.progress = progress
        self.stats = stats
        self._phase: str | None = None
        self._next = 0.0

    def report(self, phase: str, nodes: int = 0) -> None:
        """Report the step ``phase`` with ``nodes`` of its own: at once when the step is new,
        then at most every HEARTBEAT_SECONDS."""
        if self.progress is None:
            return
        now = time.monotonic()
        if phase == self._phase and now < self._next:
            return
        self._phase, self._next = phase, now + HEARTBEAT_SECONDS
        self.progress(replace(self.stats, phase=phase, nodes=self.stats.nodes + nodes))

    def nodes_of(self, phase: str) -> Callable[[int], None]:
        """A callback for a step that counts its nodes itself."""
        return lambda nodes: self.report(phase, nodes)

    def search_of(self, phase: str) -> ProgressCallback:
        """A backend's progress callback for the step ``phase`` (its nodes added to the job's)."""
        return lambda stats: self.report(phase, stats.nodes)


def run_reporting(
    task: Callable[[StopSignal], Answer], stop: StopSignal | None, beat: Callable[[], None]
) -> tuple[Answer, bool]:
    """``task(signal)`` in a worker thread, ``signal`` set when ``stop`` is or on Ctrl-C, while
    this thread calls ``beat`` every POLL_SECONDS (its own throttle decides what goes out).
    Returns the task's answer and whether Ctrl-C stopped it; the task's exception is raised here.
    A stopped task is waited for, never left running: a solver's native thread still running
    when the interpreter exits aborts the process (CP-SAT's did, before its exit code was set)."""
    interrupted = threading.Event()
    signal = StopAny(interrupted, stop)
    answers: list[Answer] = []
    failures: list[BaseException] = []

    def work() -> None:
        try:
            answers.append(task(signal))
        except BaseException as error:  # handed to the caller's thread
            failures.append(error)

    worker = threading.Thread(target=work, name="csp-crossword-step", daemon=True)
    worker.start()
    while worker.is_alive():
        try:
            worker.join(POLL_SECONDS)
            if not signal.is_set():
                beat()
        except KeyboardInterrupt:  # the task stops at its next look at the signal
            interrupted.set()
    if failures:
        raise failures[0]
    return answers[0], interrupted.is_set()
