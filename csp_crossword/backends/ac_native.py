"""The ``ac`` search run by the compiled core (``search/kernel/search.c``).

The same search as :mod:`.ac` — the same variable order, value order, restarts, no-goods and
statistics, decision for decision — with the loop in C: the interpreter only starts it, and
wakes every SLICE_SECONDS to look at the stop flag, report progress and take a Ctrl-C. The
Python search in :mod:`.ac` stays the reference the tests compare this with, and the fallback
when the extension is not built, for alphabets of more than 64 glyphs, for fill-in use limits,
the no-shared-run rule and letter branching.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.result import FillResult, SearchStats, Status
from ..search.propagation_kernel import CompiledNetwork, kernel_module
from .ac_values import VALUE_NOISE
from .base import FillGenerator, SolveCall, result_from_domains

if TYPE_CHECKING:
    from ..search.problem import FillProblem
    from .ac_options import ACOptions

#: Seconds the core runs between two looks at the stop flag, the progress callback and Ctrl-C.
#: The search does not depend on it: a slice ends between two nodes and the next one goes on.
SLICE_SECONDS = 0.05
# search.h's RunStatus
_FOUND, _EXHAUSTED, _PAUSED, _DEADLINE = 0, 1, 2, 3
_VALUE_ORDERS = {"tier": 0, "window": 1, "lookahead": 2}


#: A problem with at most this many candidate words in all its slots starts in the Python
#: search, which imports no numpy (about 0.1 s, more than such a search takes); if it has not
#: ended after TRIAL_NODES decisions it starts over in the compiled core. Both make the same
#: decisions, so the result is the same either way.
SMALL_PROBLEM_WORDS = 4096
TRIAL_NODES = 200


def native_possible(problem: FillProblem, options: ACOptions) -> bool:
    """Whether the compiled core can run this search (the extension is there and on, and takes
    the problem's rules and these options), without packing anything yet."""
    if options.core != "compiled" or options.branching != "slot" or kernel_module() is None:
        return False
    return problem.network.core_takes_rules()


def native_network(problem: FillProblem, options: ACOptions) -> CompiledNetwork | None:
    """The packed network the core searches, or None when this search is the Python one's
    (extension unavailable or turned off, rules or options the core does not take)."""
    if not native_possible(problem, options):
        return None
    return problem.network.packed()


def small_problem(problem: FillProblem) -> bool:
    """Whether the problem is small enough to try in Python first (SMALL_PROBLEM_WORDS)."""
    total = 0
    for domain in problem.domains:
        total += domain.bit_count()
        if total > SMALL_PROBLEM_WORDS:
            return False
    return True


class NativeSearch:
    """One compiled ``ac`` search of ``problem`` (``enumerate``: one run, no restarts, no noise),
    reporting progress every ``progress_interval`` seconds."""

    def __init__(
        self,
        problem: FillProblem,
        packed: CompiledNetwork,
        options: ACOptions,
        *,
        backend_name: str,
        seed: int,
        call: SolveCall,
        progress_interval: float,
        enumerate: bool = False,
    ):
        self.problem = problem
        self.packed = packed
        self.backend_name = backend_name
        self.call = call
        self.core: Any = packed.search(
            problem.root_state(),
            value_order=_VALUE_ORDERS[options.value_order],
            luby=options.restart_policy == "luby",
            restart_base=float(options.restart_base),
            restart_growth=float(options.restart_growth),
            nogoods=options.nogoods,
            nogood_literals=options.nogood_literals,
            weight_decay=float(options.weight_decay),
            value_noise=VALUE_NOISE,
            seed=seed,
            enumerate=enumerate,
        )
        self.progress_interval = progress_interval
        self.next_progress = call.start + progress_interval
        #: The statistics so far, brought up to date whenever the core stops.
        self.totals = SearchStats()

    def _advance(self) -> int:
        """Run the core until a fill, exhaustion, the deadline or a stop; a status."""
        deadline = self.call.deadline if self.call.deadline is not None else math.inf
        while True:
            if self.call.stopped():
                return _DEADLINE  # cancelled, or another backend of a race answered first
            node_limit = self.call.node_limit if self.call.node_limit is not None else -1
            status = int(self.core.run(time.monotonic() + SLICE_SECONDS, deadline, node_limit))
            self._tally()
            now = time.monotonic()
            if self.call.progress is not None and now >= self.next_progress:
                self.call.progress(self.stats())
                self.next_progress = now + self.progress_interval
            if status != _PAUSED:
                return status

    def _tally(self) -> None:
        totals = self.totals
        (
            totals.nodes,
            totals.backtracks,
            totals.restarts,
            totals.propagations,
            totals.nogoods,
            totals.nogood_prunings,
            totals.nogood_failures,
        ) = self.core.stats()
        totals.seconds = time.monotonic() - self.call.start

    def stats(self) -> SearchStats:
        """A copy of the statistics so far."""
        self._tally()
        return replace(self.totals)

    def run(self) -> FillResult:
        try:
            status = self._advance()
        except KeyboardInterrupt:
            return self._result(Status.INTERRUPTED, self._best())
        if status == _FOUND:
            return self._result(Status.FILLED, [1 << w for w in self.core.fill()])
        if status == _EXHAUSTED:
            result = self._result(Status.UNSATISFIABLE, None)
            result.reason = "the search space is exhausted: no fill exists"
            return result
        return self._result(Status.TIMEOUT, self._best())

    def all_fills(self) -> FillGenerator:
        """Every fill in the order of the one run (see ``ac._Search.all_fills``)."""
        while True:
            status = self._advance()
            if status != _FOUND:
                return status == _EXHAUSTED
            yield dict(enumerate(self.core.fill()))

    def _best(self) -> list[int]:
        return self.packed.unpack(self.core.best())

    def _result(self, status: Status, domains: list[int] | None) -> FillResult:
        result = result_from_domains(self.problem, self.backend_name, status, domains, self.stats())
        if not status.has_fill:
            slots = self.problem.network.slots
            result.blame = {slots[s].id: n for s, n in enumerate(self.core.conflicts()) if n}
        return result
