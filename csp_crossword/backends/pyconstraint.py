"""``pyconstraint``: python-constraint2 as an independent reference backend for small puzzles.

Slots are variables over the word ids that survive arc consistency; each crossing is a
:class:`CrossingConstraint` with forward checking; equal-length slots get an
``AllDifferentConstraint`` unless repeats are allowed; with ``no_shared_substring`` N, every
two slots whose candidates could share a run of N glyphs get a :class:`SharedRunConstraint`
(with forward checking). The classic ``BacktrackingSolver`` is
used. Measured against python-constraint2's default ``OptimizedBacktrackingSolver`` on this model
(every fourth word of words.txt, forward checking): h0504 1.18 s vs 1.03 s, h0509 1.39 vs 1.09,
puzzle03 0.09 vs 0.14, puzzle05 0.06 vs 0.05, and h0506 45.0 s vs no answer in 60 s; the classic
solver is on par on easy grids and the only one to finish the hard one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..lexicon import WordIndex
from ..ngrams import run_sets
from ..problem import FillProblem
from ..result import FillResult, SearchStats, Status
from .base import Backend, Enumeration, FillGenerator, SolveCall, fill_from_words


class _Deadline(Exception):
    """Raised inside a constraint check when the time limit has passed."""


def _crossing_constraint_class() -> type:
    from constraint import Constraint

    class CrossingConstraint(Constraint):  # type: ignore[misc]
        """Slot a's glyph at position i equals slot b's glyph at position j."""

        def __init__(self, glyph_a: dict[int, int], glyph_b: dict[int, int], clock: Callable[[], None]):
            self.glyph_a = glyph_a
            self.glyph_b = glyph_b
            self.clock = clock

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: bool = False, _unassigned: Any = None
        ) -> bool:
            self.clock()
            a, b = variables
            wa, wb = assignments.get(a), assignments.get(b)
            if wa is not None and wb is not None:
                return self.glyph_a[wa] == self.glyph_b[wb]
            if forwardcheck and (wa is not None or wb is not None):
                if wa is not None:
                    glyph, other, table = self.glyph_a[wa], b, self.glyph_b
                else:
                    glyph, other, table = self.glyph_b[wb], a, self.glyph_a
                domain = domains[other]
                for value in domain[:]:
                    if table[value] != glyph:
                        domain.hideValue(value)
                if not domain:
                    return False
            return True

    return CrossingConstraint


def _shared_run_constraint_class() -> type:
    from constraint import Constraint

    class SharedRunConstraint(Constraint):  # type: ignore[misc]
        """The words of slots a and b share no run of N glyphs (their runs given per word id)."""

        def __init__(
            self,
            runs_a: dict[int, set[tuple[int, ...]]],
            runs_b: dict[int, set[tuple[int, ...]]],
            clock: Callable[[], None],
        ):
            self.runs_a = runs_a
            self.runs_b = runs_b
            self.clock = clock

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: bool = False, _unassigned: Any = None
        ) -> bool:
            self.clock()
            a, b = variables
            wa, wb = assignments.get(a), assignments.get(b)
            if wa is not None and wb is not None:
                return not self.runs_a[wa] & self.runs_b[wb]
            if forwardcheck and (wa is not None or wb is not None):
                if wa is not None:
                    mine, other, table = self.runs_a[wa], b, self.runs_b
                else:
                    mine, other, table = self.runs_b[wb], a, self.runs_a
                domain = domains[other]
                for value in domain[:]:
                    if table[value] & mine:
                        domain.hideValue(value)
                if not domain:
                    return False
            return True

    return SharedRunConstraint


class PyConstraintBackend(Backend):
    """python-constraint2's backtracking solver on the slot model; for small puzzles."""

    name = "pyconstraint"
    description = "python-constraint2 BacktrackingSolver (reference backend for small puzzles)"
    supports = frozenset({"fill", "prove", "enumerate"})
    solver_module = "constraint"
    solver_distribution = "python-constraint2"

    def _build(self, problem: FillProblem, stats: SearchStats, call: SolveCall) -> Any:
        from constraint import AllDifferentConstraint, BacktrackingSolver, Problem

        def clock() -> None:
            stats.propagations += 1
            if stats.propagations & 1023 == 0 and call.expired():
                raise _Deadline

        net = problem.network
        csp = Problem(BacktrackingSolver(forwardcheck=True))
        for s in range(len(net.slots)):
            csp.addVariable(s, list(WordIndex.iter_ids(problem.domains[s])))
        crossing = _crossing_constraint_class()
        for s in range(len(net.slots)):
            for t, i, j, _c in net.neighbours[s]:
                if s < t:
                    glyph_s = {w: net.indexes[s].code(w)[i] for w in WordIndex.iter_ids(problem.domains[s])}
                    glyph_t = {w: net.indexes[t].code(w)[j] for w in WordIndex.iter_ids(problem.domains[t])}
                    csp.addConstraint(crossing(glyph_s, glyph_t, clock), [s, t])
        if not problem.options.allow_duplicates:
            groups: dict[int, list[int]] = {}
            for s, slot in enumerate(net.slots):
                groups.setdefault(slot.length, []).append(s)
            for group in groups.values():
                if len(group) > 1:
                    csp.addConstraint(AllDifferentConstraint(), group)
        n = problem.options.no_shared_substring
        if n is not None:
            runs = [run_sets(net.indexes[s], problem.domains[s], n) for s in range(len(net.slots))]
            every = [set().union(*found.values()) for found in runs]
            shared = _shared_run_constraint_class()
            for s in range(len(net.slots)):
                for t in range(s + 1, len(net.slots)):
                    if every[s] & every[t]:
                        csp.addConstraint(shared(runs[s], runs[t], clock), [s, t])
        return csp

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        start = call.start
        stats = SearchStats()
        csp = self._build(problem, stats, call)
        try:
            solution = csp.getSolution()
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
        csp = self._build(problem, stats, call)

        def fills() -> FillGenerator:
            try:
                for solution in csp.getSolutionIter():
                    yield dict(solution)
            except _Deadline:
                return False
            return True

        return Enumeration(fills(), stats, call.start)
