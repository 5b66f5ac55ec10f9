"""The highest total score (``--optimize``): the everyday fill first, then an optimiser that must
beat it.

1. The quality-first fill (:mod:`.quality`, the ``ac`` search with its node budgets) with at
   most :data:`REFERENCE_SHARE` of the time: within a second on a 15x15, and the fill a plain
   ``fill`` would give.
2. The optimising backend (CP-SAT) gets that fill as the problem's ``incumbent``: its first
   solution, and a floor (the total may only rise), so whatever it answers in the time left is
   at least as good; a small grid's model is solved to a proof of optimality.
3. When the optimiser answers nothing in time, the reference fill is the answer, with the best
   bound known (the optimiser's, else every slot's best word left): an honest gap.

Unsatisfiable and interrupted reference runs end the job at once.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from ..backends.ac import ACBackend
from ..core.deadline import Deadline, StopSignal, earliest, time_left
from ..core.result import FillResult, Status
from .quality import add_stats, quality_first, word_ids

if TYPE_CHECKING:
    from ..backends.base import Backend, ProgressCallback
    from ..search.problem import FillProblem

#: Most of the time left that the reference fill may take (it needs far less on everyday grids).
REFERENCE_SHARE = 0.25


def optimize_fill(
    problem: FillProblem,
    optimiser: Backend,
    *,
    deadline: Deadline,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> FillResult:
    """The best total score ``optimiser`` reaches from the quality-first fill (module docstring)."""
    started = time.monotonic()
    if problem.unsatisfiable:
        return optimiser.solve(problem, deadline=deadline, stop=stop, progress=progress)
    left = time_left(deadline)
    reference_end = earliest(deadline, None if left is None else time.monotonic() + REFERENCE_SHARE * left)
    reference = quality_first(problem, ACBackend(seed=seed), deadline=reference_end, stop=stop, progress=progress)
    if reference.status in (Status.UNSATISFIABLE, Status.INTERRUPTED):
        return reference
    words = word_ids(problem, reference) if reference.status == Status.FILLED else None
    if words is not None:
        problem = replace(problem, incumbent=tuple(words))
    result = optimiser.solve(problem, deadline=deadline, stop=stop, progress=progress)
    add_stats(result.stats, reference.stats)  # the job's effort: the reference's search too
    result.stats.seconds = time.monotonic() - started
    if result.status.has_fill or words is None:
        return result
    # the optimiser found nothing in time (or was stopped): the reference fill stands, with the
    # best bound known
    total = problem.total_score(words)
    bounds = [problem.score_bound()] + ([int(result.bound)] if result.bound is not None else [])
    status = Status.INTERRUPTED if result.status == Status.INTERRUPTED else Status.FILLED
    return replace(
        reference,
        status=status,
        stats=result.stats,
        objective=total,
        bound=max(total, min(bounds)),
        reason=f"{optimiser.name} found no better fill in time",
    )
