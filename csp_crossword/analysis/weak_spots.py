"""Which slots force a fill's weak entries: the core behind ``FillResult.weak_spots``.

The quality-first fill (:mod:`csp_crossword.strategies.quality`) searches the whole grid once more
with every slot floored at ``ACCEPTABLE_SCORE`` when its fill keeps entries below it, and records
in the result's ``weak_spots`` whether no such fill exists (proved) or the check was inconclusive.
For a proof, and for a fill proved unsatisfiable under the user's ``min_score``, this module names
the slots to blame as ``check`` does (:mod:`.unsat_core`): a core, a set of slots that cannot all
be filled with entries scored at the floor or more even with every other slot left free.

* Every core meets the weak entries of any fill: whatever the fill, some slot of the core holds an
  entry below the floor. So the search grows from the fill's weak entries (for an unsatisfiable
  fill: from the slots the floor emptied, else the most blamed), adding the slots a fill of the
  set wipes out, until the set is proved unfillable; then it drops slots while the rest is still
  proved unfillable (:meth:`.unsat_core.CoreSearch.grow`, :meth:`~.unsat_core.CoreSearch.shrink`).
* Every test is a search of at most :data:`CORE_TEST_NODES` nodes and the whole search at most
  :data:`CORE_NODES`, so the core depends on the inputs alone; the job's deadline stays the outer
  cap. A test cut short keeps its slot, and the core is then not called minimal.
* A core is only ever a set a test proved unfillable (or the whole grid, which the fill's check
  proved): a set no smaller than the whole grid is not reported as a core.

Nothing here prints; the result says what was found.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..backends.ac import ACBackend
from ..core.result import FillResult, SearchStats, Status, WeakSpots, WeakVerdict
from ..strategies.quality import given_slots
from .unsat_core import CoreSearch, floored

if TYPE_CHECKING:
    from ..backends.base import ProgressCallback
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem

#: Search nodes of one test of the core search: a set of slots around the weak entries, most
#: decided in hundreds of nodes; one that needs more keeps its slot in the core.
CORE_TEST_NODES = 20_000
#: Search nodes of the whole core search (some 2-4 s of the compiled search on sub-problems of a
#: 15x15 with the built-in list; a dozen-slot core takes tens of tests of a few hundred nodes).
CORE_NODES = 300_000


def explain_weak_spots(
    problem: FillProblem,
    result: FillResult,
    *,
    seed: int = 0,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> FillResult:
    """``result`` with the core of its weak spots found (see the module docstring): for a fill
    whose ``weak_spots`` are proved unfillable, and for a fill proved unsatisfiable under the
    user's ``min_score``; any other result unchanged."""
    spots = result.weak_spots
    options = problem.options
    if spots is None and result.status == Status.UNSATISFIABLE and options.min_score is not None:
        if options.exact:
            return result
        spots = WeakSpots(options.min_score, verdict=WeakVerdict.UNFILLABLE, banned=bool(options.banned))
        target, floors, seeds, blame = problem, {}, [], result.blame
    elif (
        spots is not None and result.status.has_fill and spots.verdict == WeakVerdict.UNFILLABLE and spots.core is None
    ):
        given = given_slots(problem)
        floors = {slot.id: spots.floor for s, slot in enumerate(problem.slots) if s not in given}
        target, seeds, blame = floored(problem, floors), list(spots.entries), {}
    else:
        return result
    core, minimal, nodes = find_core(target, floors, seeds, blame, seed=seed, deadline=deadline, stop=stop)
    return replace(result, weak_spots=replace(spots, core=core, minimal=minimal, nodes=spots.nodes + nodes))


def find_core(
    problem: FillProblem,
    floors: dict[str, int],
    seeds: list[str],
    blame: dict[str, float],
    *,
    seed: int = 0,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> tuple[list[str] | None, bool, int]:
    """A core of ``problem`` (proved unfillable: the caller's check or proof) with ``floors`` on
    its slots, grown from ``seeds``: its slot ids in grid order (None when no set smaller than the
    whole grid was proved unfillable), whether it is minimal, and the nodes spent."""
    prover = _Budgeted(seed, CORE_NODES)
    search = CoreSearch(problem, prover, deadline, blame, stop, floors=floors, test_nodes=CORE_TEST_NODES)
    everything = frozenset(search.order)
    if not everything:
        return None, False, 0
    search.proved_unfillable(everything)  # what the caller's check or proof showed
    try:
        grown = search.grow([s for s in seeds if s in search.order] or search.seeds(), None) or everything
        core, minimal = search.shrink(grown, None)
    except KeyboardInterrupt:  # Ctrl-C: the fill stands, without its core
        return None, False, prover.spent
    if core == everything and not minimal:
        return None, False, prover.spent  # the whole grid is what the proof said already
    return sorted(core, key=search.order.__getitem__), minimal, prover.spent


class _Budgeted(ACBackend):
    """``ac`` with a budget for a whole core search: each test gets at most what is left of
    ``total`` nodes, and a test once they are spent is undecided (a timeout)."""

    def __init__(self, seed: int, total: int):
        super().__init__(seed=seed)
        self.total = total
        self.spent = 0

    def solve(
        self,
        problem: FillProblem,
        *,
        time_limit: float | None = None,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        progress: ProgressCallback | None = None,
        node_limit: int | None = None,
        work_limit: float | None = None,  # ac counts nodes, not work: unused, as Backend.solve says
    ) -> FillResult:
        left = self.total - self.spent
        if left <= 0:
            return FillResult(Status.TIMEOUT, self.name, stats=SearchStats())
        limit = left if node_limit is None else min(node_limit, left)
        result = super().solve(
            problem, time_limit=time_limit, deadline=deadline, stop=stop, progress=progress, node_limit=limit
        )
        self.spent += result.stats.nodes
        return result
