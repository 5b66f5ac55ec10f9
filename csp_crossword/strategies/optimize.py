"""The highest total score (``--optimize``): the everyday fill first, then searches that must
beat it.

1. The quality-first fill (:mod:`.quality`, the ``ac`` search with its node budgets) with at
   most :data:`REFERENCE_SHARE` of the time: within a second on a 15x15, and the fill a plain
   ``fill`` would give.
2. The proof search (:mod:`.optimum`, a branch and bound over the whole grid with a Lagrangian
   bound) and the neighbourhood re-fill (:mod:`.refill`, the proof search on each slot's
   neighbourhood), each from the best total so far. On a grid of at most :data:`PROOF_SLOTS`
   slots the proof comes first, with :data:`PROOF_SHARE_SMALL` of the time left (it proves a 5x5
   with the built-in list in 20-50 s), then the re-fill with the rest (on a 7x7 it finds better
   fills than the proof search). On a larger grid the re-fill comes first, with
   :data:`REFILL_SHARE` of the time left (on a 15x15 it raises the total where CP-SAT finds
   nothing better), then the proof search with :data:`PROOF_SHARE` of the rest, for its bound.
   A proof search that ends proves its best fill optimal.
3. The optimising backend (CP-SAT) gets the best fill so far as the problem's ``incumbent``: its
   first solution, and a floor (the total may only rise), so whatever it answers in the time
   left is at least as good.
4. When the optimiser answers nothing better in time, the best fill so far is the answer, with
   the best bound known (the optimiser's, the Lagrangian one, every slot's best word left): an
   honest gap.

Unsatisfiable and interrupted reference runs end the job at once.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from ..backends.ac import ACBackend
from ..backends.base import fill_from_words
from ..core.deadline import Deadline, StopSignal, earliest, time_left
from ..core.result import FillResult, SearchStats, Status
from .optimum import BOUND_MARGIN, prove_optimum
from .quality import add_stats, quality_first, word_ids
from .refill import refill_neighbourhoods

if TYPE_CHECKING:
    from ..backends.base import Backend, ProgressCallback
    from ..search.problem import FillProblem

#: The name a fill proved optimal by the proof search reports as its backend: our ``ac`` core's
#: arc consistency with the Lagrangian bound.
PROVER_NAME = "ac"
#: Most of the time left that the reference fill may take (it needs far less on everyday grids).
REFERENCE_SHARE = 0.25
#: Grids of at most this many slots (a 7x7 with blocks has about 22) start with the proof search:
#: CP-SAT's bound did not move in 60 s on them, where the proof search ends on a 5x5.
PROOF_SLOTS = 30
#: Their proof search's share of the time left (the re-fill gets the rest).
PROOF_SHARE_SMALL = 0.9
#: A larger grid's share of the time left for the neighbourhood re-fill first (it stops sooner
#: when no neighbourhood improves), then the proof search's share of what is left (its best fill
#: becomes CP-SAT's incumbent for the rest).
REFILL_SHARE = 0.6
PROOF_SHARE = 0.5
#: Proof-search nodes a grid of more than PROOF_SLOTS slots may take when the job has no time
#: limit (the share of a deadline bounds it otherwise).
PROOF_NODES_UNTIMED = 20_000
#: No proof search (nor re-fill, which runs it) where the multipliers (crossing cells times
#: glyphs) are more than this: its memory grows with their square (a 15x15 has about 5,000).
PROOF_MULTIPLIERS = 20_000


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
    reference_end = _share_end(deadline, REFERENCE_SHARE)
    reference = quality_first(problem, ACBackend(seed=seed), deadline=reference_end, stop=stop, progress=progress)
    if reference.status in (Status.UNSATISFIABLE, Status.INTERRUPTED):
        return reference
    words = word_ids(problem, reference) if reference.status == Status.FILLED else None
    stats = SearchStats()
    add_stats(stats, reference.stats)  # the job's effort: the reference's search too
    lagrangian: int | None = None
    if words is not None:
        try:
            words, proved, lagrangian = _our_searches(problem, words, deadline, stop, stats)
        except _Interrupted as interrupted:  # Ctrl-C: the best fill so far
            reason = "stopped"
            return _best_so_far(problem, reference, interrupted.words, stats, started, [], Status.INTERRUPTED, reason)
        if proved:
            total = problem.total_score(words)
            stats.seconds = time.monotonic() - started
            cells, entries = fill_from_words(problem, dict(enumerate(words)))
            return FillResult(Status.OPTIMAL, PROVER_NAME, cells, entries, stats, objective=total, bound=total)
        if stop is not None and stop.is_set():
            return _best_so_far(problem, reference, words, stats, started, [lagrangian], Status.INTERRUPTED, "stopped")
        if time_left(deadline) <= 0:
            reason = f"no time was left for {optimiser.name}"
            return _best_so_far(problem, reference, words, stats, started, [lagrangian], Status.FILLED, reason)
        problem = replace(problem, incumbent=tuple(words))
    result = optimiser.solve(problem, deadline=deadline, stop=stop, progress=progress)
    add_stats(result.stats, stats)
    result.stats.seconds = time.monotonic() - started
    if words is None:
        return result
    if result.status.has_fill and (result.objective or 0) >= problem.total_score(words):
        if lagrangian is not None and result.status != Status.OPTIMAL:
            bound = lagrangian if result.bound is None else min(result.bound, lagrangian)
            result = replace(result, bound=max(result.objective or 0, bound))
        return result
    # the optimiser found nothing better in time (or was stopped): the best fill so far stands,
    # with the best bound known
    status = Status.INTERRUPTED if result.status == Status.INTERRUPTED else Status.FILLED
    bounds = [lagrangian, None if result.bound is None else int(result.bound)]
    reason = f"{optimiser.name} found no better fill in time"
    return _best_so_far(problem, reference, words, result.stats, started, bounds, status, reason)


class _Interrupted(Exception):
    """Ctrl-C during our searches, with the best fill so far."""

    def __init__(self, words: list[int]):
        super().__init__("interrupted")
        self.words = words


def _our_searches(
    problem: FillProblem, words: list[int], deadline: Deadline, stop: StopSignal | None, stats: SearchStats
) -> tuple[list[int], bool, int | None]:
    """The proof search and the neighbourhood re-fill from ``words``, in the order the grid's size
    calls for (module docstring): the best fill found, whether it is proved optimal, and the
    proof search's bound (None without one)."""
    if not _provable(problem):
        return words, False, None
    if len(problem.slots) <= PROOF_SLOTS:
        words, proved, lagrangian = _prove(problem, words, _share_end(deadline, PROOF_SHARE_SMALL), stop, stats, None)
        if proved:
            return words, True, lagrangian
        return _refill(problem, words, deadline, stop, stats), False, lagrangian
    words = _refill(problem, words, _share_end(deadline, REFILL_SHARE), stop, stats)
    # without a deadline a large grid's proof gets a node budget: CP-SAT's turn must come
    budget = PROOF_NODES_UNTIMED if deadline is None else None
    return _prove(problem, words, _share_end(deadline, PROOF_SHARE), stop, stats, budget)


def _refill(
    problem: FillProblem, words: list[int], deadline: Deadline, stop: StopSignal | None, stats: SearchStats
) -> list[int]:
    improved = refill_neighbourhoods(problem, words, deadline, stop)
    stats.nodes += improved.nodes
    if improved.interrupted:
        raise _Interrupted(improved.words)
    return improved.words


def _prove(
    problem: FillProblem,
    words: list[int],
    deadline: Deadline,
    stop: StopSignal | None,
    stats: SearchStats,
    node_budget: int | None,
) -> tuple[list[int], bool, int | None]:
    try:
        optimum = prove_optimum(problem, problem.total_score(words), deadline, stop, node_budget=node_budget)
    except KeyboardInterrupt:
        raise _Interrupted(words) from None
    except MemoryError:  # CP-SAT may still do with less
        return words, False, None
    stats.nodes += optimum.nodes
    lagrangian = None if optimum.bound is None else int(optimum.bound + BOUND_MARGIN)
    return optimum.words or words, optimum.proved, lagrangian


def _share_end(deadline: Deadline, share: float) -> Deadline:
    """The moment ``share`` of the time left to ``deadline`` is spent (None without a deadline)."""
    return None if deadline is None else earliest(deadline, time.monotonic() + share * time_left(deadline))


def _provable(problem: FillProblem) -> bool:
    """Whether the proof search fits the problem (see :data:`PROOF_MULTIPLIERS`)."""
    network = problem.network
    return network.crossing_count * max(1, len(network.lexicon.alphabet)) <= PROOF_MULTIPLIERS


def _best_so_far(
    problem: FillProblem,
    reference: FillResult,
    words: list[int],
    stats: SearchStats,
    started: float,
    bounds: list[int | None],
    status: Status,
    reason: str,
) -> FillResult:
    """The fill ``words`` with the lowest of ``bounds`` and every slot's best word left."""
    total = problem.total_score(words)
    stats.seconds = time.monotonic() - started
    cells, entries = fill_from_words(problem, dict(enumerate(words)))
    lowest = min([problem.score_bound()] + [b for b in bounds if b is not None])
    return replace(
        reference,
        status=status,
        cells=cells,
        entries=entries,
        stats=stats,
        objective=total,
        bound=max(total, lowest),
        reason=reason,
    )
