"""``ac``: maintained arc consistency (MAC) backtracking on bitset domains, with restarts.

The default backend. One slot is a variable whose values are the words of its length; crossings
are binary constraints; :class:`csp_crossword.search.propagation.Network` keeps them arc consistent (and
enforces no repeated entry) after every decision.

Search:
  * variable order dom/wdeg: the slot minimising (words left) / (1 + weights of its crossings
    with unfilled slots), where a crossing's weight grows each time propagating across it wipes a
    domain out (Boussemart, Hemery, Lecoutre, Sais, "Boosting systematic search by weighting
    constraints", ECAI 2004);
  * value order: the words are taken best score first, VALUE_WINDOW at a time; inside a window
    the word that leaves its crossings the most candidates (sum of log counts, the "product of
    crossing counts" look-ahead of crossword fillers) goes first;
  * two-way branching: a failed word is removed from its slot and propagated before the next one;
  * restarts with failure cutoffs following the Luby sequence (or a geometric one) keep the
    learned weights, every refutation proved at the root and the no-goods recorded at each
    restart, with seeded noise in the value order after the first run (from the first run when
    the seed is not 0) (Gomes, Selman, Kautz, "Boosting combinatorial search through
    randomization", AAAI 1998; Luby, Sinclair, Zuckerman, "Optimal speedup of Las Vegas
    algorithms", 1993; Lecoutre, Sais, Tabary, Vidal, "Nogood recording from restarts", IJCAI
    2007).

A run that ends without reaching its cutoff has explored the whole tree, so "unsatisfiable" is a
proof; a timeout or Ctrl-C returns the deepest partial fill found.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator
from dataclasses import replace
from enum import Enum

from ..core.result import FillResult, SearchStats, Status
from ..search.problem import FillProblem
from ..search.propagation_kernel import CompiledNetwork
from ..search.state import Failure, State
from . import ac_native
from .ac_learning import ConflictWeights, NogoodStore
from .ac_native import NativeSearch, native_network, native_possible, small_problem
from .ac_options import RESTART_BASE, RESTART_GROWTH, RESTART_POLICY, ACOptions, luby, restart_cutoffs
from .ac_values import VALUE_NOISE, ValueOrder
from .base import Backend, Enumeration, FillGenerator, SolveCall, result_from_domains, singleton_words

#: Seconds between progress callbacks.
PROGRESS_INTERVAL = 0.5

__all__ = ["RESTART_BASE", "RESTART_GROWTH", "RESTART_POLICY", "ACBackend", "ACOptions", "luby", "restart_cutoffs"]


class _Frame:
    """One decision level: the state before the decision and the words queued for the slot."""

    __slots__ = ("cell", "pending", "refuted", "slot", "state", "word")

    def __init__(self, state: State, slot: int, cell: int = -1):
        self.state = state
        self.slot = slot
        # A letter decision (branching=letter) sets crossing cell ``cell`` to glyph ``word``;
        # a slot decision (cell -1) sets slot ``slot`` to word ``word``.
        self.cell = cell
        self.pending: list[int] = []
        self.word = -1
        # Words proved not to fit here, given the decisions above (no-goods at a restart).
        self.refuted: list[int] = []


class _Outcome(Enum):
    EXHAUSTED = "exhausted"
    CUTOFF = "cutoff"
    TIMEOUT = "timeout"


#: What one depth-first run yields (the domains of each fill) and returns.
_Run = Generator[list[int], None, _Outcome]


class _Search:
    def __init__(self, problem: FillProblem, backend: ACBackend, call: SolveCall):
        self.problem = problem
        self.net = problem.network
        self.backend_name = backend.name
        self.options: ACOptions = backend.options
        self.call = call
        self.start = call.start
        self.deadline = call.deadline if call.deadline is not None else math.inf
        self.stats = SearchStats()
        self.n = len(self.net.slots)
        self.weights = ConflictWeights(self.net.neighbours, self.options.weight_decay)
        self.nogoods = NogoodStore(self.stats, self.options.nogood_literals)
        self.root = problem.root_state()
        self.best_depth = -1
        self.best_domains: list[int] | None = None
        self.values = ValueOrder(self.net, self.options.value_order, backend.seed)
        self.next_progress = self.start + PROGRESS_INTERVAL
        self.letters = self.options.branching == "letter"
        self.cell_slots: dict[int, tuple[int, int, int, int]] = {}
        for a, row in enumerate(self.net.neighbours):
            for b, i, j, c in row:
                self.cell_slots.setdefault(c, (a, i, b, j))

    # ----------------------------------------------------------------- heuristics

    def _record_failure(self, failure: Failure) -> None:
        self.stats.backtracks += 1
        self.weights.record(failure)

    def _next_word(self, frame: _Frame) -> int:
        domain = frame.state.domains[frame.slot]
        while True:
            if not frame.pending:
                frame.pending = self.values.rank(frame.state, frame.slot)
                frame.pending.reverse()
            w = frame.pending.pop()
            if domain >> w & 1:
                return w

    # ----------------------------------------------------------------- search

    def _tick(self) -> bool:
        """Progress, the node limit and the time limit; True when the search must end."""
        if self.call.node_limit is not None and self.stats.nodes >= self.call.node_limit:
            return True
        now = time.monotonic()
        if now >= self.deadline:
            return True
        call = self.call
        if call.stop is not None and call.stop.is_set():
            return True  # cancelled, or another backend of a race answered first
        if now >= self.next_progress and call.progress is not None:
            self.stats.seconds = now - self.start
            call.progress(self.stats)
            self.next_progress = now + PROGRESS_INTERVAL
        return False

    def _refute(self, stack: list[_Frame]) -> bool:
        """Remove the current word of the top frame and propagate, unwinding every frame whose
        slot runs out of words. False when the whole tree is exhausted."""
        while stack:
            frame = stack[-1]
            changed = self._exclude(frame.state, frame)
            frame.refuted.append(frame.word)
            self.stats.propagations += 1
            failure = self._propagate(frame.state, changed)
            if failure is None:
                return True
            self._record_failure(failure)
            stack.pop()
        return False

    # ----------------------------------------------------------------- decisions

    def _assign(self, state: State, frame: _Frame) -> tuple[int, ...]:
        """Apply the frame's decision to ``state``; the slots whose domains changed."""
        if frame.cell < 0:
            state.domains[frame.slot] = 1 << frame.word
            return (frame.slot,)
        return self._restrict(state, frame.cell, 1 << frame.word)

    def _exclude(self, state: State, frame: _Frame) -> tuple[int, ...]:
        """Apply the negation of the frame's decision to ``state``."""
        if frame.cell < 0:
            state.domains[frame.slot] &= ~(1 << frame.word)
            return (frame.slot,)
        return self._restrict(state, frame.cell, state.masks[frame.cell] & ~(1 << frame.word))

    def _restrict(self, state: State, c: int, glyphs: int) -> tuple[int, ...]:
        a, i, b, j = self.cell_slots[c]
        state.masks[c] = glyphs
        state.domains[a] &= self.net.words_with(a, i, glyphs)
        state.domains[b] &= self.net.words_with(b, j, glyphs)
        return (a, b)

    def _select_cell(self, state: State, s: int) -> int:
        """Letter branching: slot s's crossing cell with the fewest glyphs left (-1: none open,
        so the slot itself is decided)."""
        best, best_count = -1, math.inf
        for _t, _i, _j, c in self.net.neighbours[s]:
            count = state.masks[c].bit_count()
            if 1 < count < best_count:
                best, best_count = c, count
        return best

    def _next_glyph(self, frame: _Frame) -> int:
        return self.values.best_glyph(frame.state, frame.cell, *self.cell_slots[frame.cell])

    def _propagate(self, state: State, changed: tuple[int, ...] | list[int]) -> Failure | None:
        """Arc consistency, then the learned no-goods, to a common fixpoint."""
        return self.nogoods.propagate(self.net, state, changed)

    def _dfs(self, cutoff: float) -> _Run:
        """Depth-first MAC search from the root. A generator: yields the domains of each fill
        found (all singletons) and returns an _Outcome (EXHAUSTED, CUTOFF or TIMEOUT)."""
        failures = 0
        stack: list[_Frame] = []
        state = self.root
        while True:
            s = self.weights.select_slot(state.domains)
            if s is None:
                yield state.domains
                if not self._refute(stack):
                    return _Outcome.EXHAUSTED
            else:
                stack.append(_Frame(state, s, self._select_cell(state, s) if self.letters else -1))
                if len(stack) > self.best_depth:
                    self.best_depth = len(stack)
                    self.best_domains = state.domains[:]
            while True:
                frame = stack[-1]
                frame.word = self._next_word(frame) if frame.cell < 0 else self._next_glyph(frame)
                child = frame.state.copy()
                changed = self._assign(child, frame)
                self.stats.nodes += 1
                self.stats.propagations += 1
                failure = self._propagate(child, changed)
                if failure is None:
                    state = child
                    break
                self._record_failure(failure)
                failures += 1
                if not self._refute(stack):
                    return _Outcome.EXHAUSTED
                if failures >= cutoff:
                    if self.options.nogoods:
                        self.nogoods.learn(stack)
                    return _Outcome.CUTOFF
                if self._tick():
                    return _Outcome.TIMEOUT
            if self._tick():  # every node: on a large grid 64 nodes can take seconds
                return _Outcome.TIMEOUT

    def run(self) -> FillResult:
        cutoffs = restart_cutoffs(self.options)
        cutoff = next(cutoffs)
        try:
            while True:
                search = self._dfs(cutoff)
                try:
                    return self._result(Status.FILLED, next(search))
                except StopIteration as stop:
                    outcome = stop.value
                if outcome == _Outcome.EXHAUSTED:
                    result = self._result(Status.UNSATISFIABLE, None)
                    result.reason = "the search space is exhausted: no fill exists"
                    return result
                if outcome == _Outcome.TIMEOUT:
                    return self._result(Status.TIMEOUT, self.best_domains)
                self.stats.restarts += 1
                cutoff = next(cutoffs)
                self.values.noise = VALUE_NOISE
        except KeyboardInterrupt:
            return self._result(Status.INTERRUPTED, self.best_domains)

    def all_fills(self) -> FillGenerator:
        """Every fill, in a stable order (one run, no restarts, no noise): yields slot number ->
        word id dicts; returns True when the enumeration is complete, False at the time limit."""
        self.values.noise = 0.0
        search = self._dfs(math.inf)
        while True:
            try:
                domains = next(search)
            except StopIteration as stop:
                return bool(stop.value == _Outcome.EXHAUSTED)
            yield singleton_words(domains)

    def _result(self, status: Status, domains: list[int] | None) -> FillResult:
        self.stats.seconds = time.monotonic() - self.start
        result = result_from_domains(self.problem, self.backend_name, status, domains, self.stats)
        if not status.has_fill:
            slots = self.net.slots
            result.blame = {slots[s].id: n for s, n in enumerate(self.weights.conflicts) if n}
        return result


class ACBackend(Backend):
    """Maintained arc consistency with dom/wdeg, look-ahead value order and restarts."""

    name = "ac"
    description = "arc-consistency backtracker (MAC, dom/wdeg, restarts) on bitset domains"
    supports = frozenset({"fill", "prove", "enumerate"})
    counts_nodes = True
    Options = ACOptions
    options: ACOptions

    def _native(
        self, problem: FillProblem, packed: CompiledNetwork, call: SolveCall, *, enumerate: bool = False
    ) -> NativeSearch:
        return NativeSearch(
            problem,
            packed,
            self.options,
            backend_name=self.name,
            seed=self.seed,
            call=call,
            progress_interval=PROGRESS_INTERVAL,
            enumerate=enumerate,
        )

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        if native_possible(problem, self.options) and small_problem(problem):
            trial = ac_native.TRIAL_NODES
            limit = trial if call.node_limit is None else min(call.node_limit, trial)
            result = _Search(problem, self, replace(call, node_limit=limit)).run()
            trial_spent = result.status == Status.TIMEOUT and result.stats.nodes >= limit and not call.expired()
            if not trial_spent or limit == call.node_limit:
                return result
        packed = native_network(problem, self.options)
        if packed is not None:
            return self._native(problem, packed, call).run()
        return _Search(problem, self, call).run()

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        packed = native_network(problem, self.options)
        if packed is not None:
            native = self._native(problem, packed, call, enumerate=True)
            return Enumeration(native.all_fills(), native.totals, call.start)
        search = _Search(problem, self, call)
        return Enumeration(search.all_fills(), search.stats, call.start)
