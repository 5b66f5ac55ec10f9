"""Improve a finished fill in the time left: re-fill the neighbourhood of its weakest entries.

A large-neighbourhood search (Shaw, "Using constraint programming and local search methods to
solve vehicle routing problems", CP 1998) on the crossword: take the weakest entry, free its cells
and the cells of every entry crossing it, keep every other cell's glyph, and search that
neighbourhood exhaustively (branch and bound, best score first) for the entries with the highest
total score. The new entries replace the old ones only when their total is higher and none of
them scores below the weakest entry they replace, so the fill's weakest entry never gets worse.
Each entry is tried in turn, weakest first; a round that changes something starts another.

The search works on the problem's own domains and arc consistency (:mod:`.propagation`), so the
repeat rule, shared-run rule, minimum score, bans and given glyphs hold as in every fill; the
result is still checked by the independent verifier (:mod:`.verify`) before anyone sees it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..words.word_index import WordIndex

if TYPE_CHECKING:
    from ..core.deadline import StopSignal
    from ..search.problem import FillProblem
    from ..search.state import State

#: Search nodes spent on one neighbourhood before its best so far is taken (a neighbourhood is
#: tens of slots, most down to a handful of words once the rest of the grid is fixed).
NEIGHBOURHOOD_NODES = 400


@dataclass
class Improvement:
    """What an improvement run did: its word ids per slot, and how much it changed."""

    words: list[int]
    replaced: int = 0
    nodes: int = 0


def improve_fill(
    problem: FillProblem, words: list[int], deadline: float, stop: StopSignal | None = None
) -> Improvement:
    """Raise the total score of a complete fill (``words``: word id per slot) until ``deadline``
    (a ``time.monotonic()`` value), until ``stop`` is set, or until no neighbourhood improves
    (see the module docstring)."""
    outcome = Improvement(list(words))
    network = problem.network
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        order = sorted(range(len(words)), key=lambda s: (_score(problem, s, outcome.words[s]), s))
        for s in order:
            if time.monotonic() >= deadline or (stop is not None and stop.is_set()):
                break
            free = {cell for t in [s, *(t for t, *_ in network.neighbours[s])] for cell in network.slots[t].cells}
            better = _refill(problem, outcome, free, deadline)
            if better is not None:
                outcome.replaced += sum(1 for t, w in better.items() if outcome.words[t] != w)
                for t, w in better.items():
                    outcome.words[t] = w
                changed = True
    return outcome


def _score(problem: FillProblem, s: int, word: int) -> int:
    return problem.network.indexes[s].scores[word]


def _refill(
    problem: FillProblem, outcome: Improvement, free: set[tuple[int, int]], deadline: float
) -> dict[int, int] | None:
    """The best re-fill of the slots touching the ``free`` cells, or None when none beats the
    current entries."""
    network = problem.network
    words = outcome.words
    glyph_at: dict[tuple[int, int], str] = {}
    for t, slot in enumerate(network.slots):
        code = network.indexes[t].code(words[t])
        for cell, g in zip(slot.cells, code, strict=True):
            glyph_at[cell] = network.lexicon_glyphs[g]
    touched = [t for t, slot in enumerate(network.slots) if any(cell in free for cell in slot.cells)]
    floor = min(_score(problem, t, words[t]) for t in touched)
    current = sum(_score(problem, t, words[t]) for t in touched)
    domains = [1 << w for w in words]
    for t in touched:
        index = network.indexes[t]
        pattern = [None if cell in free else glyph_at[cell] for cell in network.slots[t].cells]
        at_floor = (1 << index.count_at_least(floor)) - 1
        domains[t] = index.match(pattern) & problem.domains[t] & at_floor
    state = network.initial_state(domains)
    if network.propagate(state, range(len(domains))) is not None:
        return None
    search = _BranchAndBound(problem, touched, current, deadline)
    search.run(state)
    outcome.nodes += search.nodes
    if search.best is None:
        return None
    return {t: search.best[t].bit_length() - 1 for t in touched}


class _BranchAndBound:
    """Depth-first search of one neighbourhood for the highest total score above ``to_beat``."""

    def __init__(self, problem: FillProblem, touched: list[int], to_beat: int, deadline: float):
        self.network = problem.network
        self.touched = touched
        self.best_total = to_beat
        self.best: list[int] | None = None
        self.deadline = deadline
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
            if self.nodes > NEIGHBOURHOOD_NODES or time.monotonic() >= self.deadline:
                return
            child = state.copy()
            child.domains[t] = 1 << w
            if self.network.propagate(child, [t]) is None:
                self.run(child)
