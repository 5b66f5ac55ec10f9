"""A backend written outside the package, to prove that a new backend is one class plus one
registry line: the CLI, ``check``, ``count`` and the contract suite pick it up with no other edit.

``plain`` is chronological backtracking in slot order with forward checking; ``node_delay``
makes it slow on purpose, for the tests of time limits that hold for a whole job.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from csp_crossword.backends.base import (
    Backend,
    Enumeration,
    FillGenerator,
    SolveCall,
    result_from_domains,
    singleton_words,
)
from csp_crossword.core.result import FillResult, SearchStats, Status
from csp_crossword.search.problem import FillProblem

NAME = "plain"
TARGET = "plugin_backend:PlainBackend"


@dataclass(frozen=True)
class PlainOptions:
    node_delay: float = 0.0

    def __post_init__(self) -> None:
        if self.node_delay < 0:
            raise ValueError("node_delay must be 0 or more")


class _Expired(Exception):
    pass


class PlainBackend(Backend):
    name = NAME
    description = "chronological backtracking with forward checking (a test plug-in)"
    supports = frozenset({"fill", "prove", "enumerate"})
    Options = PlainOptions

    def _fills(self, problem: FillProblem, call: SolveCall, stats: SearchStats) -> FillGenerator:
        net = problem.network

        def search(state):
            if call.expired():
                raise _Expired
            open_slots = [s for s, d in enumerate(state.domains) if d & (d - 1)]
            if not open_slots:
                yield list(state.domains)
                return
            s = open_slots[0]
            domain = state.domains[s]
            while domain:
                low = domain & -domain
                domain ^= low
                stats.nodes += 1
                if self.options.node_delay:
                    time.sleep(self.options.node_delay)
                child = state.copy()
                child.domains[s] = low
                if net.propagate(child, (s,)) is None:
                    yield from search(child)
                else:
                    stats.backtracks += 1

        try:
            for domains in search(problem.root_state()):
                yield singleton_words(domains)
        except _Expired:
            return False
        return True

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        stats = SearchStats()
        fills = self._fills(problem, call, stats)
        try:
            words = next(fills)
        except StopIteration as stop:
            stats.seconds = call.elapsed()
            if stop.value:
                return FillResult(Status.UNSATISFIABLE, self.name, stats=stats, reason="search exhausted")
            return FillResult(Status.TIMEOUT, self.name, stats=stats)
        stats.seconds = call.elapsed()
        domains = [1 << words[s] for s in range(len(problem.slots))]
        return result_from_domains(problem, self.name, Status.FILLED, domains, stats)

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        stats = SearchStats()
        return Enumeration(self._fills(problem, call, stats), stats, call.start)
