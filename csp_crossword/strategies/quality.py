"""The quality-first fill: a fill whose weakest entries are as good as the grid allows, fast.

Every slot starts with a score floor, the top of :data:`FLOOR_LADDER`: its domain keeps only the
words scored at least that (a prefix of its word index, which is sorted best first). The floors
come down only where the grid needs it:

* when arc consistency alone empties a slot, that slot and the crossing that emptied it go down
  one step of the ladder (a few milliseconds each: the corner that needs weaker words gets them,
  the rest of the grid keeps its floor);
* when the backend proves the floors unfillable, or does not fill within the stage's budget
  (:data:`STAGE_NODES` decisions, growing by :data:`STAGE_GROWTH` a stage), every slot goes down
  one step.

Below the ladder's last step the problem is searched as the user posed it, with the time left, so
the quality-first fill finds a fill whenever the plain one would (only later, by at most the
stages' budgets). Within a stage the backend's own value order (best score first) keeps the mean
score high. When the user set a minimum score, that last stage searches for fillability first
(every word left is one the user accepts; ``Backend.fillability_first``): measured on the quality
benchmark it fills more patterns at ``--min-score 50`` in the same time.

Once a fill is found, up to :data:`IMPROVEMENT_NODES` search nodes re-fill the neighbourhoods of its
weakest entries for a higher total score (:mod:`.improvement`); :data:`FILLABILITY_IMPROVEMENT_NODES`
when the fill came from a floor under :data:`ACCEPTABLE_SCORE`, from below the ladder or from a
fillability-first search.

Every budget is counted in search nodes, not seconds, so the same grid, list, options and seed give
the same fill on any machine at any load; the time limit is only the outer cap (a job it cuts short
returns what it has). A backend that does not count nodes (``Backend.counts_nodes``) gets its
stages in seconds instead (:data:`STAGE_SECONDS`).

Every fill is still checked by the independent verifier against the user's word list.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from ..backends.base import fill_from_words
from ..core.deadline import Deadline, StopSignal, earliest
from ..core.result import FillResult, SearchStats, Status
from .improvement import improve_fill

if TYPE_CHECKING:
    from ..backends.base import Backend, ProgressCallback
    from ..search.problem import FillProblem

#: Score floors, highest first (``docs/formats.md``: 50 fine in any puzzle, 30-49 acceptable when
#: a corner needs it, below 30 avoid). Measured on the quality benchmark (``docs/benchmarks.md``).
FLOOR_LADDER = (50, 40, 30, 20)
#: The lowest score of an acceptable entry: a fill found at a lower floor gets the longer
#: improvement (FILLABILITY_IMPROVEMENT_SECONDS).
ACCEPTABLE_SCORE = 30
#: Search nodes (decisions) the backend may make at the first set of floors before every floor
#: goes down a step; each later stage may make STAGE_GROWTH times as many as the one before (lower
#: floors leave more words, and a fill found there is still better than none). 3,000 nodes are
#: some 0.2 s of the compiled search on a 15x15 grid with the built-in list.
STAGE_NODES = 3000
STAGE_GROWTH = 2.0
#: The first stage's budget in seconds, for a backend that does not count nodes.
STAGE_SECONDS = 0.2
#: Search nodes spent after a fill raising the scores of its weakest entries (:mod:`.improvement`),
#: when the time limit leaves them: some 0.15 s of the compiled core on a 15x15 grid with the
#: built-in list. Measured on the quality benchmark's six American patterns, 5 seeds, 10 s
#: (``docs/benchmarks.md``): against 2,500 nodes (and 7,500 below), the mean entry score rose on
#: five of them (63.2 -> 64.6 on am15-02), the median fill of a pattern 0.1-0.9 s longer.
IMPROVEMENT_NODES = 10000
#: The same after a fillability-first search (the user's own minimum score), whose fill ignored
#: scores and has more to gain, and after a fill at a floor under ACCEPTABLE_SCORE or below the
#: ladder.
FILLABILITY_IMPROVEMENT_NODES = 30000


def quality_first(
    problem: FillProblem,
    solver: Backend,
    *,
    deadline: Deadline,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> FillResult:
    """Fill ``problem`` with ``solver``, floors first (see the module docstring)."""
    ladder = [floor for floor in FLOOR_LADDER if floor > (problem.options.min_score or 0)]
    if problem.unsatisfiable or problem.options.exact or not _scored(problem):
        return solver.solve(problem, deadline=deadline, stop=stop, progress=progress)
    # the stages are short: every one of them runs the compiled loop from its start
    if problem.root is not None:
        problem.network.load_compiled(problem.root)
    totals = SearchStats()
    started = time.monotonic()
    steps = [0] * len(problem.domains)  # per slot, its place on the ladder (len(ladder): no floor)
    counted = solver.counts_nodes
    budget = STAGE_NODES if counted else STAGE_SECONDS
    while min(steps) < len(ladder):
        floors = [ladder[k] if k < len(ladder) else None for k in steps]
        restricted, failed = _restricted(problem, floors)
        if restricted is None:
            relaxed = [s for s in failed if steps[s] < len(ladder)]
            for s in relaxed or range(len(steps)):
                steps[s] = min(len(ladder), steps[s] + 1)
            continue
        if counted:
            result = solver.solve(restricted, deadline=deadline, stop=stop, progress=progress, node_limit=int(budget))
        else:
            stage_end = earliest(deadline, time.monotonic() + budget)
            result = solver.solve(restricted, deadline=stage_end, stop=stop, progress=progress)
        budget *= STAGE_GROWTH
        add_stats(totals, result.stats)
        if result.status == Status.FILLED:
            weak = min(f for f in floors if f is not None) < ACCEPTABLE_SCORE
            nodes = FILLABILITY_IMPROVEMENT_NODES if weak else IMPROVEMENT_NODES
            result = _improved(problem, result, totals, deadline, stop, nodes)
        if result.status.has_fill or result.status == Status.INTERRUPTED:  # Ctrl-C ends the whole job
            return _with_totals(result, totals, started)
        if (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline):
            return _with_totals(result, totals, started)
        steps = [min(len(ladder), k + 1) for k in steps]
    # below every floor the scores are whatever the search met first: worth the longer improvement
    improvement = FILLABILITY_IMPROVEMENT_NODES
    if problem.options.min_score is not None:
        # every word left is one the user accepts: find a fill first, then raise its scores
        solver = solver.fillability_first()
    result = solver.solve(problem, deadline=deadline, stop=stop, progress=progress)
    add_stats(totals, result.stats)
    if result.status == Status.FILLED:
        result = _improved(problem, result, totals, deadline, stop, improvement)
    return _with_totals(result, totals, started)


def _improved(
    problem: FillProblem,
    result: FillResult,
    totals: SearchStats,
    deadline: Deadline,
    stop: StopSignal | None,
    nodes: int = IMPROVEMENT_NODES,
) -> FillResult:
    """``result`` after :func:`improve_fill` had up to ``nodes`` search nodes (and the time left)."""
    words = word_ids(problem, result)
    if (stop is not None and stop.is_set()) or words is None:
        return result
    outcome = improve_fill(problem, words, deadline, stop, node_budget=nodes)
    totals.nodes += outcome.nodes
    if not outcome.replaced:
        return result
    cells, entries = fill_from_words(problem, dict(enumerate(outcome.words)))
    return replace(result, cells=cells, entries=entries)


def _scored(problem: FillProblem) -> bool:
    """Whether scores tell words apart in some slot (an unscored list gives every word 50)."""
    return any(index.scores and index.scores[0] != index.scores[-1] for index in problem.network.indexes)


def _restricted(problem: FillProblem, floors: list[int | None]) -> tuple[FillProblem | None, list[int]]:
    """``problem`` with each slot's domain cut to the words at or above its floor, made arc
    consistent; or None and the slots that failed (the emptied slot and the crossing that emptied
    it)."""
    network = problem.network
    domains = list(problem.domains)
    for s, floor in enumerate(floors):
        if floor is not None:
            domains[s] &= (1 << network.indexes[s].count_at_least(floor)) - 1
            if not domains[s]:
                return None, [s]
    state = network.initial_state(domains)
    failure = network.propagate(state, range(len(domains)))
    if failure is not None:
        failed = [failure.slot] + ([failure.cause] if failure.cause is not None else [])
        return None, failed
    return replace(problem, domains=tuple(state.domains), root=state.copy()), []


def word_ids(problem: FillProblem, result: FillResult) -> list[int] | None:
    """A full fill as a word id per slot; None when ``result`` leaves a slot empty or holds an
    entry its slot's index lacks."""
    answers = {entry.id: entry.answer for entry in result.entries}
    found = [problem.network.indexes[s].id_of(answers.get(slot.id, "")) for s, slot in enumerate(problem.slots)]
    if any(w is None for w in found):
        return None
    return [w for w in found if w is not None]


def add_stats(totals: SearchStats, stats: SearchStats) -> None:
    for name in ("nodes", "backtracks", "restarts", "propagations", "nogoods", "nogood_prunings", "nogood_failures"):
        setattr(totals, name, getattr(totals, name) + getattr(stats, name))


def _with_totals(result: FillResult, totals: SearchStats, started: float) -> FillResult:
    """``result`` with the statistics of every stage added up."""
    totals.seconds = time.monotonic() - started
    return replace(result, stats=totals)
