"""The quality-first fill: a fill whose weakest entries are as good as the grid allows, fast.

Every slot starts with a score floor, the top of :data:`FLOOR_LADDER`: its domain keeps only the
words scored at least that (a prefix of its word index, which is sorted best first); a slot the
user gave (every cell pre-filled, or required) has none. The floors come down only where the grid
needs it, and never below the lowest floor in use until that floor failed for the whole grid (the
floor first, then the mean):

* when arc consistency alone empties a slot, the slots it names (the emptied slot and the crossing
  that emptied it) go down one step of the ladder when they are above the lowest floor in use;
  else their crossings above it do; else every slot above it does; and only when the whole grid
  is at one floor do the named slots go below it (a few milliseconds each: the corner that needs
  weaker words gets them, the rest of the grid keeps its floor);
* when the backend proves the floors unfillable, or does not fill within the stage's budget
  (:data:`STAGE_NODES` decisions, growing by :data:`STAGE_GROWTH` a stage; a search best score
  first, then :data:`LOOKAHEAD_SHARE` of it fillability first), every slot above the lowest floor
  in use comes down one step, or, when the grid is at one floor, every slot does.

Below the ladder's last step the problem is searched as the user posed it, with the time left, so
the quality-first fill finds a fill whenever the plain one would (only later, by at most the
stages' budgets). Within a stage the backend's own value order (best score first) keeps the mean
score high. When the user set a minimum score, that last stage searches for fillability first
(every word left is one the user accepts; ``Backend.fillability_first``): measured on the quality
benchmark it fills more patterns at ``--min-score 50`` in the same time.

A stage that runs out of its budget proves nothing, so a fill found at a lower floor may have weaker
entries than the grid needs. Once a fill is found:

1. the floor first: up to :data:`RAISE_NODES` search nodes re-fill the neighbourhood of each entry
   below the next floor of the ladder above the fill's weakest entry so that it reaches that
   floor, floor after floor (:func:`.improvement.raise_floor`); re-fills that lift some entries
   but not all are kept only when they cost no total score;
2. when entries below :data:`ACCEPTABLE_SCORE` remain, the whole grid is searched once more,
   fillability first, with every slot (but the given ones) floored at it
   (:data:`FLOOR_CHECK_NODES`): a fill found there replaces the weaker one (and is raised in
   turn); a proof that none exists (or an earlier stage's), or a check that ran out of its
   budget, is kept in the result's ``weak_spots`` (the API then names the slots that force the
   weak entries: :mod:`csp_crossword.analysis.weak_spots`);
3. then the mean: up to :data:`IMPROVEMENT_NODES` search nodes re-fill the neighbourhoods of its
   weakest entries for a higher total score (:mod:`.improvement`), never lowering the weakest
   entry nor taking an entry at or above :data:`ACCEPTABLE_SCORE` below it;
   :data:`FILLABILITY_IMPROVEMENT_NODES` when the fill came from a floor under
   :data:`ACCEPTABLE_SCORE`, from below the ladder or from a fillability-first search.

Every budget is counted in search nodes (CP-SAT's stages in its deterministic work,
``Backend.counts_work``), not seconds, so the same grid, list, options and seed give the same fill
at any load; the time limit is only the outer cap (a job it cuts short returns what it has).
A backend that counts neither gets its stages in seconds (:data:`STAGE_SECONDS`).

Every fill is still checked by the independent verifier against the user's word list.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..backends.base import fill_from_words
from ..core.deadline import Deadline, StopSignal, earliest
from ..core.result import FillResult, SearchStats, Status, WeakSpots, WeakVerdict
from .heartbeat import ProgressFeed
from .improvement import improve_fill, raise_floor

if TYPE_CHECKING:
    from ..backends.base import Backend, ProgressCallback
    from ..search.problem import FillProblem

#: Score floors, highest first (``docs/formats.md``: 50 fine in any puzzle, 30-49 acceptable when
#: a corner needs it, below 30 avoid). Measured on the quality benchmark (``docs/benchmarks.md``).
FLOOR_LADDER = (50, 40, 30, 20)
#: The lowest score of an acceptable entry (``docs/formats.md``): a fill with entries below it
#: gets the floor check (FLOOR_CHECK_NODES) and its weak spots named; one found at a lower floor
#: gets the longer improvement (FILLABILITY_IMPROVEMENT_NODES).
ACCEPTABLE_SCORE = 30
#: Search nodes (decisions) the backend may make at the first set of floors before every floor
#: goes down a step; each later stage may make STAGE_GROWTH times as many as the one before (lower
#: floors leave more words, and a fill found there is still better than none). 3,000 nodes are
#: some 0.2 s of the compiled search on a 15x15 grid with the built-in list.
STAGE_NODES = 3000
STAGE_GROWTH = 2.0
#: STAGE_WORK: in CP-SAT's deterministic time (``Backend.counts_work``; mini-5x5, blocks-7x7 and am15-01
#: fill in 0.01-0.2, docs/benchmarks.md); STAGE_SECONDS: for a backend that counts neither.
STAGE_WORK = 0.5
STAGE_SECONDS = 0.2
#: Search nodes spent lifting a fill's entries below the next floor of the ladder to it, before
#: the mean is raised (:func:`.improvement.raise_floor`): a neighbourhood takes up to 400, so this
#: tries some 25 weak entries.
RAISE_NODES = 10_000
#: Search nodes of the floor check: the whole grid with every slot floored at ACCEPTABLE_SCORE,
#: searched when a fill still has entries below it (some 1-2 s of the compiled search on a 15x15
#: with the built-in list; a quarter of the stages' budgets before it). FLOOR_CHECK_WORK: ten times
#: STAGE_WORK, as the seconds (am15-03: 470 conflicts, 14 s, undecided); FLOOR_CHECK_SECONDS: neither.
FLOOR_CHECK_NODES = 50_000
FLOOR_CHECK_WORK = 5.0
FLOOR_CHECK_SECONDS = 2.0
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

#: Scores that an entry at or above may not fall below in the improvement
#: (:func:`.improvement.improve_fill`'s ``bands``): a re-fill raising the total never turns an
#: acceptable entry into one to avoid. Measured on the six American patterns, 4 seeds: the whole
#: ladder as bands cost 0.2 of the mean score, ACCEPTABLE_SCORE alone nothing.
IMPROVEMENT_BANDS: tuple[int, ...] = (ACCEPTABLE_SCORE,)
#: A stage whose search (best score first) runs out of its budget gets this share of it again with
#: the fillability-first value order (``Backend.fillability_first``) before its floors come down:
#: every word left is at or above its floor, so any fill keeps the floor, and the improvement then
#: raises the mean. Measured on the six American patterns, 4 seeds (all six fill at floor 50):
#: the median weakest entry 40 -> 50 (mean 42.7 -> 44.9), the mean score 65.0 -> 65.4; a share of
#: 1.0 gave the same scores, with longer fills where the stage fails again.
LOOKAHEAD_SHARE = 0.5

#: Per slot, its floor (None: no floor).
Floors = list[int | None]


def quality_first(
    problem: FillProblem,
    solver: Backend,
    *,
    deadline: Deadline,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    node_limit: int | None = None,
) -> FillResult:
    """Fill ``problem`` with ``solver``, floors first (see the module docstring).

    ``node_limit``: the most search nodes the stages and the search below the ladder may make
    together (a backend that counts nodes): past it the job ends as a timeout with the stage's
    partial fill, as at the deadline; the improvements keep their own budgets. ``generate`` gives
    each grid it tries one, so the same seed makes the same grid at any machine load."""
    if not solver.counts_nodes:
        node_limit = None
    ladder = [floor for floor in FLOOR_LADDER if floor > (problem.options.min_score or 0)]
    if problem.unsatisfiable or problem.options.exact or not _scored(problem):
        return solver.solve(problem, deadline=deadline, stop=stop, progress=progress, node_limit=node_limit)
    # the stages are short: every one of them runs the compiled loop from its start
    if problem.root is not None:
        problem.network.load_compiled(problem.root)
    run = _Run(problem, solver, ladder, deadline, stop, node_limit, progress)
    started = time.monotonic()
    given = given_slots(problem)  # the user's own entries: no floor applies to them
    free = [s for s in range(len(problem.domains)) if s not in given]
    steps = [0] * len(problem.domains)  # per slot, its place on the ladder (len(ladder): no floor)
    budget = _in_units(solver, STAGE_NODES, STAGE_WORK, STAGE_SECONDS)
    while free and min(steps[s] for s in free) < len(ladder):
        floors: Floors = [None if s in given or k >= len(ladder) else ladder[k] for s, k in enumerate(steps)]
        restricted, failed = with_floors(problem, floors)
        if restricted is None:
            run.refuted(floors)
            steps = _relaxed(problem, steps, free, failed, len(ladder))
            continue
        result = run.solve(restricted, budget, progress)
        lookahead = solver.fillability_first() if result.status == Status.TIMEOUT else solver
        looked = lookahead is not solver and not _over(deadline, stop) and not run.spent()
        if looked:  # the floors kept, any fill at all: the improvement raises its mean
            result = run.solve(restricted, budget * LOOKAHEAD_SHARE, progress, solver=lookahead)
        budget *= STAGE_GROWTH
        if result.status == Status.UNSATISFIABLE:
            run.refuted(floors)
        if result.status == Status.FILLED:
            weak = looked or any((floors[s] or 0) < ACCEPTABLE_SCORE for s in free)
            result = run.finished(result, FILLABILITY_IMPROVEMENT_NODES if weak else IMPROVEMENT_NODES)
        ended = result.status.has_fill or result.status == Status.INTERRUPTED  # Ctrl-C ends the whole job
        if ended or _over(deadline, stop) or run.spent():
            return _with_totals(result, run.totals, started)
        steps = _relaxed(problem, steps, free, [], len(ladder))
    if problem.options.min_score is not None:  # every word left is one the user accepts: a fill first
        solver = solver.fillability_first()
    result = solver.solve(problem, deadline=deadline, stop=stop, progress=progress, node_limit=run.nodes_left())
    add_stats(run.totals, result.stats)
    if result.status == Status.FILLED:
        # below every floor the scores are whatever the search met first: the longer improvement
        result = run.finished(result, FILLABILITY_IMPROVEMENT_NODES)
    return _with_totals(result, run.totals, started)


def _relaxed(problem: FillProblem, steps: list[int], free: list[int], failed: list[int], bottom: int) -> list[int]:
    """The ladder steps of the ``free`` slots (all but the given ones) after ``failed`` slots were
    emptied by arc consistency (empty: after a stage failed): no slot goes below the lowest floor
    in use until every free slot is at it (module docstring). ``bottom``: the step without a floor."""
    lowest = max(steps[s] for s in free)
    steps = list(steps)
    named = [s for s in failed if s in free]
    above = [s for s in named if steps[s] < lowest]
    if not above and named:  # the named slots are at the lowest floor: their crossings come down to it
        crossing = {t for s in named for t, *_ in problem.network.neighbours[s]}
        above = sorted(t for t in crossing & set(free) if steps[t] < lowest)
    if not above:
        above = [s for s in free if steps[s] < lowest]
    if above:
        for s in above:
            steps[s] += 1
        return steps
    # every free slot is at the lowest floor and failed there: below it, only where arc
    # consistency says (the emptied slot and its crossing), else everywhere
    for s in [s for s in named if steps[s] < bottom] or free:
        steps[s] = min(bottom, steps[s] + 1)
    return steps


class _Run:
    """One quality-first fill's shared state: its problem and solver, the effort so far, and the
    highest floor proved too high for the whole grid."""

    def __init__(
        self,
        problem: FillProblem,
        solver: Backend,
        ladder: list[int],
        deadline: Deadline,
        stop: StopSignal | None,
        node_limit: int | None = None,
        progress: ProgressCallback | None = None,
    ):
        self.problem = problem
        self.node_limit = node_limit
        self.solver = solver
        self.ladder = ladder
        self.deadline = deadline
        self.stop = stop
        self.totals = SearchStats()
        self.improving = ProgressFeed(progress, self.totals).nodes_of("improve")
        #: No fill has every entry at this score or more (proved); inf while nothing is proved.
        self.refuted_at: float = math.inf

    def nodes_left(self) -> int | None:
        """Search nodes the job may still make (None: no limit but the deadline)."""
        if self.node_limit is None:
            return None
        return max(1, self.node_limit - self.totals.nodes)

    def spent(self) -> bool:
        """Whether the job's node limit is used up."""
        return self.node_limit is not None and self.totals.nodes >= self.node_limit

    def refuted(self, floors: Floors) -> None:
        """Floors proved unfillable: so is every floor at or above their highest for every slot."""
        self.refuted_at = min(self.refuted_at, max(f or 0 for f in floors))

    def solve(
        self,
        problem: FillProblem,
        budget: float,
        progress: ProgressCallback | None = None,
        solver: Backend | None = None,
    ) -> FillResult:
        """``problem`` solved by ``solver`` (default the run's) within ``budget`` nodes (work,
        or seconds, for a backend that counts work, or neither) and the job's deadline."""
        solver = solver or self.solver
        limits: dict[str, Any] = {"deadline": self.deadline}  # the job's deadline: the outer cap
        if solver.counts_nodes:
            limit, left = max(1, int(budget)), self.nodes_left()
            limits["node_limit"] = limit if left is None else min(limit, left)
        elif solver.counts_work:
            limits["work_limit"] = budget
        else:
            limits["deadline"] = earliest(self.deadline, time.monotonic() + budget)
        result = solver.solve(problem, stop=self.stop, progress=progress, **limits)
        add_stats(self.totals, result.stats)
        return result

    def finished(self, result: FillResult, improvement: int) -> FillResult:
        """A fill's floor raised, checked at ACCEPTABLE_SCORE, then its mean raised (module
        docstring, steps 1-3)."""
        problem = self.problem
        words = word_ids(problem, result)
        if words is None or _over(None, self.stop):
            return result
        words = self._raised(words)
        spots = None
        given = given_slots(problem)
        weak = [s for s, w in enumerate(words) if s not in given and _score(problem, s, w) < ACCEPTABLE_SCORE]
        if weak and (problem.options.min_score or 0) < ACCEPTABLE_SCORE:
            better, spots = self._floor_check(weak)
            if better is not None:
                words = self._raised(better)
                weak = []
        feed = self.improving
        outcome = improve_fill(
            problem, words, self.deadline, self.stop, node_budget=improvement, bands=IMPROVEMENT_BANDS, progress=feed
        )
        self.totals.nodes += outcome.nodes
        words = outcome.words
        if spots is not None:
            spots.entries = [
                problem.slots[s].id
                for s, w in enumerate(words)
                if s not in given and _score(problem, s, w) < spots.floor
            ]
        cells, entries = fill_from_words(problem, dict(enumerate(words)))
        return replace(result, cells=cells, entries=entries, weak_spots=spots)

    def _raised(self, words: list[int]) -> list[int]:
        """``words`` with the entries below each floor of the ladder above the weakest entry
        lifted to it, lowest floor first, while every entry below it could be lifted (the given
        entries apart)."""
        problem = self.problem
        free = [s for s in range(len(words)) if s not in given_slots(problem)]
        spent = 0
        for target in sorted(self.ladder):
            if not free or min(_score(problem, s, words[s]) for s in free) >= target:
                continue
            left, feed = RAISE_NODES - spent, self.improving
            outcome = raise_floor(
                problem, words, target, self.deadline, self.stop, node_budget=left, among=free, progress=feed
            )
            spent += outcome.nodes
            if min(_score(problem, s, outcome.words[s]) for s in free) >= target:
                words = outcome.words
            else:
                # the weakest entry stayed: the re-fills are kept only when they cost no score
                if problem.total_score(outcome.words) >= problem.total_score(words):
                    words = outcome.words
                break
            if spent >= RAISE_NODES:
                break
        self.totals.nodes += spent
        return words

    def _floor_check(self, weak: list[int]) -> tuple[list[int] | None, WeakSpots | None]:
        """The whole grid with every slot (but the given ones) floored at ACCEPTABLE_SCORE: a
        fill of it (word ids), or the weak spots found (proved unfillable, or not decided)."""
        problem = self.problem
        spots = WeakSpots(ACCEPTABLE_SCORE, [problem.slots[s].id for s in weak])
        if self.refuted_at <= ACCEPTABLE_SCORE:
            spots.verdict = WeakVerdict.UNFILLABLE
            return None, spots
        restricted, _ = with_floors(problem, acceptable_floors(problem, ACCEPTABLE_SCORE))
        if restricted is None:
            spots.verdict = WeakVerdict.UNFILLABLE
            return None, spots
        budget = _in_units(self.solver, FLOOR_CHECK_NODES, FLOOR_CHECK_WORK, FLOOR_CHECK_SECONDS)
        before = self.totals.nodes
        # every word left scores ACCEPTABLE_SCORE or more: any fill will do (as below the ladder
        # with the user's minimum score), so the search looks for fillability first
        result = self.solve(restricted, budget, solver=self.solver.fillability_first())
        spots.nodes = self.totals.nodes - before
        if result.status == Status.FILLED:
            return word_ids(problem, result), None
        if result.status == Status.UNSATISFIABLE:
            spots.verdict = WeakVerdict.UNFILLABLE
        return None, spots


def given_slots(problem: FillProblem) -> set[int]:
    """The slots whose entry the user gave (required, or every cell pre-filled): a floor does
    not apply to them."""
    required = {slot_id.upper() for slot_id, _ in problem.options.required}
    grid = problem.grid
    return {s for s, slot in enumerate(problem.slots) if slot.id in required or all(grid.pattern(slot))}


def acceptable_floors(problem: FillProblem, floor: int) -> Floors:
    """``floor`` for every slot but the given ones (:func:`given_slots`)."""
    given = given_slots(problem)
    return [None if s in given else floor for s in range(len(problem.slots))]


def _score(problem: FillProblem, s: int, word: int) -> int:
    return problem.network.indexes[s].scores[word]


def _scored(problem: FillProblem) -> bool:
    """Whether scores tell words apart (an unscored list gives every word 50): in one slot,
    between slots, or else anywhere in the list (a forced AAA scored 2 in a list where AA has 1)."""
    ends = {score for index in problem.network.indexes if index.scores for score in (index.scores[0], index.scores[-1])}
    if len(ends) > 1:
        return True
    first = next(iter(ends), None)  # the list's scores are read only when the slots tell nothing
    return any(score != first for score in problem.lexicon.scores.values())


def with_floors(problem: FillProblem, floors: Floors) -> tuple[FillProblem | None, list[int]]:
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
        return None, [failure.slot] + ([failure.cause] if failure.cause is not None else [])
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


def _in_units(solver: Backend, nodes: float, work: float, seconds: float) -> float:
    """The budget in what ``solver`` counts: search nodes, its own deterministic work, or seconds."""
    return nodes if solver.counts_nodes else work if solver.counts_work else seconds


def _over(deadline: Deadline, stop: StopSignal | None) -> bool:
    """Whether ``stop`` is set or ``deadline`` has passed."""
    return (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline)
