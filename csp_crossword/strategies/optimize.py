"""The best fill by score (``--optimize``): the highest weakest entry, then the highest total
score among the fills that keep it; or the highest total alone (``total_only``, ``--optimize-total``).
The everyday fill comes first, then searches that must beat it.

1. The quality-first fill (:mod:`.quality`, the ``ac`` search with its node budgets) with at
   most :data:`REFERENCE_SHARE` of the time: within a second on a 15x15, and the fill a plain
   ``fill`` would give.
2. The weakest entry first (unless ``total_only``): a binary search on the floor, between the
   everyday fill's weakest entry and the lowest of the slots' best words, each floor a search of
   the whole grid with every slot (but the given ones) floored there (``ac``, fillability first,
   :data:`FLOOR_TEST_NODES`), with at most :data:`FLOOR_SHARE` of the time left. A fill found
   raises the floor to its weakest entry; a proof that none exists lowers the ceiling; a search
   that runs out lowers it too, and the floor is then not proved the highest. Every later step
   searches the problem with every slot floored at the floor found, so nothing it finds has a
   weaker entry: the total is maximised under the floor (``FillResult.floor``; ``floor_proved``).
3. The proof search (:mod:`.optimum`, a branch and bound over the whole grid with a Lagrangian
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
5. When the optimiser answers nothing better in time, the best fill so far is the answer, with
   the best bound known (the optimiser's, the Lagrangian one, every slot's best word left): an
   honest gap.

The answer is ``optimal`` only when the total is proved optimal under the floor and (unless
``total_only``) the floor is proved the highest; its backend names the total's prover
(:data:`PROVER_NAME` for the proof search, with a ``reason`` saying the optimiser was not
needed; or the optimiser's name); the floor's proofs are always ``ac``'s. An unsatisfiable
reference run ends the job at once.

Every step reports progress (:mod:`.heartbeat`): the step's phase (``floor``, ``proof``,
``refill``, then the optimiser's name) at once and then at least every half second, so a
progress line never freezes. A stop (the stop signal or Ctrl-C) ends the job within a tenth of a
second or so of the step it lands in: the answer is ``interrupted``, with the best fill so far
(its cells, total and bound), or the grid as given when no fill was found yet.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..backends.ac import ACBackend
from ..backends.base import fill_from_words
from ..core.deadline import Deadline, StopSignal, earliest, time_left
from ..core.result import FillResult, SearchStats, Status, WeakSpots, WeakVerdict
from .heartbeat import ProgressFeed, run_reporting
from .optimum import BOUND_MARGIN, prove_optimum
from .quality import ACCEPTABLE_SCORE, add_stats, given_slots, quality_first, with_floors, word_ids
from .refill import refill_neighbourhoods

if TYPE_CHECKING:
    from ..backends.base import Backend, ProgressCallback
    from ..search.problem import FillProblem

#: The name a fill proved optimal by the proof search reports as its backend: the branch and
#: bound with the Lagrangian bound (:mod:`.optimum`), not the optimiser the user chose, which
#: never ran then.
PROVER_NAME = "branch-and-bound"
#: The reason such a fill gives, with the optimiser's name: why the optimiser did not run.
PROVED_FIRST = "the branch and bound proved the total optimal before {optimiser} was needed"
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
#: Most of the time left that the search for the highest weakest entry may take (the total's
#: searches get the rest).
FLOOR_SHARE = 0.25
#: Search nodes of one floor's search (fillability first: on the American patterns with the
#: built-in list a fill at floor 50 takes 100-45,000 nodes, and a floor out of reach is proved
#: or given up within this budget).
FLOOR_TEST_NODES = 50_000
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
    total_only: bool = False,
) -> FillResult:
    """The best fill ``optimiser`` reaches from the quality-first fill: the highest weakest entry,
    then the highest total (``total_only``: the highest total alone); module docstring."""
    started = time.monotonic()
    if problem.unsatisfiable:
        return optimiser.solve(problem, deadline=deadline, stop=stop, progress=progress)
    reference_end = _share_end(deadline, REFERENCE_SHARE)
    reference = quality_first(problem, ACBackend(seed=seed), deadline=reference_end, stop=stop, progress=progress)
    if reference.status == Status.UNSATISFIABLE:
        return reference
    words = word_ids(problem, reference) if reference.status == Status.FILLED else None
    if words is None and (reference.status == Status.INTERRUPTED or _stopped(stop)):
        return _stopped_before_a_fill(problem, reference)
    stats = SearchStats()
    add_stats(stats, reference.stats)  # the job's effort: the reference's search too
    feed = ProgressFeed(progress, stats)
    floor: _Floor | None = None
    if words is not None and not total_only:
        try:
            floor = _highest_floor(problem, words, seed, _share_end(deadline, FLOOR_SHARE), stop, feed)
        except _Interrupted as interrupted:  # Ctrl-C: the best fill so far
            return _best_so_far(
                problem, reference, interrupted.words, stats, started, [], Status.INTERRUPTED, "stopped"
            )
        words, problem = floor.words, floor.problem
    result = _best_total(problem, optimiser, reference, words, deadline, stop, feed, started)
    return _with_floor(problem, result, reference, floor)


def _stopped(stop: StopSignal | None) -> bool:
    return stop is not None and stop.is_set()


def _stopped_before_a_fill(problem: FillProblem, reference: FillResult) -> FillResult:
    """A stop before the everyday fill was complete: ``interrupted``, with the reference's partial
    fill, or the grid as given (the cells of every slot down to one word) when it had none."""
    cells = reference.cells
    if cells is None:
        known = {s: (d & -d).bit_length() - 1 for s, d in enumerate(problem.domains) if d and not d & (d - 1)}
        cells, _ = fill_from_words(problem, known)
    return replace(reference, status=Status.INTERRUPTED, cells=cells, reason="stopped before the first fill")


def _best_total(
    problem: FillProblem,
    optimiser: Backend,
    reference: FillResult,
    words: list[int] | None,
    deadline: Deadline,
    stop: StopSignal | None,
    feed: ProgressFeed,
    started: float,
) -> FillResult:
    """The highest total of ``problem`` from the fill ``words`` (None: no fill yet): our searches,
    then the optimiser's (module docstring, steps 3-5)."""
    stats = feed.stats
    lagrangian: int | None = None
    if words is not None:
        before = words
        try:
            words, proved, lagrangian = _our_searches(problem, words, deadline, stop, feed)
        except _Interrupted as interrupted:  # Ctrl-C: the best fill so far
            reason = "stopped"
            return _best_so_far(problem, reference, interrupted.words, stats, started, [], Status.INTERRUPTED, reason)
        if words != before:  # a fill of the branch and bound's (the proof search or the re-fill) is named so
            reference = replace(reference, backend=PROVER_NAME)
        if proved:
            total = problem.total_score(words)
            stats.seconds = time.monotonic() - started
            cells, entries = fill_from_words(problem, dict(enumerate(words)))
            reason = PROVED_FIRST.format(optimiser=optimiser.name)
            return FillResult(
                Status.OPTIMAL, PROVER_NAME, cells, entries, stats, reason=reason, objective=total, bound=total
            )
        if _stopped(stop):
            return _best_so_far(problem, reference, words, stats, started, [lagrangian], Status.INTERRUPTED, "stopped")
        if time_left(deadline) <= 0:
            reason = f"no time was left for {optimiser.name}"
            return _best_so_far(problem, reference, words, stats, started, [lagrangian], Status.FILLED, reason)
        problem = replace(problem, incumbent=tuple(words))
    feed.report(optimiser.name)

    def solve(signal: StopSignal) -> FillResult:
        # no progress callback here: the optimiser runs in a worker thread, and the job's
        # callback is called from the caller's thread only (the beat below)
        return optimiser.solve(problem, deadline=deadline, stop=signal)

    result, ctrl_c = run_reporting(solve, stop, lambda: feed.report(optimiser.name))
    # a stop ends the job as interrupted whatever the optimiser calls it (a stop signal is a
    # time limit to a backend), with the best fill so far; a proof that came first stands
    stopped = (ctrl_c or _stopped(stop)) and result.status != Status.OPTIMAL
    add_stats(result.stats, stats)
    result.stats.seconds = time.monotonic() - started
    if words is None:
        if stopped and not result.status.has_fill:
            return _stopped_before_a_fill(problem, result if result.cells is not None else reference)
        return replace(result, status=Status.INTERRUPTED, reason="stopped") if stopped else result
    if result.status.has_fill and (result.objective or 0) >= problem.total_score(words):
        if lagrangian is not None and result.status != Status.OPTIMAL:
            bound = lagrangian if result.bound is None else min(result.bound, lagrangian)
            result = replace(result, bound=max(result.objective or 0, bound))
        return replace(result, status=Status.INTERRUPTED, reason="stopped") if stopped else result
    # the optimiser found nothing better in time (or was stopped): the best fill so far stands,
    # with the best bound known
    status = Status.INTERRUPTED if stopped or result.status == Status.INTERRUPTED else Status.FILLED
    bounds = [lagrangian, None if result.bound is None else int(result.bound)]
    reason = "stopped" if status == Status.INTERRUPTED else f"{optimiser.name} found no better fill in time"
    return _best_so_far(problem, reference, words, result.stats, started, bounds, status, reason)


@dataclass
class _Floor:
    """The highest weakest entry found: the best fill known that keeps it (word ids), the problem
    with every free slot floored there, the floor (None: every slot is given) and whether no fill
    has a higher one (proved)."""

    words: list[int]
    problem: FillProblem
    value: int | None
    proved: bool


def _highest_floor(
    problem: FillProblem, words: list[int], seed: int, until: Deadline, stop: StopSignal | None, feed: ProgressFeed
) -> _Floor:
    """The binary search for the highest weakest entry of the slots the user did not give, from
    the fill ``words`` (module docstring, step 2); :class:`_Interrupted` on Ctrl-C."""
    given = given_slots(problem)
    free = [s for s in range(len(words)) if s not in given]
    if not free:
        return _Floor(words, problem, None, True)
    indexes = problem.network.indexes

    def floors(value: int) -> list[int | None]:
        return [None if s in given else value for s in range(len(words))]

    def weakest(fill: list[int]) -> int:
        return min(indexes[s].scores[fill[s]] for s in free)

    low = weakest(words)
    # no fill has a weakest entry above the lowest of the slots' best words (ids are best first)
    high = min(indexes[s].scores[(problem.domains[s] & -problem.domains[s]).bit_length() - 1] for s in free)
    proved = True
    prover = ACBackend(seed=seed).fillability_first()  # every word left keeps the floor
    while low < high:
        if (stop is not None and stop.is_set()) or time_left(until) <= 0:
            proved = False
            break
        mid = (low + high + 1) // 2
        restricted, _ = with_floors(problem, floors(mid))
        if restricted is None:  # arc consistency proves it
            high = mid - 1
            continue
        feed.report("floor")
        result = prover.solve(
            restricted, deadline=until, stop=stop, progress=feed.search_of("floor"), node_limit=FLOOR_TEST_NODES
        )
        add_stats(feed.stats, result.stats)
        found = word_ids(problem, result) if result.status == Status.FILLED else None
        if found is not None:
            words, low = found, weakest(found)
        elif result.status == Status.INTERRUPTED:
            raise _Interrupted(words)
        else:  # proved out of reach, or not found within the budget (then not proved)
            proved = proved and result.status == Status.UNSATISFIABLE
            high = mid - 1
    restricted, _ = with_floors(problem, floors(low))
    return _Floor(words, restricted or problem, low, proved)


def _with_floor(problem: FillProblem, result: FillResult, reference: FillResult, floor: _Floor | None) -> FillResult:
    """``result`` with its floor (``floor`` None: the total alone was maximised), ``optimal``
    only when the floor is proved too, and its weak spots (entries below ACCEPTABLE_SCORE)."""
    if not result.status.has_fill:
        return replace(result, weak_spots=None)  # the reference's were about another fill
    if floor is None:
        result = _total_only_note(problem, result, reference)
        proved = reference.weak_spots is not None and reference.weak_spots.verdict == WeakVerdict.UNFILLABLE
        return replace(result, weak_spots=_weak_spots(problem, result, proved) if proved else None)
    result = replace(result, floor=floor.value, floor_proved=floor.proved)
    if result.status == Status.OPTIMAL and not floor.proved:
        reason = (
            f"the total is proved the highest among fills whose entries score {floor.value} or more; "
            "a fill with a higher weakest entry was not ruled out in time"
        )
        result = replace(result, status=Status.FILLED, reason=reason)
    proved = floor.proved or (
        reference.weak_spots is not None and reference.weak_spots.verdict == WeakVerdict.UNFILLABLE
    )
    return replace(result, weak_spots=_weak_spots(problem, result, proved))


def _weak_spots(problem: FillProblem, result: FillResult, proved: bool) -> WeakSpots | None:
    """The entries of a fill below ACCEPTABLE_SCORE (the given ones apart), proved unavoidable
    or not decided; None when there are none."""
    given = {problem.slots[s].id for s in given_slots(problem)}
    weak = [e.id for e in result.entries if e.id not in given and (e.score or 0) < ACCEPTABLE_SCORE]
    if not weak:
        return None
    return WeakSpots(ACCEPTABLE_SCORE, weak, WeakVerdict.UNFILLABLE if proved else WeakVerdict.UNKNOWN)


def _total_only_note(problem: FillProblem, result: FillResult, reference: FillResult) -> FillResult:
    """With the total alone maximised, a weakest entry worse than the everyday fill's is said."""
    lowest = min((e.score or 0 for e in result.entries), default=0)
    everyday = min((e.score or 0 for e in reference.entries), default=0) if reference.status.has_fill else None
    if everyday is None or lowest >= everyday:
        return result
    note = f"the weakest entry ({lowest}) is below the everyday fill's ({everyday}): the total alone was maximised"
    return replace(result, reason=f"{result.reason}; {note}" if result.reason else note)


class _Interrupted(Exception):
    """Ctrl-C during our searches, with the best fill so far."""

    def __init__(self, words: list[int]):
        super().__init__("interrupted")
        self.words = words


def _our_searches(
    problem: FillProblem, words: list[int], deadline: Deadline, stop: StopSignal | None, feed: ProgressFeed
) -> tuple[list[int], bool, int | None]:
    """The proof search and the neighbourhood re-fill from ``words``, in the order the grid's size
    calls for (module docstring): the best fill found, whether it is proved optimal, and the
    proof search's bound (None without one)."""
    if not _provable(problem):
        return words, False, None
    if len(problem.slots) <= PROOF_SLOTS:
        words, proved, lagrangian = _prove(problem, words, _share_end(deadline, PROOF_SHARE_SMALL), stop, feed, None)
        if proved:
            return words, True, lagrangian
        return _refill(problem, words, deadline, stop, feed), False, lagrangian
    words = _refill(problem, words, _share_end(deadline, REFILL_SHARE), stop, feed)
    # without a deadline a large grid's proof gets a node budget: CP-SAT's turn must come
    budget = PROOF_NODES_UNTIMED if deadline is None else None
    return _prove(problem, words, _share_end(deadline, PROOF_SHARE), stop, feed, budget)


def _refill(
    problem: FillProblem, words: list[int], deadline: Deadline, stop: StopSignal | None, feed: ProgressFeed
) -> list[int]:
    feed.report("refill")
    improved = refill_neighbourhoods(problem, words, deadline, stop, progress=feed.nodes_of("refill"))
    feed.stats.nodes += improved.nodes
    if improved.interrupted:
        raise _Interrupted(improved.words)
    return improved.words


def _prove(
    problem: FillProblem,
    words: list[int],
    deadline: Deadline,
    stop: StopSignal | None,
    feed: ProgressFeed,
    node_budget: int | None,
) -> tuple[list[int], bool, int | None]:
    feed.report("proof")
    try:
        to_beat, report = problem.total_score(words), feed.nodes_of("proof")
        optimum = prove_optimum(problem, to_beat, deadline, stop, node_budget=node_budget, progress=report)
    except KeyboardInterrupt:
        raise _Interrupted(words) from None
    except MemoryError:  # CP-SAT may still do with less
        return words, False, None
    feed.stats.nodes += optimum.nodes
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
