"""The highest total score, proved: branch and bound over the whole grid with a Lagrangian bound.

The bound relaxes the crossings (Fisher, "The Lagrangian relaxation method for solving integer
programming problems", Management Science 1981). A multiplier per crossing cell and glyph moves
score between the cell's two slots: the slot earlier in slot order gains it when its word has
that glyph there, the later one loses it. A fill's two slots agree on every cell, so its total is
unchanged, and the sum over slots of each slot's best *adjusted* word left bounds every fill from
above. Subgradient steps with Polyak's rule (Polyak, "Minimization of unsmooth functionals", 1969;
the step's share halved when the bound stalls, as Held & Karp, 1971) lower that bound.

Each node of the search then

1. lowers the bound from its parent's multipliers (:data:`ROOT_STEPS` steps at the root,
   :data:`NODE_STEPS` below) and prunes the node when it cannot beat the best total known;
2. removes every word whose adjusted score cannot reach that total even with every other slot's
   best (reduced-cost filtering: Sellmann, "Theoretical foundations of CP-based Lagrangian
   relaxation", CP 2004), lets arc consistency follow, and repeats until nothing changes;
3. branches on the crossing cell where the bound's words disagree with the fewest glyphs left:
   the cell takes the glyph of the earlier slot's word, or loses it. When the bound's words agree
   everywhere and repeat nothing they are a fill whose total equals the bound: the best of the
   node, so no branching is needed.

A search that ends is a proof: nothing beats the best total found (or the one to beat). One cut
short by the deadline, the stop signal or the node budget returns the best fill found and the
root's bound. The compiled core (``search/kernel/optimum.c``) runs the same steps; the Python
search here is the reference the tests compare it with.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..words.word_index import WordIndex

if TYPE_CHECKING:
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem
    from ..search.state import State

#: Subgradient steps that lower the bound at the root (about 0.1 s on a 5x5 with the built-in list).
ROOT_STEPS = 300
#: ... and at every other node, from its parent's multipliers. Measured on mini-5x5 with the
#: built-in list: 2 steps proved its optimum in 32 s, 5 in 24 s, 10 in 18 s, 20 in 29 s.
NODE_STEPS = 10
#: The first step's share of Polyak's step (the bound's excess over the total to beat, divided by
#: the squared length of the subgradient).
STEP_SCALE = 1.0
#: Steps in a row that do not lower the bound before the share is halved.
STALL_STEPS = 4
#: The bound must fall below the total to beat plus one (scores are integers) by this margin
#: before a node is pruned or a word removed: far above the rounding error of summing doubles.
BOUND_MARGIN = 1e-6
#: How often (seconds) a compiled search is checked for the caller's stop signal.
STOP_POLL_SECONDS = 0.05

#: (crossing cell, glyph id) -> multiplier; absent: 0.
Multipliers = dict[tuple[int, int], float]


@dataclass
class Optimum:
    """What a proof search did: the best fill found above the total to beat (word id per slot,
    None when none was found), whether the search ended (``proved``: nothing beats the best total
    known), the root's bound (None when the root had no fill) and the nodes made."""

    words: list[int] | None
    proved: bool
    bound: float | None
    nodes: int


def prove_optimum(
    problem: FillProblem,
    to_beat: int,
    deadline: Deadline,
    stop: StopSignal | None = None,
    *,
    node_budget: int | None = None,
    native: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Optimum:
    """The fill of highest total score above ``to_beat`` (module docstring), until ``deadline``
    (a ``time.monotonic()`` value, or None), ``stop`` or ``node_budget`` nodes. ``native`` False
    keeps the search in Python (the reference), as does a network whose rules the compiled core
    does not know (use limits, the shared-run rule). ``progress`` is called now and then while
    the search runs, with its nodes so far (the compiled core's count only when it ends: 0 before)."""
    search = ProofSearch(problem, native=native)
    return search.run(to_beat, deadline, stop, node_budget=node_budget, progress=progress)


class ProofSearch:
    """The proof search of one problem, ready to run from its own domains or from narrower ones
    (one compiled search serves every run: a re-fill of many neighbourhoods makes it once)."""

    def __init__(self, problem: FillProblem, *, native: bool = True):
        self.problem = problem
        self.packed = problem.network.packed() if native else None
        self.core: Any = None

    def run(
        self,
        to_beat: int,
        deadline: Deadline,
        stop: StopSignal | None = None,
        *,
        domains: Sequence[int] | None = None,
        node_budget: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> Optimum:
        """As :func:`prove_optimum`, from ``domains`` (one bitset per slot, within the problem's;
        arc consistency runs first) when given."""
        domains = list(self.problem.domains if domains is None else domains)
        if self.packed is None:
            return _Reference(self.problem, domains, to_beat, deadline, stop, node_budget, progress).run()
        import numpy as np

        if self.core is None:
            self.core = self.packed.search(self.problem.root_state())
        rows = self.packed.rows_of(domains)
        flag = np.zeros(1, dtype=np.uint8)
        answer: list[tuple[int, bool, float, list[int] | None]] = []
        failure: list[BaseException] = []
        settings = (ROOT_STEPS, NODE_STEPS, STEP_SCALE, STALL_STEPS, -1 if node_budget is None else node_budget)
        end = math.inf if deadline is None else deadline

        def run() -> None:
            try:
                answer.append(self.core.optimum(rows, to_beat, *settings, end, flag))
            except BaseException as error:  # handed to the caller's thread
                failure.append(error)

        # The search runs in a thread (it releases the interpreter lock) so that this thread
        # stays free to see the stop signal and Ctrl-C, which it passes on through the flag.
        worker = threading.Thread(target=run, name="optimum", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(STOP_POLL_SECONDS)
                if stop is not None and stop.is_set():
                    flag[0] = 1
                elif progress is not None:  # the waiting thread keeps the job's progress line moving
                    progress(0)
        finally:
            flag[0] = 1  # the search stops within a step of the bound
            while worker.is_alive():
                try:
                    worker.join(STOP_POLL_SECONDS)
                except KeyboardInterrupt:  # a second Ctrl-C: the search is stopping already
                    continue
        if failure:
            raise failure[0]
        nodes, stopped, root_bound, words = answer[0]
        return Optimum(words, not stopped, None if math.isinf(root_bound) else root_bound, nodes)


class _Stopped(Exception):
    """The deadline, the stop signal or the node budget ended the reference search."""


class _Reference:
    """The branch and bound in Python, step for step as the compiled core's."""

    def __init__(
        self,
        problem: FillProblem,
        domains: list[int],
        to_beat: int,
        deadline: Deadline,
        stop: StopSignal | None,
        budget: int | None,
        progress: Callable[[int], None] | None = None,
    ):
        self.problem = problem
        self.progress = progress
        self.domains = domains
        self.network = problem.network
        self.best_total = to_beat
        self.best: list[int] | None = None
        self.deadline = deadline
        self.stop = stop
        self.budget = budget
        self.nodes = 0
        self.root_bound: float | None = None
        network = self.network
        # per slot, its crossings as (position, crossing cell, sign, other slot, its position)
        self.crossings = [
            [(i, c, 1.0 if s < t else -1.0, t, j) for t, i, j, c in network.neighbours[s]]
            for s in range(len(network.slots))
        ]

    def run(self) -> Optimum:
        state = self.network.initial_state(self.domains)
        if self.network.propagate(state, range(len(self.domains))) is not None:
            return Optimum(None, True, None, 0)  # no fill at all
        proved = True
        try:
            self._descend(state, {}, 0)
        except _Stopped:
            proved = False
        return Optimum(self.best, proved, self.root_bound, self.nodes)

    # -- the bound
    def _adjusted(self, multipliers: Multipliers, s: int, w: int) -> float:
        code = self.network.indexes[s].code(w)
        value = float(self.network.indexes[s].scores[w])
        for i, c, sign, _, _ in self.crossings[s]:
            value += sign * multipliers.get((c, code[i]), 0.0)
        return value

    def _evaluate(self, domains: list[int], multipliers: Multipliers) -> tuple[float, list[int], list[float]]:
        total, args, maxes = 0.0, [], []
        for s, domain in enumerate(domains):
            self._check_time()  # a slot of a large list takes milliseconds here
            best, arg = -math.inf, -1
            for w in WordIndex.iter_ids(domain):
                value = self._adjusted(multipliers, s, w)
                if value > best:
                    best, arg = value, w
            total += best
            args.append(arg)
            maxes.append(best)
        return total, args, maxes

    def _step(
        self, multipliers: Multipliers, args: list[int], total: float, target: float, scale: float
    ) -> Multipliers | None:
        indexes = self.network.indexes
        moves = []
        for s, crossings in enumerate(self.crossings):
            for i, c, _, t, j in crossings:
                mine, theirs = indexes[s].code(args[s])[i], indexes[t].code(args[t])[j]
                if s < t and mine != theirs:
                    moves.append((c, mine, theirs))
        if not moves:
            return None
        size = scale * (total - target) / (2.0 * len(moves))
        moved = dict(multipliers)
        for c, mine, theirs in moves:
            moved[c, mine] = moved.get((c, mine), 0.0) - size
            moved[c, theirs] = moved.get((c, theirs), 0.0) + size
        return moved

    def _bound_and_filter(
        self, state: State, multipliers: Multipliers, steps: int
    ) -> tuple[Multipliers, list[int]] | None:
        """The lowest bound's multipliers and words, or None when the node is pruned."""
        while True:
            target = self.best_total + 1.0 - BOUND_MARGIN
            total, args, maxes = self._evaluate(state.domains, multipliers)
            if steps > 0 and total >= target:
                current, walk_args, walked, scale, stalled = multipliers, args, total, STEP_SCALE, 0
                for _ in range(steps):
                    if total < target:
                        break
                    moved = self._step(current, walk_args, walked, target, scale)
                    if moved is None:
                        break
                    current = moved
                    walked, walk_args, walk_maxes = self._evaluate(state.domains, current)
                    if walked < total:
                        total, multipliers, args, maxes, stalled = walked, current, walk_args, walk_maxes, 0
                    else:
                        stalled += 1
                        if stalled >= STALL_STEPS:
                            scale, stalled = scale * 0.5, 0
            if self.nodes == 1:
                self.root_bound = total
            if total < target:
                return None
            slack = total - target
            changed = []
            for s, domain in enumerate(state.domains):
                if not domain & (domain - 1):
                    continue
                floor = maxes[s] - slack - BOUND_MARGIN
                kept = domain
                for w in WordIndex.iter_ids(domain):
                    if self._adjusted(multipliers, s, w) < floor:
                        kept &= ~(1 << w)
                if kept != domain:
                    state.domains[s] = kept
                    changed.append(s)
            if not changed:
                return multipliers, args
            if self.network.propagate(state, changed) is not None:
                return None

    # -- the search
    def _check_time(self) -> None:
        if self.budget is not None and self.nodes > self.budget:
            raise _Stopped
        if self.stop is not None and self.stop.is_set():
            raise _Stopped
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stopped

    def _descend(self, state: State, multipliers: Multipliers, depth: int) -> None:
        network = self.network
        while True:
            if self.budget is not None and self.nodes >= self.budget:
                raise _Stopped
            self._check_time()
            self.nodes += 1
            if self.progress is not None:
                self.progress(self.nodes)
            kept = self._bound_and_filter(state, multipliers, ROOT_STEPS if depth == 0 else NODE_STEPS)
            if kept is None:
                return
            multipliers, args = kept
            cell = self._disagreement(state, args)
            if cell is None:
                s = self._repeated(state, args)
                if s is None:  # the bound's words are a fill: the best here
                    total = self.problem.total_score(args)
                    if total > self.best_total:
                        self.best_total, self.best = total, list(args)
                    return
                child = state.copy()
                child.domains[s] = 1 << args[s]
                if network.propagate(child, [s]) is None:
                    self._descend(child, multipliers, depth + 1)
                state.domains[s] &= ~(1 << args[s])
                if network.propagate(state, [s]) is not None:
                    return
                continue
            s, i, t, j = cell
            glyph = network.indexes[s].code(args[s])[i]
            child = state.copy()
            child.domains[s] &= network.bits[s][i][glyph]
            child.domains[t] &= network.bits[t][j][glyph]
            if child.domains[s] and child.domains[t] and network.propagate(child, [s, t]) is None:
                self._descend(child, multipliers, depth + 1)
            state.domains[s] &= ~network.bits[s][i][glyph]
            state.domains[t] &= ~network.bits[t][j][glyph]
            if not state.domains[s] or not state.domains[t] or network.propagate(state, [s, t]) is not None:
                return

    def _disagreement(self, state: State, args: list[int]) -> tuple[int, int, int, int] | None:
        """The crossing (slot, position, other slot, its position) where the bound's words
        disagree with the fewest glyphs left; None when they agree everywhere."""
        indexes = self.network.indexes
        chosen, fewest = None, 0
        for s, crossings in enumerate(self.crossings):
            for i, c, _, t, j in crossings:
                if s > t or indexes[s].code(args[s])[i] == indexes[t].code(args[t])[j]:
                    continue
                glyphs = state.masks[c].bit_count()
                if chosen is None or glyphs < fewest:
                    chosen, fewest = (s, i, t, j), glyphs
        return chosen

    def _repeated(self, state: State, args: list[int]) -> int | None:
        """A slot still open whose bound word the rules forbid with the others' (a repeat first,
        as the compiled core looks for one; then a use limit or a shared run), or None when the
        words are a fill."""
        network = self.network
        if not network.allow_duplicates and network.uses is None:
            for s, domain in enumerate(state.domains):
                if domain & (domain - 1) and any(args[u] == args[s] for u in network.same_length[s] if u != s):
                    return s
            if network.run_masks is None:
                return None
        trial = state.copy()
        for s, w in enumerate(args):
            trial.domains[s] = 1 << w
        if network.propagate(trial, range(len(args))) is None:
            return None
        return next(s for s, domain in enumerate(state.domains) if domain & (domain - 1))
