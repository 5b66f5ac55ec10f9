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
import random
import time

import numpy as np

from ..lexicon import WordIndex
from ..problem import FillProblem
from ..propagation import Failure, State
from ..result import FillResult, SearchStats, Status
from .base import Backend, Enumeration, result_from_domains, singleton_words, unsatisfiable_result

#: Words ranked together by the look-ahead; larger windows trade score order for fillability.
VALUE_WINDOW = 8
#: Restart policy and unit: the k-th run may fail RESTART_BASE x luby(k) times. Measured on eight
#: Herald grids x 3 seeds at 30 s (docs/benchmarks.md): Luby 128 and geometric 64 x 1.2^k both
#: solved 22/24 (mean PAR-2 11.9 s and 11.6 s), geometric 64 x 1.5^k 21/25 (15.4 s); Luby keeps
#: restarting on long runs, where a geometric cutoff soon stops doing so.
RESTART_POLICY = "luby"
RESTART_BASE = 128
#: Cutoff growth per restart (geometric policy).
RESTART_GROWTH = 1.5
#: Spread of the random perturbation of look-ahead values from the second run on.
VALUE_NOISE = 1.0
#: Stand-in count for a crossing glyph with no support left (cannot happen after arc
#: consistency; keeps the logarithm finite).
NO_SUPPORT = 1e-9
#: Weights are divided by this when the decayed bump grows past it.
WEIGHT_RESCALE = 1e100
#: Longest no-good kept (decisions); longer ones rarely fire and cost a scan each time.
MAX_NOGOOD = 64
#: Seconds between progress callbacks.
PROGRESS_INTERVAL = 0.5


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby, Sinclair and Zuckerman's universal restart sequence
    1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = i.bit_length()  # 2^(k-1) <= i <= 2^k - 1
    while i != (1 << k) - 1:  # inside a block: the block repeats the sequence so far
        i -= (1 << (k - 1)) - 1
        k = i.bit_length()
    return 1 << (k - 1)


def restart_cutoffs(options):
    """Failure cutoffs of the successive runs: geometric (base x growth^k) or Luby (base x luby(k))."""
    k = 0
    while True:
        k += 1
        if options.restart_policy == "luby":
            yield options.restart_base * luby(k)
        else:
            yield options.restart_base * options.restart_growth ** (k - 1)


class _Frame:
    """One decision level: the state before the decision and the words queued for the slot."""

    __slots__ = ("state", "slot", "cell", "pending", "word", "refuted")

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


class _Outcome:
    EXHAUSTED, CUTOFF, TIMEOUT = range(3)


class _Search:
    def __init__(self, problem: FillProblem, backend: ACBackend, start: float):
        self.problem = problem
        self.net = problem.network
        self.backend = backend
        self.options = backend.options
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
        self.bump = 1.0
        self.root = problem.root_state()
        self.best_depth = -1
        self.best_domains: list[int] | None = None
        # Seed 0 keeps the first run purely heuristic; any other seed perturbs it too.
        self.noise = VALUE_NOISE if backend.seed else 0.0
        self.next_progress = start + PROGRESS_INTERVAL
        self.np_rng = np.random.default_rng(backend.seed)
        self.letters = self.options.branching == "letter"
        self.cell_slots: dict[int, tuple[int, int, int, int]] = {}
        for a, row in enumerate(self.net.neighbours):
            for b, i, j, c in row:
                self.cell_slots.setdefault(c, (a, i, b, j))
        # (slot, word) -> the learned no-goods holding that literal (each a tuple of literals).
        self.nogood_index: dict[tuple[int, int], list[tuple]] = {}
        self.log_table = np.zeros(len(self.net.lexicon_glyphs))

    # ----------------------------------------------------------------- heuristics

    def _record_failure(self, failure: Failure) -> None:
        self.stats.backtracks += 1
        s, t = failure.slot, failure.cause
        bump = self.bump
        if (s, t) not in self.edge_slot:  # empty from the start, a repeat conflict or a no-good
            self.slot_weights[s] += bump
            if t is not None and t != s:
                self.slot_weights[t] += bump
        else:
            self.edge_weights[s][self.edge_slot[(s, t)]] += bump
            self.edge_weights[t][self.edge_slot[(t, s)]] += bump
        decay = self.options.weight_decay
        if decay < 1.0:
            # Growing the bump instead of shrinking every weight: the same ratios, O(1) per
            # failure; everything is scaled down before floats overflow.
            self.bump = bump / decay
            if self.bump > WEIGHT_RESCALE:
                self.bump /= WEIGHT_RESCALE
                self.slot_weights = [w / WEIGHT_RESCALE for w in self.slot_weights]
                self.edge_weights = [[w / WEIGHT_RESCALE for w in row] for row in self.edge_weights]

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
        """The next words to try in slot s, best first.

        The candidates are the VALUE_WINDOW best-scored words plus every word tied on score with
        the last of them (for an unscored list, the whole domain); they are ranked by the
        look-ahead value: sum over crossings of log(words the crossing slot keeps).
        """
        domains = state.domains
        domain = domains[s]
        if domain & (domain - 1) == 0:
            return [domain.bit_length() - 1]
        if domain.bit_count() <= VALUE_WINDOW or self.options.value_order == "window":
            window = []
            for w in WordIndex.iter_ids(domain):
                window.append(w)
                if len(window) == VALUE_WINDOW:
                    break
            return self._rank_small(state, s, window)
        index = self.net.indexes[s]
        ids = WordIndex.id_array(domain)
        scores = index.score_array[ids]
        tier = ids[scores >= scores[VALUE_WINDOW - 1]]
        codes = index.matrix[tier]
        values = np.zeros(len(tier))
        bits = self.net.bits
        masks = state.masks
        for t, i, j, c in self.net.neighbours[s]:
            other = domains[t]
            if other & (other - 1) == 0:
                continue  # a filled crossing keeps one word whatever goes here
            column = bits[t][j]
            logs = self.log_table
            logs.fill(0.0)
            rest = masks[c]
            while rest:
                low = rest & -rest
                rest ^= low
                g = low.bit_length() - 1
                logs[g] = math.log((other & column[g]).bit_count() or NO_SUPPORT)
            values += logs[codes[:, i]]
        if self.noise:
            values += self.np_rng.normal(0.0, self.noise, len(tier))
        if len(tier) > VALUE_WINDOW:
            best = np.argpartition(-values, VALUE_WINDOW)[:VALUE_WINDOW]
        else:
            best = np.arange(len(tier))
        best = best[np.argsort(-values[best], kind="stable")]
        return [int(tier[k]) for k in best]

    def _rank_small(self, state: State, s: int, window: list[int]) -> list[int]:
        domains = state.domains
        index = self.net.indexes[s]
        bits = self.net.bits
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
        if self.backend.stop is not None and self.backend.stop.is_set():
            return True  # another backend of a race answered first
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

    def _assign(self, state: State, frame: _Frame) -> tuple:
        """Apply the frame's decision to ``state``; the slots whose domains changed."""
        if frame.cell < 0:
            state.domains[frame.slot] = 1 << frame.word
            return (frame.slot,)
        return self._restrict(state, frame.cell, 1 << frame.word)

    def _exclude(self, state: State, frame: _Frame) -> tuple:
        """Apply the negation of the frame's decision to ``state``."""
        if frame.cell < 0:
            state.domains[frame.slot] &= ~(1 << frame.word)
            return (frame.slot,)
        return self._restrict(state, frame.cell, state.masks[frame.cell] & ~(1 << frame.word))

    def _restrict(self, state: State, c: int, glyphs: int) -> tuple:
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
        """The glyph of the frame's cell that keeps the most words in both its slots."""
        state = frame.state
        a, i, b, j = self.cell_slots[frame.cell]
        best, best_value = -1, -math.inf
        rest = state.masks[frame.cell]
        bits = self.net.bits
        while rest:
            low = rest & -rest
            rest ^= low
            g = low.bit_length() - 1
            value = math.log((state.domains[a] & bits[a][i][g]).bit_count() or NO_SUPPORT) + math.log(
                (state.domains[b] & bits[b][j][g]).bit_count() or NO_SUPPORT
            )
            if self.noise:
                value += self.rng.gauss(0.0, self.noise)
            if value > best_value:
                best, best_value = g, value
        return best

    def _propagate(self, state: State, changed) -> Failure | None:
        """Arc consistency, then the learned no-goods, to a common fixpoint."""
        if not self.nogood_index:
            return self.net.propagate(state, changed)
        domains = state.domains
        before = domains[:]
        failure = self.net.propagate(state, changed)
        while failure is None:
            removed = []
            for t in range(self.n):
                d = domains[t]
                if d & (d - 1) or before[t] == d:
                    continue  # not a newly filled slot
                for nogood in self.nogood_index.get((t, d.bit_length() - 1), ()):
                    open_literal = None
                    for u, w in nogood:
                        if domains[u] != 1 << w:
                            if open_literal is not None or not domains[u] >> w & 1:
                                break  # two literals open, or one already false
                            open_literal = (u, w)
                    else:
                        if open_literal is None:
                            self.stats.nogood_failures += 1
                            return Failure(t, t)
                        u, w = open_literal
                        domains[u] &= ~(1 << w)
                        self.stats.nogood_prunings += 1
                        if not domains[u]:
                            return Failure(u, u)
                        removed.append(u)
            if not removed:
                return None
            before = domains[:]
            failure = self.net.propagate(state, removed)
        return failure

    def _learn(self, stack: list[_Frame]) -> None:
        """Reduced nld-nogoods of the branch cut by a restart (Lecoutre, Sais, Tabary, Vidal,
        "Nogood recording from restarts", IJCAI 2007): for each word refuted at depth k, the
        decisions above it plus that word cannot hold together. Depth 0 refutations already
        stay in the root state."""
        decisions: list[tuple[int, int]] = []
        for frame in stack:
            if decisions and frame.cell < 0:
                for w in frame.refuted:
                    nogood = (*decisions, (frame.slot, w))
                    if len(nogood) > MAX_NOGOOD:
                        break
                    for literal in nogood:
                        self.nogood_index.setdefault(literal, []).append(nogood)
                    self.stats.nogoods += 1
            if frame.cell < 0 and frame.word >= 0 and frame.state.domains[frame.slot] >> frame.word & 1:
                decisions.append((frame.slot, frame.word))
            else:
                break

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
                        self._learn(stack)
                    return _Outcome.CUTOFF
                if self._tick():
                    return _Outcome.TIMEOUT
            if self.stats.nodes & 63 == 0 and self._tick():
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


class ACOptions:
    """Search settings of the ``ac`` backend (the defaults are the measured best; see
    docs/benchmarks.md). Each can be given to :class:`ACBackend` as a keyword.

    Attributes:
        branching: ``slot`` decides a whole entry (slot = word, or not); ``letter`` decides one
            crossing cell of the dom/wdeg slot (cell = glyph, or not), the slot's fewest-glyph
            cell first, the glyph keeping the most words in both slots first. No-goods are
            learned from slot decisions only.
        value_order: ``tier`` ranks every word tied on score with the VALUE_WINDOW-th best by
            look-ahead (the whole domain for an unscored list); ``window`` ranks only the
            VALUE_WINDOW best-scored words.
        restart_policy: ``geometric`` (restart_base x restart_growth^k failures) or ``luby``
            (restart_base x the Luby sequence).
        restart_base: Failures allowed in the first run (the Luby unit).
        restart_growth: Cutoff growth per restart.
        nogoods: Record reduced nld-nogoods at each restart and propagate them.
        weight_decay: dom/wdeg weight decay: each failure bumps weights by 1/decay times the
            previous bump, so old conflicts count less (1.0: classic wdeg).
    """

    __slots__ = ("branching", "value_order", "restart_policy", "restart_base", "restart_growth", "nogoods", "weight_decay")
    CHOICES = {"branching": ("slot", "letter"), "value_order": ("tier", "window"), "restart_policy": ("geometric", "luby")}

    def __init__(
        self,
        branching: str = "slot",
        value_order: str = "tier",
        restart_policy: str = RESTART_POLICY,
        restart_base: float = RESTART_BASE,
        restart_growth: float = RESTART_GROWTH,
        nogoods: bool = True,
        weight_decay: float = 1.0,
    ):
        self.branching = branching
        self.value_order = value_order
        self.restart_policy = restart_policy
        self.nogoods = bool(nogoods)
        self.weight_decay = weight_decay
        self.restart_base = restart_base
        self.restart_growth = restart_growth
        for name, allowed in self.CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"ac option {name} must be one of {', '.join(allowed)}")


class ACBackend(Backend):
    """Maintained arc consistency with dom/wdeg, look-ahead value order and restarts."""

    name = "ac"
    description = "arc-consistency backtracker (MAC, dom/wdeg, restarts) on bitset domains"
    supports = frozenset({"fill", "prove", "enumerate"})

    def __init__(self, *, time_limit=None, seed=0, on_progress=None, **options):
        super().__init__(time_limit=time_limit, seed=seed, on_progress=on_progress)
        self.options = ACOptions(**options)
        # Set by whoever races this backend against another one (``auto``): ends the search
        # as a timeout at the next check.
        self.stop = None

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
