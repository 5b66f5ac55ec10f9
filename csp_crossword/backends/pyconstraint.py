"""``pyconstraint``: python-constraint2 as an independent reference backend for small puzzles.

Slots are variables over the word ids that survive arc consistency; each crossing is a pair
constraint with forward checking (the glyphs at the crossing cell agree); equal-length slots get
an ``AllDifferentConstraint`` unless repeats are allowed; with ``no_shared_substring`` N, every
two slots whose candidates could share a run of N glyphs get a pair constraint too (their runs
are disjoint). The classic ``BacktrackingSolver`` is
used. Measured against python-constraint2's default ``OptimizedBacktrackingSolver`` on this model
(every fourth word of words.txt, forward checking): h0504 1.18 s vs 1.03 s, h0509 1.39 vs 1.09,
puzzle03 0.09 vs 0.14, puzzle05 0.06 vs 0.05, and h0506 45.0 s vs no answer in 60 s; the classic
solver is on par on easy grids and the only one to finish the hard one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core.result import FillResult, SearchStats, Status
from ..search.problem import FillProblem
from ..words.ngrams import run_sets
from ..words.word_index import WordIndex
from .base import Backend, Enumeration, FillGenerator, SolveCall, fill_from_words

#: Values looked at by the constraint checks between two looks at the clock: about a
#: millisecond of checking, so a time limit holds to within a few milliseconds.
CHECK_EVERY_UNITS = 20_000


class _Deadline(Exception):
    """Raised inside a constraint check when the time limit has passed."""


def _pair_constraint_class() -> type:
    from constraint import Constraint

    class PairConstraint(Constraint):  # type: ignore[misc]
        """Two slots' words agree: ``compatible(keys_a[word_a], keys_b[word_b])``, with forward
        checking. A crossing compares the glyphs at the crossing cell (equal); the
        ``no_shared_substring`` rule compares the words' runs of N glyphs (disjoint)."""

        def __init__(
            self,
            keys_a: dict[int, Any],
            keys_b: dict[int, Any],
            compatible: Callable[[Any, Any], bool],
            clock: Callable[[int], None],
        ):
            self.keys_a = keys_a
            self.keys_b = keys_b
            self.compatible = compatible
            self.clock = clock

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: bool = False, _unassigned: Any = None
        ) -> bool:
            a, b = variables
            wa, wb = assignments.get(a), assignments.get(b)
            if wa is not None and wb is not None:
                self.clock(1)
                return self.compatible(self.keys_a[wa], self.keys_b[wb])
            if forwardcheck and (wa is not None or wb is not None):
                if wa is not None:
                    mine, other, table = self.keys_a[wa], b, self.keys_b
                else:
                    mine, other, table = self.keys_b[wb], a, self.keys_a
                domain = domains[other]
                self.clock(len(domain) + 1)
                for value in domain[:]:
                    if not self.compatible(mine, table[value]):
                        domain.hideValue(value)
                if not domain:
                    return False
            return True

    return PairConstraint


def _use_limit_constraint_class() -> type:
    from constraint import Constraint

    class UseLimitConstraint(Constraint):  # type: ignore[misc]
        """No word fills more of these slots (all of one length) than its use limit allows
        (``limits``: word id -> uses, 1 for a word not in it), with forward checking: a word
        used up leaves the domains of the slots still open."""

        def __init__(self, limits: dict[int, int], clock: Callable[[int], None]):
            self.limits = limits
            self.clock = clock

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: bool = False, _unassigned: Any = None
        ) -> bool:
            used: dict[int, int] = {}
            for variable in variables:
                word = assignments.get(variable)
                if word is not None:
                    used[word] = used.get(word, 0) + 1
                    if used[word] > self.limits.get(word, 1):
                        return False
            self.clock(len(variables))
            if forwardcheck:
                spent = [word for word, n in used.items() if n >= self.limits.get(word, 1)]
                for variable in variables:
                    if variable in assignments:
                        continue
                    domain = domains[variable]
                    for word in spent:
                        if word in domain:
                            domain.hideValue(word)
                    if not domain:
                        return False
            return True

    return UseLimitConstraint


def _same_glyph(a: int, b: int) -> bool:
    return a == b


def _no_common_run(a: set[tuple[int, ...]], b: set[tuple[int, ...]]) -> bool:
    return not a & b


class PyConstraintBackend(Backend):
    """python-constraint2's backtracking solver on the slot model; for small puzzles."""

    name = "pyconstraint"
    description = "python-constraint2 BacktrackingSolver (reference backend for small puzzles)"
    supports = frozenset({"fill", "prove", "enumerate"})
    solver_module = "constraint"
    solver_distribution = "python-constraint2"

    def _build(self, problem: FillProblem, stats: SearchStats, call: SolveCall) -> Any:
        """The python-constraint problem; raises :class:`_Deadline` when the job's time is up
        (building it for a large list takes seconds: the deadline is checked per slot)."""
        from constraint import AllDifferentConstraint, BacktrackingSolver, Problem

        work = [0]

        def clock(units: int) -> None:
            # units: the values a check looked at, so one check of a 10,000-word domain counts
            # for as much as 10,000 small ones
            stats.propagations += 1
            work[0] += units
            if work[0] >= CHECK_EVERY_UNITS:
                work[0] = 0
                if call.expired():
                    raise _Deadline

        net = problem.network
        graph = problem.graph  # slots and crossings come from the constraint graph
        number = net.slot_number
        csp = Problem(BacktrackingSolver(forwardcheck=True))
        ids = []
        for s, slot_id in enumerate(graph):
            if call.expired():
                raise _Deadline
            found = WordIndex.id_array(problem.domains[s])
            ids.append(found)
            csp.addVariable(number[slot_id], found.tolist())
        pair = _pair_constraint_class()
        for a, b, crossing in graph.edges(data=True):
            if call.expired():
                raise _Deadline
            s, t = sorted((number[a], number[b]))
            i, j = crossing["positions"][net.slots[s].id], crossing["positions"][net.slots[t].id]
            glyph_s = dict(zip(ids[s].tolist(), net.indexes[s].matrix[ids[s], i].tolist(), strict=True))
            glyph_t = dict(zip(ids[t].tolist(), net.indexes[t].matrix[ids[t], j].tolist(), strict=True))
            csp.addConstraint(pair(glyph_s, glyph_t, _same_glyph, clock), [s, t])
        if graph.graph["no_repeat"]:
            use_limit = _use_limit_constraint_class()
            for group in graph.graph["same_length"].values():
                if len(group) > 1:
                    slots = [number[slot_id] for slot_id in group]
                    repeated = net.limits[slots[0]] if net.limits is not None else {}
                    if repeated:  # a word listed n times may fill n of these slots
                        csp.addConstraint(use_limit(repeated, clock), slots)
                    else:
                        csp.addConstraint(AllDifferentConstraint(), slots)
        n = problem.options.no_shared_substring
        if n is not None:
            runs = [run_sets(net.indexes[s], problem.domains[s], n) for s in range(len(net.slots))]
            every = [set().union(*found.values()) for found in runs]
            for s in range(len(net.slots)):
                if call.expired():
                    raise _Deadline
                for t in range(s + 1, len(net.slots)):
                    if every[s] & every[t]:
                        csp.addConstraint(pair(runs[s], runs[t], _no_common_run, clock), [s, t])
        return csp

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        start = call.start
        stats = SearchStats()
        try:
            solution = self._build(problem, stats, call).getSolution()
        except _Deadline:
            stats.seconds = time.monotonic() - start
            return FillResult(Status.TIMEOUT, self.name, stats=stats)
        except KeyboardInterrupt:
            stats.seconds = time.monotonic() - start
            return FillResult(Status.INTERRUPTED, self.name, stats=stats)
        stats.seconds = time.monotonic() - start
        if solution is None:
            reason = "python-constraint exhausted the search: no fill exists"
            return FillResult(Status.UNSATISFIABLE, self.name, stats=stats, reason=reason)
        cells, entries = fill_from_words(problem, solution)
        return FillResult(Status.FILLED, self.name, cells, entries, stats)

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        stats = SearchStats()

        def fills() -> FillGenerator:
            try:
                for solution in self._build(problem, stats, call).getSolutionIter():
                    yield dict(solution)
            except _Deadline:
                return False
            return True

        return Enumeration(fills(), stats, call.start)
