"""Which slots cannot be filled together: an unsatisfiable core of an unsolvable grid.

A core is a set of slots whose constraints (their words, their crossings with each other, no
repeated entry among them) cannot all hold even when every other slot is left free. The search
has two stages, each test a small fill problem of the chosen slots only:

* **grow** from seeds that the failed proof points at: the slots whose candidates ran out at
  the root, else the slots the search blamed most (``FillResult.blame``: how often each slot was
  wiped out), else the slot with the fewest candidates. While the set is still fillable, its
  fill is the counterexample: the fill is placed in the whole grid and propagated, and the slot
  that runs out of words joins the set (conflict-driven growth); when the fill propagates
  without a wipe-out, the most blamed neighbours join instead. Growth has half the time left
  (:data:`GROW_STAGE_SHARE`); past it, the shrink starts from the whole grid, which the proof
  already showed unfillable, so a core is always found;
* **shrink** by deletion: a set proved unfillable is first cut to the slots its own proof's
  conflicts involved, when those alone are still unfillable (one test that can drop dozens of
  slots); then slots are dropped, least blamed first, while the rest is still proved unfillable,
  half of them at a time, then fewer after each failure, down to one; a set that falls apart
  into separate regions is cut to the region that is unfillable on its own. Each slot left is
  needed, so the core is minimal unless a test ran out of time (the slot is then kept and
  ``minimal`` is False);
* **smaller cores**: other seeds and other deletion orders reach other minimal cores, so in a
  short budget (:data:`SMALLER_CORE_SECONDS`) the search starts again from the most blamed slots
  outside the cores so far and shrinks the smallest core plus its crossing slots, or the whole
  grid, in seeded random orders; the smallest core found is reported.

Sub-problems share the whole problem's (already filtered) lexicon, so their word indexes are
built once. Every verdict is cached, and a set inside a known fillable set (or around a known unfillable
one) needs no test. Nothing runs past the deadline.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..backends.base import Backend, ProgressCallback
from ..core.deadline import Deadline, StopSignal, earliest, expired, time_left
from ..core.result import SearchStats, Status
from ..search.graph import components
from ..search.problem import FillProblem, build_problem
from ..strategies.quality import with_floors

#: Seconds allowed for one satisfiability test while shrinking (a test that runs out keeps its
#: slot). Sub-problems of a dozen slots are decided in milliseconds; a longer test means the
#: slot's removal leaves a hard problem, which is worth little next to testing the others.
SHRINK_TEST_SECONDS = 2.0
#: A test's seconds as search nodes for a prover that counts them (``ac``: some 20,000 nodes a
#: second on these sub-problems), so that whether a test ends in time does not depend on the
#: machine's load; the job's deadline stays the outer bound.
TEST_NODES_PER_SECOND = 20_000
#: Seconds (as search nodes, TEST_NODES_PER_SECOND, for a prover that counts them) one growth
#: test may use: growth needs a definite answer.
GROW_TEST_SECONDS = 5.0
#: Most slots added in one blame-driven growth step (conflict-driven steps add one or two).
GROW_STEP = 4
#: Search nodes the whole growth stage may use (a prover that counts nodes; else GROW_STAGE_SHARE
#: of the time left). When growth has not reached an unfillable set by then (a near-global
#: conflict, whose large sub-problems can be harder than the whole grid: am15-05 at --min-score 65
#: grew 50 fillable slots, then its 51-slot test ran 5 s without an answer where the whole grid
#: is proved in 2.4 s), the shrink starts from the whole grid, which the proof already showed
#: unfillable: a core is found either way.
GROW_STAGE_SHARE = 0.5
GROW_STAGE_NODES = 400_000
#: After the first core, search nodes spent looking for a smaller one (SMALLER_CORE_NODES for a
#: prover that counts them, so that the core found does not depend on the machine's load; else
#: seconds: as long as the first core took, within SMALLER_CORE_MIN_SECONDS and
#: SMALLER_CORE_SECONDS), at most SMALLER_CORE_TRIES tries in turn: a start from the most
#: blamed slot outside the cores so far (different seeds reach different cores), the smallest
#: core so far plus its crossing slots shrunk in a seeded random order (the deletion order
#: decides which minimal core a shrink reaches), the whole grid in a random order. On am15-03
#: with words.txt the blame order gives a 15-slot core, random orders of its neighbourhood cores
#: of 12-15 slots at about 0.05 s each.
SMALLER_CORE_SECONDS = 2.0
SMALLER_CORE_MIN_SECONDS = 0.5
SMALLER_CORE_TRIES = 12
SMALLER_CORE_NODES = 100_000


@dataclass
class Core:
    """A core search's answer: ``slots`` (ids in grid order; None when none was found in time),
    whether the core was proved minimal, and the number of tests it took."""

    slots: list[str] | None
    minimal: bool = False
    tests: int = 0
    seconds: float = 0.0


class _Verdict:
    UNSAT = "unsat"
    SAT = "sat"
    UNKNOWN = "unknown"


class CoreSearch:
    """Grow-then-shrink search for a core of ``problem`` (which must be unsatisfiable).

    Args:
        problem: The whole grid's problem.
        prover: Decides each sub-problem (a backend that can prove unsatisfiability).
        deadline: Nothing runs past it.
        blame: Slot id -> conflict count from the failed proof (may be empty).
        floors: Slot id -> the lowest score its word may have (the slots' domains in ``problem``
            must be cut the same way, so that ``problem`` is the whole set's test).
        test_nodes: Search nodes every test may make (a prover that counts nodes).
    """

    def __init__(
        self,
        problem: FillProblem,
        prover: Backend,
        deadline: Deadline,
        blame: dict[str, float] | None = None,
        stop: StopSignal | None = None,
        progress: ProgressCallback | None = None,
        *,
        floors: Mapping[str, int] | None = None,
        test_nodes: int | None = None,
    ):
        self.problem = problem
        # slot id -> the lowest score its word may have in every test (the weak-spot search)
        self.floors = dict(floors or {})
        # search nodes of every test, whatever the time left (a verdict that does not depend on
        # the clock); None: SHRINK_TEST_SECONDS' worth, or less near the deadline
        self.test_nodes = test_nodes
        self.network = problem.network
        self.prover = prover
        self.deadline = deadline
        self.stop = stop
        self.progress = progress
        self.blame = blame or {}
        self.order = {slot.id: s for s, slot in enumerate(problem.slots)}
        self.graph = problem.graph
        self.neighbours = {slot_id: set(self.graph.adj[slot_id]) for slot_id in self.graph}
        # The whole problem's lexicon is already filtered and holds the required words: the
        # sub-problems keep that very object (no filter again), so its word indexes are built
        # once, not once per test (which cost 0.2 s a test at --min-score 50, ten times the proof).
        self.sub_options = replace(problem.options, min_score=None, banned=frozenset())
        self.cache: dict[frozenset[str], str] = {}
        self.witnesses: dict[frozenset[str], dict[str, str]] = {}
        # per set proved unfillable by a search, the slots that search's conflicts involved
        self.involved: dict[frozenset[str], frozenset[str]] = {}
        self.unsat_sets: list[frozenset[str]] = []
        self.sat_sets: list[frozenset[str]] = []
        self.tests = 0
        #: search nodes the tests made (a prover that counts them): the stages' budgets
        self.nodes = 0
        self.counts_nodes = bool(getattr(prover, "counts_nodes", False))
        self.start = time.monotonic()

    # ------------------------------------------------------------------ tests

    def _rank(self, slot_id: str) -> tuple[float, int, int]:
        """Most suspect first: most blamed, then fewest candidates, then grid order."""
        s = self.order[slot_id]
        return (-self.blame.get(slot_id, 0.0), self.problem.domains[s].bit_count(), s)

    def _known(self, ids: frozenset[str]) -> str | None:
        if ids in self.cache:
            return self.cache[ids]
        if any(core <= ids for core in self.unsat_sets):
            return _Verdict.UNSAT
        if any(ids <= fillable for fillable in self.sat_sets):
            return _Verdict.SAT
        return None

    def test(self, ids: frozenset[str], seconds: float) -> str:
        """UNSAT (proved), SAT (a fill of these slots exists) or UNKNOWN (no time). ``seconds``:
        the test's budget, as TEST_NODES_PER_SECOND search nodes a second for a prover that
        counts them (the same verdict at any load), else in seconds."""
        known = self._known(ids)
        if known is not None:
            return known
        if expired(self.deadline, self.stop) or not ids:
            return _Verdict.SAT if not ids else _Verdict.UNKNOWN
        self.tests += 1
        sub = build_problem(
            self.problem.grid,
            self.problem.lexicon,
            self.sub_options,
            slot_ids=sorted(ids, key=self.order.__getitem__),
        )
        if not sub.unsatisfiable and self.floors:
            sub = floored(sub, self.floors)
        if sub.unsatisfiable:
            verdict = _Verdict.UNSAT
        else:
            if self.counts_nodes:  # in nodes: the same verdict at any load
                budget = self.test_nodes or max(1, int(seconds * TEST_NODES_PER_SECOND))
                result = self.prover.solve(sub, deadline=self.deadline, stop=self.stop, node_limit=budget)
                self.nodes += result.stats.nodes
            else:
                deadline = earliest(self.deadline, time.monotonic() + seconds)
                result = self.prover.solve(sub, deadline=deadline, stop=self.stop)
            if result.status == Status.INTERRUPTED:
                raise KeyboardInterrupt  # Ctrl-C inside a test's search: the whole job stops
            if result.status == Status.UNSATISFIABLE:
                verdict = _Verdict.UNSAT
                self.involved[ids] = frozenset(slot_id for slot_id, n in result.blame.items() if n) & ids
            elif result.status.has_fill:
                verdict = _Verdict.SAT
                self.witnesses[ids] = {entry.id: entry.answer for entry in result.entries}
            else:
                verdict = _Verdict.UNKNOWN
        self.cache[ids] = verdict
        if verdict == _Verdict.UNSAT:
            self.unsat_sets.append(ids)
        elif verdict == _Verdict.SAT:
            self.sat_sets.append(ids)
        self._report()
        return verdict

    def proved_unfillable(self, ids: frozenset[str]) -> None:
        """Record a set proved unfillable elsewhere (the whole grid, by the caller's proof)."""
        self.cache[ids] = _Verdict.UNSAT
        self.unsat_sets.append(ids)

    def _report(self) -> None:
        if self.progress is not None:
            seconds = time.monotonic() - self.start
            self.progress(SearchStats(nodes=self.tests, seconds=seconds, phase="core"))

    # ------------------------------------------------------------------ grow

    def seeds(self) -> list[str]:
        empty = [slot_id for slot_id, _why in self.problem.empty if slot_id in self.order]
        if empty:
            return empty
        return [min(self.order, key=self._rank)]

    def _conflicting(self, fill: dict[str, str], ids: frozenset[str]) -> list[str]:
        """Place a fill of ``ids`` in the whole grid and propagate: the slots outside ``ids``
        that the first wipe-out names (the counterexample's conflict)."""
        network = self.network
        state = self.problem.root_state()
        changed = []
        for slot_id, answer in fill.items():
            s = self.order[slot_id]
            w = network.indexes[s].position.get(answer)
            if w is None or not state.domains[s] >> w & 1:
                continue  # this word is ruled out in the whole grid: its crossings are the conflict
            state.domains[s] = 1 << w
            changed.append(s)
        failure = network.propagate(state, changed)
        if failure is None:
            return []
        slots = network.slots
        named = [slots[failure.slot].id] + ([slots[failure.cause].id] if failure.cause is not None else [])
        return [slot_id for slot_id in named if slot_id not in ids]

    def grow(self, seeds: Sequence[str], until: Deadline, node_cap: float = float("inf")) -> frozenset[str] | None:
        """From ``seeds``, add slots until the set is proved unfillable (None: not by ``until``,
        nor within ``node_cap`` of the tests' search nodes)."""
        ids = frozenset(seeds)
        everything = frozenset(self.order)
        while True:
            seconds = GROW_TEST_SECONDS if self.counts_nodes else min(GROW_TEST_SECONDS, time_left(until))
            verdict = self.test(ids, seconds)
            if verdict == _Verdict.UNSAT:
                return ids
            if expired(until, self.stop) or self.nodes >= node_cap:
                return None
            added: list[str] = []
            if verdict == _Verdict.SAT and ids in self.witnesses:
                added = self._conflicting(self.witnesses[ids], ids)
            if not added:
                frontier = {n for slot_id in ids for n in self.neighbours[slot_id]} - ids
                pool = frontier or (everything - ids)
                added = sorted(pool, key=self._rank)[: max(1, min(GROW_STEP, len(ids) // 2))]
            if not added:
                return None  # the whole grid is not proved unfillable in the time left
            ids = ids | frozenset(added)

    # ------------------------------------------------------------------ shrink

    def _one_region(self, ids: frozenset[str], until: Deadline) -> frozenset[str]:
        """``ids`` cut to one of its regions when that region alone is unfillable."""
        regions = components(self.graph.subgraph(ids), self.order)
        if len(regions) < 2:
            return ids
        for region in sorted(regions, key=len):
            part = frozenset(region)
            if self.test(part, self._shrink_seconds(until)) == _Verdict.UNSAT:
                return part
        return ids

    def _refined(self, ids: frozenset[str], until: Deadline) -> frozenset[str]:
        """``ids`` cut to the slots its proof's conflicts involved, when those alone are still
        unfillable (one test; a slot can matter without taking part in a wipe-out, so the cut
        is tested, not assumed). Drops many slots at once where one-by-one deletion is slow."""
        involved = self.involved.get(ids)
        while involved and len(involved) < len(ids):
            if self.test(involved, self._shrink_seconds(until)) != _Verdict.UNSAT:
                break
            ids, involved = involved, self.involved.get(involved)
        return ids

    def _shrink_seconds(self, until: Deadline) -> float:
        """A shrink test's budget: SHRINK_TEST_SECONDS' worth of nodes for a prover that counts
        them, else the seconds left, at most SHRINK_TEST_SECONDS."""
        return SHRINK_TEST_SECONDS if self.counts_nodes else min(SHRINK_TEST_SECONDS, time_left(until))

    def shrink(
        self,
        ids: frozenset[str],
        until: Deadline,
        rank: Callable[[str], Any] | None = None,
        node_cap: float = float("inf"),
    ) -> tuple[frozenset[str], bool]:
        """Deletion in chunks: drop the least suspect half of the slots not yet known to be
        needed while the rest stays unfillable, halving the chunk on each failure, down to one
        slot at a time (few tests when the core is much smaller than the grown set). Stops, not
        minimal, at ``until`` or once the tests' search nodes reach ``node_cap``."""
        minimal = True
        ids = self._one_region(self._refined(ids, until), until)
        kept: set[str] = set()
        chunk = max(1, len(ids) // 2)
        while True:
            # least suspect first: the likeliest to be unneeded
            candidates = sorted(ids - kept, key=rank or self._rank, reverse=True)
            if not candidates or len(ids) == 1:
                return ids, minimal
            if expired(until, self.stop) or self.nodes >= node_cap:
                return ids, False
            chunk = min(chunk, len(candidates))
            dropped = frozenset(candidates[:chunk])
            if len(dropped) == len(ids):
                chunk = max(1, chunk // 2)
                continue
            verdict = self.test(ids - dropped, self._shrink_seconds(until))
            if verdict == _Verdict.UNSAT:
                ids = self._one_region(self._refined(ids - dropped, until), until)
            elif chunk > 1:
                chunk //= 2
            else:
                kept |= dropped
                minimal = minimal and verdict == _Verdict.SAT

    def _core_from(
        self, seeds: Sequence[str], grow_until: Deadline, until: Deadline, node_cap: float = float("inf")
    ) -> tuple[frozenset[str], bool]:
        """Grow from ``seeds`` until ``grow_until`` or GROW_STAGE_NODES more nodes (else start from
        the whole grid), then shrink until ``until`` (both within ``node_cap``)."""
        grow_cap = min(node_cap, self.nodes + GROW_STAGE_NODES) if self.counts_nodes else node_cap
        grown = self.grow(seeds, grow_until, grow_cap) or frozenset(self.order)
        return self.shrink(grown, until, node_cap=node_cap)

    def _smaller(self, best: frozenset[str], minimal: bool, seeds: Sequence[str]) -> tuple[frozenset[str], bool]:
        """Another seed or deletion order can reach a smaller minimal core: a few tries within
        the budget (SMALLER_CORE_SECONDS); the smallest core found, and whether it is minimal."""
        everything = frozenset(self.order)
        cap: float
        if self.counts_nodes:  # in nodes: the same core at any load, the deadline the outer cap
            until, cap = self.deadline, self.nodes + SMALLER_CORE_NODES
        else:
            spent = time.monotonic() - self.start
            budget = min(SMALLER_CORE_SECONDS, max(SMALLER_CORE_MIN_SECONDS, spent))
            until, cap = earliest(self.deadline, time.monotonic() + budget), float("inf")
        rng = random.Random(len(self.order))
        tried = set(seeds)
        for attempt in range(SMALLER_CORE_TRIES):
            if len(best) <= 1 or expired(until, self.stop) or self.nodes >= cap:
                break
            kind = attempt % 3
            others = [slot_id for slot_id in self.order if slot_id not in best and slot_id not in tried]
            if kind == 0 and others:  # a start from the most blamed slot outside the cores so far
                seed = min(others, key=self._rank)
                tried.add(seed)
                core, core_minimal = self._core_from([seed], until, until, cap)
            else:  # the core and its crossing slots, or the whole grid, in a random order
                superset = everything if kind == 2 else best | {n for b in best for n in self.neighbours[b]}
                # grid order, not the set's: a set of strings iterates by hash, which differs by process
                noise = {slot_id: rng.random() for slot_id in sorted(superset, key=self.order.__getitem__)}
                core, core_minimal = self.shrink(superset, until, noise.__getitem__, cap)
            if (len(core), not core_minimal) < (len(best), not minimal):
                best, minimal = core, core_minimal
        return best, minimal

    def find(self, seeds: Iterable[str] | None = None) -> Core:
        seeds = [slot_id for slot_id in (seeds or ()) if slot_id in self.order] or self.seeds()
        if not self.order or expired(self.deadline, self.stop):
            return Core(None, tests=self.tests)
        everything = frozenset(self.order)
        self.proved_unfillable(everything)  # what the failed proof showed
        grow_until = self.deadline
        if not self.counts_nodes and self.deadline is not None:  # else GROW_STAGE_NODES bound it
            grow_until = time.monotonic() + GROW_STAGE_SHARE * time_left(self.deadline)
        best, minimal = self._core_from(seeds, grow_until, self.deadline)
        best, minimal = self._smaller(best, minimal, seeds)
        return Core(sorted(best, key=self.order.__getitem__), minimal, self.tests, time.monotonic() - self.start)


def floored(problem: FillProblem, floors: Mapping[str, int]) -> FillProblem:
    """``problem`` with the domains of the slots ``floors`` names cut to the words scored at least
    their floor, made arc consistent again (``empty`` names a slot left without a word)."""
    cut, failed = with_floors(problem, [floors.get(slot.id) for slot in problem.slots])
    if cut is None:
        why = "no word is left once the floors are applied and every crossing is made consistent"
        return replace(problem, empty=((problem.slots[failed[0]].id, why),), root=None)
    return cut


def trouble_spots(problem: FillProblem, blame: dict[str, float], count: int = 5) -> list[tuple[str, int, float]]:
    """The slots to look at when no answer came in time: (slot id, candidates left at the root,
    conflicts in the search), most blamed first, then fewest candidates."""
    rows = [
        (slot.id, problem.domains[s].bit_count(), float(blame.get(slot.id, 0.0)))
        for s, slot in enumerate(problem.slots)
        if problem.domains[s] & (problem.domains[s] - 1)  # a settled slot is no trouble
    ]
    rows.sort(key=lambda row: (-row[2], row[1]))
    return rows[:count]
