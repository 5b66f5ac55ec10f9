"""``ac``: maintained arc consistency (MAC) backtracking on bitset domains, with restarts.

The default backend. One slot is a variable whose values are the words of its length; crossings
are binary constraints; :class:`csp_crossword.propagation.Network` keeps them arc consistent (and
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
  * restarts with a geometrically growing failure cutoff keep the learned weights and every
    refutation proved at the root, with seeded noise in the value order after the first run (from
    the first run when the seed is not 0) (Gomes, Selman, Kautz, "Boosting combinatorial search
    through randomization", AAAI 1998).

A run that ends without reaching its cutoff has explored the whole tree, so "unsatisfiable" is a
proof; a timeout or Ctrl-C returns the deepest partial fill found.
"""

from __future__ import annotations

import math
import random
import time

from ..lexicon import WordIndex
from ..problem import FillProblem
from ..propagation import Failure, State
from ..result import FillResult, SearchStats, Status
from .base import Backend, Enumeration, result_from_domains, singleton_words, unsatisfiable_result

#: Words ranked together by the look-ahead; larger windows trade score order for fillability.
VALUE_WINDOW = 8
#: Failures allowed in the first run before a restart.
RESTART_BASE = 64
#: Cutoff growth per restart (geometric policy).
RESTART_GROWTH = 1.5
#: Spread of the random perturbation of look-ahead values from the second run on.
VALUE_NOISE = 1.0
#: Seconds between progress callbacks.
PROGRESS_INTERVAL = 0.5


class _Frame:
    """One decision level: the state before the decision and the words queued for the slot."""

    __slots__ = ("state", "slot", "pending", "word")

    def __init__(self, state: State, slot: int):
        self.state = state
        self.slot = slot
        self.pending: list[int] = []
        self.word = -1


class _Outcome:
    EXHAUSTED, CUTOFF, TIMEOUT = range(3)


class _Search:
    def __init__(self, problem: FillProblem, backend: ACBackend, start: float):
        self.problem = problem
        self.net = problem.network
        self.backend = backend
        self.rng = random.Random(backend.seed)
        self.start = start
        self.deadline = backend.deadline(start)
        self.stats = SearchStats()
        self.n = len(self.net.slots)
        self.edge_weights = [[1] * len(nb) for nb in self.net.neighbours]
        self.edge_slot = {}
        for s, nb in enumerate(self.net.neighbours):
            for k, (t, *_rest) in enumerate(nb):
                self.edge_slot[(s, t)] = k
        self.slot_weights = [0] * self.n
        self.root = problem.root_state()
        self.best_depth = -1
        self.best_domains: list[int] | None = None
        # Seed 0 keeps the first run purely heuristic; any other seed perturbs it too.
        self.noise = VALUE_NOISE if backend.seed else 0.0
        self.next_progress = start + PROGRESS_INTERVAL

    # ----------------------------------------------------------------- heuristics

    def _record_failure(self, failure: Failure) -> None:
        self.stats.backtracks += 1
        s, t = failure.slot, failure.cause
        if (s, t) not in self.edge_slot:  # empty from the start, or a repeat conflict
            self.slot_weights[s] += 1
            if t is not None and t != s:
                self.slot_weights[t] += 1
            return
        self.edge_weights[s][self.edge_slot[(s, t)]] += 1
        self.edge_weights[t][self.edge_slot[(t, s)]] += 1

    def _select_slot(self, domains: list[int]) -> int | None:
        best, best_key = None, math.inf
        neighbours = self.net.neighbours
        for s in range(self.n):
            domain = domains[s]
            if domain & (domain - 1) == 0:
                continue
            weight = 1 + self.slot_weights[s]
            row = self.edge_weights[s]
            for k, (t, _i, _j, _c) in enumerate(neighbours[s]):
                other = domains[t]
                if other & (other - 1):
                    weight += row[k]
            key = domain.bit_count() / weight
            if key < best_key:
                best, best_key = s, key
        return best

    def _rank_window(self, state: State, s: int) -> list[int]:
        domains = state.domains
        index = self.net.indexes[s]
        bits = self.net.bits
        window = []
        for w in WordIndex.iter_ids(domains[s]):
            window.append(w)
            if len(window) == VALUE_WINDOW:
                break
        if len(window) == 1:
            return window
        ranked = []
        for w in window:
            code = index.code(w)
            value = 0.0
            for t, i, j, _c in self.net.neighbours[s]:
                count = (domains[t] & bits[t][j][code[i]]).bit_count()
                value += math.log(count) if count else -1e9
            if self.noise:
                value += self.rng.gauss(0.0, self.noise)
            ranked.append((-value, w))
        ranked.sort()
        return [w for _, w in ranked]

    def _next_word(self, frame: _Frame) -> int:
        domain = frame.state.domains[frame.slot]
        while True:
            if not frame.pending:
                frame.pending = self._rank_window(frame.state, frame.slot)
                frame.pending.reverse()
            w = frame.pending.pop()
            if domain >> w & 1:
                return w

    # ----------------------------------------------------------------- search

    def _tick(self) -> bool:
        """Progress and the time limit; True when time is up."""
        now = time.monotonic()
        if now >= self.deadline:
            return True
        if now >= self.next_progress and self.backend.on_progress is not None:
            self.stats.seconds = now - self.start
            self.backend.on_progress(self.stats)
            self.next_progress = now + PROGRESS_INTERVAL
        return False

    def _refute(self, stack: list[_Frame]) -> bool:
        """Remove the current word of the top frame and propagate, unwinding every frame whose
        slot runs out of words. False when the whole tree is exhausted."""
        while stack:
            frame = stack[-1]
            frame.state.domains[frame.slot] &= ~(1 << frame.word)
            self.stats.propagations += 1
            failure = self.net.propagate(frame.state, (frame.slot,))
            if failure is None:
                return True
            self._record_failure(failure)
            stack.pop()
        return False

    def _dfs(self, cutoff: float):
        """Depth-first MAC search from the root. A generator: yields the domains of each fill
        found (all singletons) and returns an _Outcome (EXHAUSTED, CUTOFF or TIMEOUT)."""
        net = self.net
        failures = 0
        stack: list[_Frame] = []
        state = self.root
        while True:
            s = self._select_slot(state.domains)
            if s is None:
                yield state.domains
                if not self._refute(stack):
                    return _Outcome.EXHAUSTED
            else:
                stack.append(_Frame(state, s))
                if len(stack) > self.best_depth:
                    self.best_depth = len(stack)
                    self.best_domains = state.domains[:]
            while True:
                frame = stack[-1]
                w = self._next_word(frame)
                frame.word = w
                child = frame.state.copy()
                child.domains[frame.slot] = 1 << w
                self.stats.nodes += 1
                self.stats.propagations += 1
                failure = net.propagate(child, (frame.slot,))
                if failure is None:
                    state = child
                    break
                self._record_failure(failure)
                failures += 1
                if not self._refute(stack):
                    return _Outcome.EXHAUSTED
                if failures >= cutoff:
                    return _Outcome.CUTOFF
                if self._tick():
                    return _Outcome.TIMEOUT
            if self.stats.nodes & 63 == 0 and self._tick():
                return _Outcome.TIMEOUT

    def run(self) -> FillResult:
        cutoff = RESTART_BASE
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
                cutoff *= RESTART_GROWTH
                self.noise = VALUE_NOISE
        except KeyboardInterrupt:
            return self._result(Status.INTERRUPTED, self.best_domains)

    def all_fills(self):
        """Every fill, in a stable order (one run, no restarts, no noise): yields slot number ->
        word id dicts; returns True when the enumeration is complete, False at the time limit."""
        self.noise = 0.0
        search = self._dfs(math.inf)
        while True:
            try:
                domains = next(search)
            except StopIteration as stop:
                return stop.value == _Outcome.EXHAUSTED
            yield singleton_words(domains)

    def _result(self, status: Status, domains) -> FillResult:
        self.stats.seconds = time.monotonic() - self.start
        return result_from_domains(self.problem, self.backend.name, status, domains, self.stats)


class ACBackend(Backend):
    """Maintained arc consistency with dom/wdeg, look-ahead value order and restarts."""

    name = "ac"
    description = "arc-consistency backtracker (MAC, dom/wdeg, restarts) on bitset domains"
    supports = frozenset({"fill", "prove", "enumerate"})

    def solve(self, problem: FillProblem) -> FillResult:
        start = time.monotonic()
        if problem.unsatisfiable:
            return unsatisfiable_result(problem, self.name, start)
        return _Search(problem, self, start).run()

    def enumerate(self, problem: FillProblem) -> Enumeration:
        start = time.monotonic()
        if problem.unsatisfiable:
            return Enumeration.of_nothing()
        search = _Search(problem, self, start)
        return Enumeration(search.all_fills(), search.stats, start)
