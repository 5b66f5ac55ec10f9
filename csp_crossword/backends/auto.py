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

from ..problem import FillProblem
from ..result import FillResult, Status
from .base import Backend, Enumeration

#: Seconds ``ac`` runs alone before CP-SAT joins. Easy grids never pay for the model build.
RACE_AFTER = 10.0


class AutoBackend(Backend):
    """``ac``, joined by CP-SAT after RACE_AFTER seconds on a spare core; first answer wins."""

    name = "auto"
    description = "ac (restarts, no-goods); CP-SAT races it as a prover when ac needs over 10 s"
    supports = frozenset({"fill", "prove", "optimize", "enumerate"})

    def __init__(self, *, optimize: bool = False, workers: int | None = None, race_after: float = RACE_AFTER, **kwargs):
        super().__init__(**kwargs)
        self.optimize = optimize
        self.workers = workers
        self.race_after = race_after

    def _ac(self):
        from .ac import ACBackend

        return ACBackend(time_limit=self.time_limit, seed=self.seed, on_progress=self.on_progress)

    def _can_race(self) -> bool:
        # find_spec, not an import: importing OR-Tools costs ~0.25 s, which easy grids (solved by
        # ac long before RACE_AFTER) should not pay.
        return (os.cpu_count() or 1) > 1 and importlib.util.find_spec("ortools") is not None

    def solve(self, problem: FillProblem) -> FillResult:
        start = time.monotonic()
        if self.optimize:
            from .cpsat import CpSatBackend

            result = CpSatBackend(time_limit=self.time_limit, seed=self.seed, optimize=True, workers=self.workers).solve(problem)
            result.backend = f"{self.name}:cpsat"
            return result
        ac = self._ac()
        if not self._can_race() or (self.time_limit is not None and self.time_limit <= self.race_after):
            result = ac.solve(problem)
            result.backend = f"{self.name}:ac"
            return result

        ac.stop = threading.Event()
        cpsat_stop = threading.Event()
        answers: dict[str, FillResult] = {}

        def prove():
            if cpsat_stop.wait(self.race_after):
                return  # ac finished first
            remaining = None if self.time_limit is None else self.time_limit - (time.monotonic() - start)
            if remaining is not None and remaining <= 0:
                return
            from .cpsat import CpSatBackend

            answer = CpSatBackend(time_limit=remaining, seed=self.seed, workers=1, stop=cpsat_stop).solve(problem)
            answers["cpsat"] = answer
            if answer.status in (Status.FILLED, Status.OPTIMAL, Status.UNSATISFIABLE):
                ac.stop.set()

        racer = threading.Thread(target=prove, name="auto-cpsat", daemon=True)
        racer.start()
        try:
            result = ac.solve(problem)
        finally:
            cpsat_stop.set()
            racer.join()
        won = answers.get("cpsat")
        definite = (Status.FILLED, Status.UNSATISFIABLE)
        if result.status not in definite and won is not None and won.status in definite:
            won.stats.seconds = time.monotonic() - start
            won.backend = f"{self.name}:cpsat"
            return won
        result.backend = f"{self.name}:ac"
        return result

    def enumerate(self, problem: FillProblem) -> Enumeration:
        return self._ac().enumerate(problem)
