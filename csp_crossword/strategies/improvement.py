"""Improve a finished fill in the time left: re-fill the neighbourhood of its weakest entries.

A large-neighbourhood search (Shaw, "Using constraint programming and local search methods to
solve vehicle routing problems", CP 1998) on the crossword: take the weakest entry, free its cells
and the cells of every entry crossing it, keep every other cell's glyph, and search that
neighbourhood exhaustively (branch and bound, best score first) for the entries with the highest
total score. The new entries replace the old ones only when their total is higher and none of
them scores below the weakest entry they replace, so the fill's weakest entry never gets worse.
Each entry is tried in turn, weakest first; a round that changes something starts another.

:func:`raise_floor` comes first: it re-fills the neighbourhood of each entry scored below a target
with every touched entry at or above the target (or, for an entry already below it, at least its
own score), so entries below the target only ever leave the fill (the floor first, then the mean).

The search works on the problem's own domains and arc consistency (:mod:`.propagation`), so the
repeat rule, shared-run rule, minimum score, bans and given glyphs hold as in every fill; the
result is still checked by the independent verifier (:mod:`.verify`) before anyone sees it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..words.word_index import WordIndex

if TYPE_CHECKING:
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem
    from ..search.state import State

#: Search nodes spent on one neighbourhood before its best so far is taken (a neighbourhood is
#: tens of slots, most down to a handful of words once the rest of the grid is fixed).
NEIGHBOURHOOD_NODES = 400
#: How far :func:`raise_floor` frees the grid around a weak entry: 1 its crossing slots, 2 theirs
#: too when that is not enough (tens of slots, within one neighbourhood's NEIGHBOURHOOD_NODES).
RAISE_RADIUS = 2


@dataclass
class Improvement:
    """What an improvement run did: its word ids per slot, and how much it changed."""

    words: list[int]
    replaced: int = 0
    nodes: int = 0


def improve_fill(
    problem: FillProblem,
    words: list[int],
    deadline: Deadline,
    stop: StopSignal | None = None,
    *,
    node_budget: int | None = None,
    native: bool = True,
    bands: Sequence[int] = (),
    progress: Callable[[int], None] | None = None,
) -> Improvement:
    """Raise the total score of a complete fill (``words``: word id per slot) until
    ``node_budget`` search nodes are spent, until ``deadline`` (a ``time.monotonic()`` value, or
    None), until ``stop`` is set, or until no neighbourhood improves (see the module docstring).
    Without the deadline or the stop cutting it short, the outcome depends on the inputs alone.
    ``native`` False keeps every neighbourhood's search in Python (the reference). ``bands``:
    scores an entry at or above may not fall below (the quality fill's floors), so a re-fill never
    adds an entry below any of them. ``progress`` hears the run's nodes after every neighbourhood
    (with the shared-run rule the Python search takes seconds over a 15x15)."""
    outcome = Improvement(list(words))
    network = problem.network
    budget = _Budget(deadline, node_budget, progress)
    packed = network.packed() if native else None
    fill = _CurrentFill(problem, outcome.words, packed)
    core = packed.search(problem.root_state()) if packed is not None else None  # one for every neighbourhood
    changed = True
    while changed and not budget.spent(outcome.nodes):
        changed = False
        order = sorted(range(len(words)), key=lambda s: (_score(problem, s, outcome.words[s]), s))
        for s in order:
            if budget.spent(outcome.nodes) or (stop is not None and stop.is_set()):
                break
            free = {cell for t in [s, *(t for t, *_ in network.neighbours[s])] for cell in network.slots[t].cells}
            better = _refill(
                problem, outcome, fill, free, budget, core, _band_floors(problem, outcome.words, free, bands)
            )
            if better is not None:
                outcome.replaced += sum(1 for t, w in better.items() if outcome.words[t] != w)
                for t, w in better.items():
                    outcome.words[t] = w
                fill.replace(better)
                changed = True
            budget.tick(outcome.nodes)
    return outcome


def _band_floors(
    problem: FillProblem, words: list[int], free: set[tuple[int, int]], bands: Sequence[int]
) -> dict[int, int]:
    """Per slot touching the ``free`` cells, the lowest score its new word may have: the lowest
    of the touched entries (so the fill's weakest entry never gets worse), or the highest of
    ``bands`` at or below its own entry's score when that is higher."""
    touched = [t for t, slot in enumerate(problem.network.slots) if any(cell in free for cell in slot.cells)]
    lowest = min(_score(problem, t, words[t]) for t in touched)
    return {t: max([lowest] + [b for b in bands if b <= _score(problem, t, words[t])]) for t in touched}


def raise_floor(
    problem: FillProblem,
    words: list[int],
    target: int,
    deadline: Deadline,
    stop: StopSignal | None = None,
    *,
    node_budget: int | None = None,
    native: bool = True,
    among: Collection[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Improvement:
    """Lift the entries of a complete fill (``words``) scored below ``target`` to ``target`` or
    more (only those of the slots ``among``, when given), weakest first, each by re-filling its
    neighbourhood (the slot and the slots crossing it, then theirs: :data:`RAISE_RADIUS`) with the
    highest total in which the entry scores ``target`` or more, every other touched entry at or
    above ``target`` stays so and one below it gets no worse: no entry ever falls below
    ``target``, or below its own score when it was under it. One pass, within ``node_budget``
    nodes, ``deadline`` and ``stop``; the entries it could not lift stay. ``progress`` as for
    :func:`improve_fill`."""
    outcome = Improvement(list(words))
    network = problem.network
    budget = _Budget(deadline, node_budget, progress)
    packed = network.packed() if native else None
    fill = _CurrentFill(problem, outcome.words, packed)
    core = None
    weak = sorted(
        (s for s in (range(len(words)) if among is None else among) if _score(problem, s, words[s]) < target),
        key=lambda s: (_score(problem, s, words[s]), s),
    )
    for s in weak:
        if budget.spent(outcome.nodes) or (stop is not None and stop.is_set()):
            break
        if _score(problem, s, outcome.words[s]) >= target:
            continue  # an earlier re-fill lifted it
        if packed is not None and core is None:
            core = packed.search(problem.root_state())
        around = {s}
        for _ in range(RAISE_RADIUS):  # the slot, then the slots crossing it, then theirs
            if budget.spent(outcome.nodes):
                break
            around |= {t for u in around for t, *_ in network.neighbours[u]}
            free = {cell for t in around for cell in network.slots[t].cells}
            floors = {
                t: target if t == s else min(target, _score(problem, t, outcome.words[t]))
                for t, slot in enumerate(network.slots)
                if any(cell in free for cell in slot.cells)
            }
            better = _refill(problem, outcome, fill, free, budget, core, floors, must_beat=False)
            if better is not None:
                outcome.replaced += sum(1 for t, w in better.items() if outcome.words[t] != w)
                for t, w in better.items():
                    outcome.words[t] = w
                fill.replace(better)
                break
        budget.tick(outcome.nodes)
    return outcome


class _CurrentFill:
    """The fill being improved, kept ready for the next neighbourhood: the glyph of every cell and,
    for the compiled core, every slot's packed row holding its one word (so a neighbourhood
    rewrites only its own slots' rows)."""

    def __init__(self, problem: FillProblem, words: list[int], packed: Any):
        self.network = problem.network
        self.glyph_at: dict[tuple[int, int], str] = {}
        self.packed = packed
        self.rows: Any = None if packed is None else packed.rows_of([1 << w for w in words])
        self.replace(dict(enumerate(words)))

    def replace(self, words: dict[int, int]) -> None:
        network = self.network
        for t, w in words.items():
            for cell, g in zip(network.slots[t].cells, network.indexes[t].code(w), strict=True):
                self.glyph_at[cell] = network.lexicon_glyphs[g]
            if self.packed is not None:
                self.packed.write_row(self.rows, t, 1 << w)


def _score(problem: FillProblem, s: int, word: int) -> int:
    return problem.network.indexes[s].scores[word]


class _Budget:
    """The deadline (monotonic seconds, or None) and the node budget (or None) of one run, and
    its progress callback (None: nobody listens), told the run's nodes so far."""

    def __init__(self, deadline: Deadline, nodes: int | None, progress: Callable[[int], None] | None = None):
        self.deadline = deadline
        self.nodes = nodes
        self.progress = progress

    def tick(self, nodes: int) -> None:
        if self.progress is not None:
            self.progress(nodes)

    def spent(self, nodes: int) -> bool:
        if self.nodes is not None and nodes >= self.nodes:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline


def _refill(
    problem: FillProblem,
    outcome: Improvement,
    fill: _CurrentFill,
    free: set[tuple[int, int]],
    budget: _Budget,
    core: Any,
    floors: dict[int, int],
    *,
    must_beat: bool = True,
) -> dict[int, int] | None:
    """The best re-fill of the slots touching the ``free`` cells in which each touched slot's word
    scores at least its ``floors`` value, or None when none beats the current entries' total
    (with ``must_beat`` False: when there is none). With ``core`` (the compiled core's ``Search``
    of this problem) the branch and bound runs there: the same search as
    :class:`_BranchAndBound`, the reference."""
    network = problem.network
    words = outcome.words
    touched = [t for t, slot in enumerate(network.slots) if any(cell in free for cell in slot.cells)]
    # scores are 0 or more: -1 lets any re-fill that keeps the floors count as better
    current = sum(_score(problem, t, words[t]) for t in touched) if must_beat else -1
    freed: dict[int, int] = {}
    for t in touched:
        index = network.indexes[t]
        pattern = [None if cell in free else fill.glyph_at[cell] for cell in network.slots[t].cells]
        at_floor = (1 << index.count_at_least(floors[t])) - 1
        freed[t] = index.match(pattern) & problem.domains[t] & at_floor
    if core is not None:  # the compiled core propagates, then searches
        import numpy as np

        rows = fill.rows.copy()
        for t, domain in freed.items():
            fill.packed.write_row(rows, t, domain)
        node_budget = -1 if budget.nodes is None else budget.nodes
        deadline = math.inf if budget.deadline is None else budget.deadline
        nodes, best = core.improve(
            rows,
            np.array(touched, dtype=np.int64),
            current,
            NEIGHBOURHOOD_NODES,
            outcome.nodes,
            node_budget,
            deadline,
        )
        outcome.nodes += nodes
        return None if best is None else dict(zip(touched, best, strict=True))
    domains = [1 << w for w in words]
    for t, domain in freed.items():
        domains[t] = domain
    state = network.initial_state(domains)
    if network.propagate(state, range(len(domains))) is not None:
        return None
    search = _BranchAndBound(problem, touched, current, budget, outcome.nodes)
    search.run(state)
    outcome.nodes += search.nodes
    if search.best is None:
        return None
    return {t: search.best[t].bit_length() - 1 for t in touched}


class _BranchAndBound:
    """Depth-first search of one neighbourhood for the highest total score above ``to_beat``."""

    def __init__(self, problem: FillProblem, touched: list[int], to_beat: int, budget: _Budget, spent: int):
        self.network = problem.network
        self.touched = touched
        self.best_total = to_beat
        self.best: list[int] | None = None
        self.budget = budget
        self.spent = spent  # nodes of the run before this neighbourhood
        self.nodes = 0

    def bound(self, domains: list[int]) -> int:
        """The total if every touched slot got its best word left (word ids are best first)."""
        indexes = self.network.indexes
        return sum(indexes[t].scores[(domains[t] & -domains[t]).bit_length() - 1] for t in self.touched)

    def run(self, state: State) -> None:
        domains = state.domains
        total = self.bound(domains)
        if total <= self.best_total:
            return
        open_slots = [t for t in self.touched if domains[t] & (domains[t] - 1)]
        if not open_slots:
            self.best_total = total
            self.best = domains[:]
            return
        t = min(open_slots, key=lambda u: domains[u].bit_count())
        scores = self.network.indexes[t].scores
        others = total - scores[(domains[t] & -domains[t]).bit_length() - 1]
        for w in WordIndex.iter_ids(domains[t]):
            if others + scores[w] <= self.best_total:
                return  # words come best first: no later one can do better
            self.nodes += 1
            self.budget.tick(self.spent + self.nodes)  # one neighbourhood may take seconds here
            if self.nodes > NEIGHBOURHOOD_NODES or self.budget.spent(self.spent + self.nodes):
                return
            child = state.copy()
            child.domains[t] = 1 << w
            if self.network.propagate(child, [t]) is None:
                self.run(child)
