"""Weak entries kept to where the grid forces them: a fill refilled with its weak spots' core known.

A quality-first fill (:mod:`.quality`) whose grid cannot keep every entry at ``ACCEPTABLE_SCORE``
comes back with its weak spots proved and their core named (:mod:`csp_crossword.analysis.weak_spots`):
a set of slots of which some must hold an entry below the floor. The fill itself was found at the
floors its stages came down to, so its weak entries may lie all over the grid (a themed 15x15 whose
core is one slot, 13D, came back with eleven entries under 30). An editor expects them where the
core is, and nowhere else.

So the grid is searched again with every slot outside the core (and not given by the user)
floored at ``ACCEPTABLE_SCORE`` and the core's slots at the fill's weakest entry (so the weakest
entry never gets worse), best score first within :data:`CORE_NODES`, then fillability first (any
fill keeps those floors) within as many. Then the weak entries
left are lifted one at a time, those outside the core first: the same search with that entry's
slot floored at ``ACCEPTABLE_SCORE`` and the other weak slots at the weakest entry, fillability
first within :data:`TEST_NODES`; a fill found is the new fill, whose weak entries are fewer.
After the last test (at most :data:`CONFINE_NODES` nodes in all) the fill has its floor raised
and its mean improved as every quality fill is, and replaces the first one when it has fewer
entries below ``ACCEPTABLE_SCORE``, a weakest entry no lower and, unless the user allows them, no
more entries sharing a root (:mod:`.roots`). Budgets are in search nodes: the same inputs and seed
give the same fill at any load.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.result import FillResult, Status, WeakVerdict
from .quality import (
    ACCEPTABLE_SCORE,
    FILLABILITY_IMPROVEMENT_NODES,
    FLOOR_LADDER,
    _Run,
    given_slots,
    with_floors,
    word_ids,
)
from .roots import root_pairs, without_shared_roots

if TYPE_CHECKING:
    from ..backends.base import Backend
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem

#: Search nodes of all the tests together: three times the quality fill's floor check (some 2 s of the
#: compiled search on a 15x15), spent only on a fill whose weak spots were proved.
CONFINE_NODES = 150_000
#: Search nodes of the first test (every weak entry outside the core lifted at once) and of each
#: later one (one weak entry lifted, the others kept weak).
CORE_NODES = 30_000
TEST_NODES = 5_000


def confine_weak_entries(
    problem: FillProblem,
    result: FillResult,
    solver: Backend,
    *,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> FillResult:
    """``result`` refilled so that its entries below ``ACCEPTABLE_SCORE`` lie in its weak spots'
    core (see the module docstring); ``result`` itself when it has no proved core, when the
    backend does not count nodes, or when no better fill is found within the budget."""
    spots = result.weak_spots
    if (
        spots is None
        or not result.status.has_fill
        or spots.verdict != WeakVerdict.UNFILLABLE
        or not spots.core
        or spots.floor != ACCEPTABLE_SCORE
        or not solver.counts_nodes
    ):
        return result
    words = word_ids(problem, result)
    if words is None:
        return result
    given = given_slots(problem)
    core = set(spots.core)
    scores = [problem.network.indexes[s].scores[w] for s, w in enumerate(words)]
    free = [s for s in range(len(words)) if s not in given]
    weakest = min((scores[s] for s in free), default=ACCEPTABLE_SCORE)
    weak_before = sum(1 for s in free if scores[s] < ACCEPTABLE_SCORE)
    outside_core = [s for s in free if problem.slots[s].id not in core and scores[s] < ACCEPTABLE_SCORE]
    if not outside_core:
        return result  # already where the grid forces them
    run = _Run(problem, solver, [f for f in FLOOR_LADDER if f > (problem.options.min_score or 0)], deadline, stop)
    run.refuted_at = ACCEPTABLE_SCORE  # proved: the refill's floor check has nothing to search
    filler = solver.fillability_first()  # every word left keeps its slot's floor: any fill will do
    weak = {s for s in free if scores[s] < ACCEPTABLE_SCORE}
    found = None
    # first the boldest try: every weak entry outside the core lifted at once
    confined = {s for s in free if problem.slots[s].id in core}
    tried = _tried(problem, run, filler, given, confined, weakest, CORE_NODES, first=solver)
    if tried is not None:
        found, weak = tried, _weak_slots(problem, tried, free)
    # slots outside the core first: some slot of the core must stay weak, the others need not
    for s in sorted(weak, key=lambda s: (problem.slots[s].id in core, scores[s], s)):
        left = CONFINE_NODES - run.totals.nodes
        if left <= 0 or s not in weak:
            continue
        tried = _tried(problem, run, filler, given, weak - {s}, weakest, min(TEST_NODES, left))
        if tried is not None:
            found, weak = tried, _weak_slots(problem, tried, free)
    if found is None:
        return result
    found = run.finished(found, FILLABILITY_IMPROVEMENT_NODES)
    if not problem.options.allow_shared_roots and len(root_pairs(problem, found)) > len(result.shared_roots):
        # the refill met a pair (GREY beside GREYED): parted by local refills only, the whole-grid
        # search is the first fill's
        found = without_shared_roots(
            problem,
            found,
            lambda _smaller: FillResult(Status.TIMEOUT, solver.name),
            solver=solver,
            deadline=deadline,
            stop=stop,
        )
    refilled = word_ids(problem, found)
    if refilled is None:
        return result
    after = [problem.network.indexes[s].scores[w] for s, w in enumerate(refilled)]
    weak_after = sum(1 for s in free if after[s] < ACCEPTABLE_SCORE)
    if weak_after >= weak_before or min((after[s] for s in free), default=weakest) < weakest:
        return result
    if not problem.options.allow_shared_roots and len(root_pairs(problem, found)) > len(result.shared_roots):
        return result
    entries = [problem.slots[s].id for s in free if after[s] < ACCEPTABLE_SCORE]
    stats = replace(result.stats, nodes=result.stats.nodes + run.totals.nodes)
    return replace(
        result,
        cells=found.cells,
        entries=found.entries,
        weak_spots=replace(spots, entries=entries, nodes=spots.nodes + run.totals.nodes),
        stats=stats,
    )


def _tried(
    problem: FillProblem,
    run: _Run,
    filler: Backend,
    given: set[int],
    weak: set[int],
    weakest: int,
    nodes: int,
    first: Backend | None = None,
) -> FillResult | None:
    """A fill with the ``weak`` slots at ``weakest`` or more and every other slot (but the given
    ones) at ACCEPTABLE_SCORE or more, found by ``first`` (default ``filler``) within ``nodes``, then
    by ``filler`` within as many; None when none was found."""
    first = first or filler
    floors: list[int | None] = [
        None if t in given else (weakest if t in weak else ACCEPTABLE_SCORE) for t in range(len(problem.slots))
    ]
    restricted, _ = with_floors(problem, floors)
    if restricted is None:
        return None
    tried = run.solve(restricted, nodes, solver=first)
    if tried.status == Status.TIMEOUT and first is not filler:
        tried = run.solve(restricted, nodes, solver=filler)
    if tried.status != Status.FILLED or word_ids(problem, tried) is None:
        return None
    return tried


def _weak_slots(problem: FillProblem, result: FillResult, free: list[int]) -> set[int]:
    """The ``free`` slots whose entry in ``result`` (a full fill) scores below ACCEPTABLE_SCORE."""
    ids = word_ids(problem, result) or []
    return {t for t in free if problem.network.indexes[t].scores[ids[t]] < ACCEPTABLE_SCORE}
