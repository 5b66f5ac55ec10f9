"""``auto``: ``ac`` to find fills, with CP-SAT racing it as a prover on hard problems.

The rule (measured on the Herald benchmark, docs/benchmarks.md):

* every job starts with ``ac`` (restarts + no-goods), which fills or refutes almost every grid
  in well under a second and is a complete search, so its "unsatisfiable" is a proof;
* when ``ac`` has not finished after ``RACE_AFTER`` seconds, and the machine has a spare core and
  OR-Tools is installed, CP-SAT starts on the same problem in a thread (one worker; its C++ search
  runs outside Python's interpreter lock, so the two really run side by side). The first definite
  answer (a fill or a proof) wins and stops the other;
* ``--optimize`` goes to CP-SAT (``ac`` does not optimise); enumeration and counting use ``ac``.

Every fill is a fill of the same :class:`FillProblem`, so both answers are checked the same way.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from dataclasses import dataclass
from typing import Literal

from ..core.deadline import StopAny
from ..core.result import FillResult, Status
from ..search.problem import FillProblem
from .base import Backend, Enumeration, SolveCall

#: Seconds ``ac`` runs alone before CP-SAT joins. Easy grids never pay for the model build.
RACE_AFTER = 10.0


@dataclass(frozen=True)
class AutoOptions:
    """Settings of the ``auto`` backend.

    Attributes:
        optimize: Maximise the total score (handed to CP-SAT).
        workers: CP-SAT workers when optimising (default: every core); the racer uses one.
        race_after: Seconds ``ac`` runs alone before CP-SAT joins the race.
        value_order: ``ac``'s value order (see :class:`~.ac.ACOptions`).
    """

    optimize: bool = False
    workers: int | None = None
    race_after: float = RACE_AFTER
    value_order: Literal["tier", "window", "lookahead"] = "tier"

    def __post_init__(self) -> None:
        if self.race_after < 0:
            raise ValueError("race_after must be 0 or more")


class AutoBackend(Backend):
    """``ac``, joined by CP-SAT after RACE_AFTER seconds on a spare core; first answer wins."""

    name = "auto"
    description = "ac (restarts, no-goods); CP-SAT races it as a prover when ac needs over 10 s"
    supports = frozenset({"fill", "prove", "optimize", "enumerate"})
    counts_nodes = True  # a node budget goes to ac, which then runs alone
    Options = AutoOptions
    options: AutoOptions

    def _ac(self) -> Backend:
        from .ac import ACBackend

        return ACBackend(seed=self.seed, value_order=self.options.value_order)

    def _can_race(self) -> bool:
        # find_spec, not an import: importing OR-Tools costs ~0.25 s, which easy grids (solved by
        # ac long before RACE_AFTER) should not pay.
        return (os.cpu_count() or 1) > 1 and importlib.util.find_spec("ortools") is not None

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        options = self.options
        if options.optimize:
            from .cpsat import CpSatBackend

            cpsat = CpSatBackend(seed=self.seed, optimize=True, workers=options.workers)
            result = cpsat.solve(problem, deadline=call.deadline, stop=call.stop, progress=call.progress)
            result.backend = f"{self.name}:cpsat"
            return result
        ac = self._ac()
        if call.node_limit is not None or not self._can_race() or call.time_left() <= options.race_after:
            result = ac.solve(
                problem, deadline=call.deadline, stop=call.stop, progress=call.progress, node_limit=call.node_limit
            )
            result.backend = f"{self.name}:ac"
            return result

        ac_stop = threading.Event()  # set when CP-SAT answers first
        cpsat_stop = threading.Event()  # set when ac answers first
        answers: dict[str, FillResult] = {}

        def prove() -> None:
            if cpsat_stop.wait(options.race_after):
                return  # ac finished first
            if call.expired():
                return
            from .cpsat import CpSatBackend

            racer = CpSatBackend(seed=self.seed, workers=1, isolated=True)  # stopped at once when ac wins
            answer = racer.solve(problem, deadline=call.deadline, stop=StopAny(cpsat_stop, call.stop))
            answers["cpsat"] = answer
            if answer.status in (Status.FILLED, Status.OPTIMAL, Status.UNSATISFIABLE):
                ac_stop.set()

        racer = threading.Thread(target=prove, name="auto-cpsat", daemon=True)
        racer.start()
        try:
            result = ac.solve(problem, deadline=call.deadline, stop=StopAny(ac_stop, call.stop), progress=call.progress)
        finally:
            cpsat_stop.set()
            racer.join()
        won = answers.get("cpsat")
        definite = (Status.FILLED, Status.UNSATISFIABLE)
        if result.status not in definite and won is not None and won.status in definite:
            won.stats.seconds = time.monotonic() - call.start
            won.backend = f"{self.name}:cpsat"
            won.blame = won.blame or result.blame  # CP-SAT names no culprits; ac's search did
            return won
        result.backend = f"{self.name}:ac"
        return result

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        return self._ac().enumerate(problem, deadline=call.deadline, stop=call.stop, progress=call.progress)
