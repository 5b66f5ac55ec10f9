"""Raise a large grid's total score: re-fill neighbourhoods with the proof search.

The improvement pass (:mod:`.improvement`) keeps a fill's weakest entry from getting worse and
caps each neighbourhood's search; once it stops, a 15x15 is at a local optimum that neither it
nor CP-SAT leaves in a minute. Here each neighbourhood (a slot and the slots crossing it: their
cells are freed, every other cell keeps its glyph) goes to the proof search of :mod:`.optimum`
with :data:`NEIGHBOURHOOD_NODES` nodes, for the highest total of the whole fill: its Lagrangian
bound prunes most re-fills at once, and a neighbourhood it finishes is one no re-fill improves.
Slots are taken weakest entry first; a round that changes something starts another.

Budgets are counted in nodes, so the outcome depends on the inputs alone unless the deadline or
the stop signal cuts it short. Every fill is still checked by the independent verifier.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .optimum import ProofSearch

if TYPE_CHECKING:
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem

#: Proof-search nodes one neighbourhood may take (most finish in tens; measured on the American
#: patterns with the built-in list, a neighbourhood that improves the fill does so within 250).
NEIGHBOURHOOD_NODES = 300


@dataclass
class Refill:
    """What a re-fill run did: its word ids per slot, the entries it changed, its nodes, and
    whether Ctrl-C ended it."""

    words: list[int]
    replaced: int = 0
    nodes: int = 0
    interrupted: bool = False


def refill_neighbourhoods(
    problem: FillProblem,
    words: list[int],
    deadline: Deadline,
    stop: StopSignal | None = None,
    *,
    node_budget: int | None = None,
    native: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Refill:
    """Raise the total score of a complete fill (``words``: word id per slot) until ``deadline``,
    ``stop``, ``node_budget`` nodes, or a round over every slot changes nothing (module
    docstring). ``progress`` is called now and then with the run's nodes so far."""
    network = problem.network
    outcome = Refill(list(words))
    search = ProofSearch(problem, native=native)
    changed = True
    while changed:
        changed = False
        order = sorted(range(len(words)), key=lambda s: (network.indexes[s].scores[outcome.words[s]], s))
        for s in order:
            left = NEIGHBOURHOOD_NODES if node_budget is None else min(NEIGHBOURHOOD_NODES, node_budget - outcome.nodes)
            if _over(deadline, stop) or left <= 0:
                return outcome
            try:
                found = search.run(
                    problem.total_score(outcome.words),
                    deadline,
                    stop,
                    domains=_freed(problem, outcome.words, s),
                    node_budget=left,
                    progress=None if progress is None else _after(progress, outcome.nodes),
                )
            except KeyboardInterrupt:  # the best fill so far goes back
                outcome.interrupted = True
                return outcome
            outcome.nodes += found.nodes
            if progress is not None:
                progress(outcome.nodes)
            if found.words is not None:
                outcome.replaced += sum(1 for a, b in zip(outcome.words, found.words, strict=True) if a != b)
                outcome.words = list(found.words)
                changed = True
    return outcome


def _freed(problem: FillProblem, words: list[int], s: int) -> list[int]:
    """Domains with the cells of slot ``s`` and of the slots crossing it free: every slot touching
    them keeps its words that match the glyphs left, every other slot its word."""
    network = problem.network
    free = {cell for t in [s, *(t for t, *_ in network.neighbours[s])] for cell in network.slots[t].cells}
    glyph_at = {}
    for t, w in enumerate(words):
        for cell, g in zip(network.slots[t].cells, network.indexes[t].code(w), strict=True):
            glyph_at[cell] = network.lexicon_glyphs[g]
    domains = []
    for t, slot in enumerate(network.slots):
        if any(cell in free for cell in slot.cells):
            pattern = [None if cell in free else glyph_at[cell] for cell in slot.cells]
            domains.append(network.indexes[t].match(pattern) & problem.domains[t])
        else:
            domains.append(1 << words[t])
    return domains


def _after(progress: Callable[[int], None], spent: int) -> Callable[[int], None]:
    """``progress`` for one neighbourhood's search, after ``spent`` nodes of the run."""
    return lambda nodes: progress(spent + nodes)


def _over(deadline: Deadline, stop: StopSignal | None) -> bool:
    return (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline)
