"""What the ``ac`` search learns from its failures: dom/wdeg conflict weights and no-goods.

Both outlive a restart: the weights steer the variable order of the next run, the no-goods cut
the branches the previous runs refuted.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

from ..core.result import SearchStats
from ..search.propagation import Network
from ..search.state import Failure, State

#: Weights are divided by this when the decayed bump grows past it.
WEIGHT_RESCALE = 1e100
#: Longest no-good kept (decisions); longer ones rarely fire and cost a scan each time.
MAX_NOGOOD = 64
#: Literals kept over all no-goods: the store stops learning when the next no-good would pass it,
#: bounding its memory in a long run (some 32 bytes a literal in the compiled core, about 40 MB
#: here with its index) while the short runs of everyday fills never reach it.
NOGOOD_LITERALS = 500_000

#: A decision slot = word, as (slot number, word id).
Literal = tuple[int, int]
Nogood = tuple[Literal, ...]


class ConflictWeights:
    """dom/wdeg (Boussemart, Hemery, Lecoutre, Sais, "Boosting systematic search by weighting
    constraints", ECAI 2004): each crossing's weight grows every time propagating across it wipes
    a domain out; the next slot is the one with the fewest words per unit of weight on its
    crossings with unfilled slots.

    Args:
        neighbours: ``Network.neighbours``: per slot, (other slot, pos, other pos, cell) tuples.
        decay: Each failure bumps weights by 1/decay times the previous bump, so old conflicts
            count less (1.0: classic wdeg).
    """

    def __init__(self, neighbours: Sequence[Sequence[tuple[int, int, int, int]]], decay: float = 1.0):
        self.neighbours = neighbours
        self.decay = decay
        self.edge_weights: list[list[float]] = [[1.0] * len(nb) for nb in neighbours]
        self.edge_slot: dict[tuple[int, int], int] = {}
        for s, nb in enumerate(neighbours):
            for k, (t, *_rest) in enumerate(nb):
                self.edge_slot[(s, t)] = k
        self.slot_weights: list[float] = [0.0] * len(neighbours)
        self.bump = 1.0
        #: Per slot, the failures it took part in (wiped out or doing the wiping), undecayed:
        #: what the search blames, reported with a failed or unfinished search.
        self.conflicts: list[int] = [0] * len(neighbours)

    def record(self, failure: Failure) -> None:
        s, t = failure.slot, failure.cause
        bump = self.bump
        self.conflicts[s] += 1
        if t is not None and t != s:
            self.conflicts[t] += 1
        if t is None or (s, t) not in self.edge_slot:  # empty from the start, a repeat or a no-good
            self.slot_weights[s] += bump
            if t is not None and t != s:
                self.slot_weights[t] += bump
        else:
            self.edge_weights[s][self.edge_slot[(s, t)]] += bump
            self.edge_weights[t][self.edge_slot[(t, s)]] += bump
        if self.decay < 1.0:
            # Growing the bump instead of shrinking every weight: the same ratios, O(1) per
            # failure; everything is scaled down before floats overflow.
            self.bump = bump / self.decay
            if self.bump > WEIGHT_RESCALE:
                self.bump /= WEIGHT_RESCALE
                self.slot_weights = [w / WEIGHT_RESCALE for w in self.slot_weights]
                self.edge_weights = [[w / WEIGHT_RESCALE for w in row] for row in self.edge_weights]

    def select_slot(self, domains: list[int]) -> int | None:
        """The open slot with the least (words left) / (1 + weights); None when all are filled."""
        best, best_key = None, math.inf
        neighbours = self.neighbours
        for s in range(len(domains)):
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


class Decision(Protocol):
    """What the no-good store reads from a search frame."""

    state: State
    slot: int
    cell: int
    word: int
    refuted: list[int]


class NogoodStore:
    """Reduced nld-nogoods recorded at restarts (Lecoutre, Sais, Tabary, Vidal, "Nogood
    recording from restarts", IJCAI 2007), indexed by literal and propagated with arc
    consistency to a common fixpoint."""

    def __init__(self, stats: SearchStats, literal_limit: int = NOGOOD_LITERALS):
        self.stats = stats
        self.literal_limit = literal_limit
        self.literals = 0  # over all no-goods kept
        # (slot, word) -> the learned no-goods holding that literal.
        self.index: dict[Literal, list[Nogood]] = {}

    def __bool__(self) -> bool:
        return bool(self.index)

    def learn(self, stack: Sequence[Decision]) -> None:
        """For each word refuted at depth k of the branch a restart cut, the decisions above it
        plus that word cannot hold together. Depth 0 refutations already stay in the root
        state."""
        decisions: list[Literal] = []
        for frame in stack:
            if decisions and frame.cell < 0:
                for w in frame.refuted:
                    nogood = (*decisions, (frame.slot, w))
                    if len(nogood) > MAX_NOGOOD:
                        break
                    if self.literals + len(nogood) > self.literal_limit:
                        return  # the store is full: the search stays complete without more
                    self.literals += len(nogood)
                    for literal in nogood:
                        self.index.setdefault(literal, []).append(nogood)
                    self.stats.nogoods += 1
            if frame.cell < 0 and frame.word >= 0 and frame.state.domains[frame.slot] >> frame.word & 1:
                decisions.append((frame.slot, frame.word))
            else:
                break

    def propagate(self, net: Network, state: State, changed: Iterable[int]) -> Failure | None:
        """Arc consistency, then the no-goods, to a common fixpoint."""
        if not self.index:
            return net.propagate(state, changed)
        domains = state.domains
        n = len(domains)
        before = domains[:]
        failure = net.propagate(state, changed)
        while failure is None:
            removed = []
            for t in range(n):
                d = domains[t]
                if d & (d - 1) or before[t] == d:
                    continue  # not a newly filled slot
                for nogood in self.index.get((t, d.bit_length() - 1), ()):
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
            failure = net.propagate(state, removed)
        return failure
