"""Arc consistency on bitset domains: the propagation shared by every backend.

State: one domain per slot (a bitset over the word ids of the slot's :class:`WordIndex`) and one
glyph mask per crossing cell (a bitset over glyph ids). Invariant after :func:`Network.propagate`:
every word left in a slot has, at each crossing, a glyph allowed in that cell, and every glyph
allowed in a cell is used by some word of both slots that cross there (arc consistency of the
crossing constraints). When repeats are forbidden, a slot down to one word removes that word from
every other slot of the same length, including slots completed only by their crossings; with
``max_shared_run`` N, it also removes from every other slot the words sharing a run of N glyphs
with it (:mod:`csp_crossword.ngrams`).

References: Mackworth, "Consistency in networks of relations" (AC-3), 1977; Sabin & Freuder,
"Contradicting conventional wisdom in constraint satisfaction" (MAC), 1994; the per-(position,
glyph) bitsets follow Crosshare's word index.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .grid import Grid, Slot
from .lexicon import Lexicon, WordIndex
from .ngrams import RunMasks
from .propagation_kernel import MAX_GLYPHS, CompiledNetwork, kernel, kernel_wanted, note_python_seconds

#: Below this many words, a slot's glyph supports are read from the words themselves instead of
#: testing one bitset per glyph (cheaper when the domain is tiny and the alphabet is not).
SMALL_DOMAIN = 12
#: When a slot lost at most this many words since its crossings were last revised, only the
#: glyphs of those words are re-tested (a refuted word costs one test per crossing instead of
#: one per glyph); a larger loss revises every glyph of each crossing.
SMALL_REMOVAL = 8
#: ``State.seen`` of a slot never revised: its crossings are revised in full.
NEVER_REVISED = -1


@dataclass
class Failure:
    """Why propagation failed: ``slot`` lost its last word, because of ``cause``.

    ``cause`` is the slot whose change emptied it (a crossing neighbour), the slot itself for a
    repeat conflict, or None when it was empty from the start. ``shared_run`` is True when the
    last words were removed because they share a run of glyphs with ``cause``'s entry.
    """

    slot: int
    cause: int | None
    shared_run: bool = False


class State:
    """Mutable search state: slot domains, crossing-cell glyph masks, settled (singleton) flags,
    and per slot the domain its crossings were last revised against (``seen``: every glyph of a
    crossing mask is supported by it, so a later revision only has to look at the words lost
    since)."""

    __slots__ = ("domains", "masks", "packed", "packed_from", "seen", "settled")

    def __init__(self, domains: list[int], masks: list[int], settled: list[bool], seen: list[int] | None = None):
        self.domains = domains
        self.masks = masks
        self.settled = settled
        self.seen = [NEVER_REVISED] * len(domains) if seen is None else seen
        # The compiled loop's copy of the domains (propagation_kernel.CompiledNetwork.sync) and,
        # per slot, the int object its row was made from.
        self.packed: Any = None
        self.packed_from: list[int | None] | None = None

    def copy(self) -> State:
        state = State(self.domains[:], self.masks[:], self.settled[:], self.seen[:])
        if self.packed is not None and self.packed_from is not None:
            state.packed = self.packed.copy()
            state.packed_from = self.packed_from[:]
        return state


class Network:
    """The crossword CSP compiled to flat lists for fast propagation.

    Slots are numbered in ``grid.slots`` order (or the order of ``slots``, a subset of the grid's
    slots whose constraints alone are kept: used to find a small unsatisfiable core).
    ``neighbours[s]`` lists ``(t, i, j, c)``: slot ``s`` position ``i`` crosses slot ``t``
    position ``j`` in crossing cell ``c``.
    """

    def __init__(
        self,
        grid: Grid,
        lexicon: Lexicon,
        allow_duplicates: bool = False,
        slots: Sequence[Slot] | None = None,
        uses: dict[str, int] | None = None,
        max_shared_run: int | None = None,
        *,
        jit: bool = True,
    ):
        """``jit=False`` keeps the pure-Python loop even when the compiled one could serve."""
        self.grid = grid
        self.lexicon = lexicon
        # With ``uses`` (entry -> how many times it may appear; fill-in puzzles) repeats are
        # limited per word instead of forbidden.
        self.allow_duplicates = allow_duplicates and uses is None
        self.uses = uses
        self.slots = grid.slots if slots is None else tuple(slots)
        self.slot_number = {slot.id: s for s, slot in enumerate(self.slots)}
        self.indexes: list[WordIndex] = [lexicon.index(slot.length) for slot in self.slots]
        self.bits = [index.bits for index in self.indexes]
        # Per slot and position, the (glyph bit, word bitset) pairs of the glyphs that occur
        # there: the support test walks this short list instead of every glyph of the mask.
        self.columns = [
            [[(1 << g, column) for g, column in enumerate(position) if column] for position in bits]
            for bits in self.bits
        ]
        cell_ids: dict[tuple[int, int], int] = {}
        self.neighbours: list[list[tuple[int, int, int, int]]] = [[] for _ in self.slots]
        for crossing in grid.crossings:
            if crossing.across not in self.slot_number or crossing.down not in self.slot_number:
                continue
            c = cell_ids.setdefault(crossing.cell, len(cell_ids))
            a, d = self.slot_number[crossing.across], self.slot_number[crossing.down]
            self.neighbours[a].append((d, crossing.across_pos, crossing.down_pos, c))
            self.neighbours[d].append((a, crossing.down_pos, crossing.across_pos, c))
        self.cell_ids = cell_ids
        by_length: dict[int, list[int]] = {}
        for s, slot in enumerate(self.slots):
            by_length.setdefault(slot.length, []).append(s)
        self.same_length = [[u for u in by_length[slot.length] if u != s] for s, slot in enumerate(self.slots)]
        self.limits: list[dict[int, int]] | None = None
        if uses is not None:
            self.limits = [
                {index.position[w]: n for w, n in uses.items() if w in index.position and n > 1}
                for index in self.indexes
            ]
        # ``max_shared_run`` N: no two entries share a run of N glyphs.
        self.run_masks = None if max_shared_run is None else RunMasks(self.indexes, max_shared_run)
        self.all_glyphs = (1 << len(lexicon.alphabet)) - 1
        self.lexicon_glyphs = sorted(lexicon.alphabet, key=lexicon.alphabet.__getitem__)
        # The compiled loop, made on the first propagation (None: not yet; False: not used).
        self._compiled: CompiledNetwork | bool | None = None if jit else False

    def load_compiled(self, state: State) -> None:
        """Load the compiled loop now, warm-up or not (one empty call on ``state`` loads its
        machine code): for searches timed in stages, whose first stage should not pay for it."""
        if self._compiled is None:
            self._compiled = self._make_compiled()
        if isinstance(self._compiled, CompiledNetwork):
            self.propagate(state.copy(), [])

    def compiled(self) -> CompiledNetwork | None:
        """The compiled propagation loop, when numba is there and the network's rules are ones
        it knows (no per-word use limits, no shared-run rule, at most MAX_GLYPHS glyphs); not
        before the process has spent ``propagation_kernel.WARMUP_SECONDS`` in the Python loop."""
        if self._compiled is None:
            if not self._kernel_rules():
                self._compiled = False
            elif kernel_wanted():
                self._compiled = self._make_compiled()
        return self._compiled if isinstance(self._compiled, CompiledNetwork) else None

    def _kernel_rules(self) -> bool:
        return self.limits is None and self.run_masks is None and len(self.lexicon.alphabet) <= MAX_GLYPHS

    def _make_compiled(self) -> CompiledNetwork | bool:
        function = kernel() if self._kernel_rules() else None
        return CompiledNetwork(self, function) if function is not None else False

    def initial_state(self, domains: list[int]) -> State:
        return State(list(domains), [self.all_glyphs] * len(self.cell_ids), [False] * len(self.slots))

    def supports(self, s: int, domain: int, pos: int, mask: int) -> int:
        """The glyphs of ``mask`` that some word of ``domain`` has at position ``pos`` of slot s."""
        if domain.bit_count() <= SMALL_DOMAIN:
            index = self.indexes[s]
            found = 0
            for w in WordIndex.iter_ids(domain):
                found |= 1 << index.code(w)[pos]
            return found & mask
        found = 0
        for bit, column in self.columns[s][pos]:
            if mask & bit and domain & column:
                found |= bit
        return found

    def _glyphs_of(self, s: int, words: int) -> list[int]:
        """Per position of slot s, the glyph bitset of the words of ``words``."""
        index = self.indexes[s]
        found = [0] * self.slots[s].length
        for w in WordIndex.iter_ids(words):
            for i, g in enumerate(index.code(w)):
                found[i] |= 1 << g
        return found

    def words_with(self, t: int, pos: int, glyphs: int) -> int:
        """Bitset of slot t's words having one of ``glyphs`` at position ``pos``."""
        column = self.bits[t][pos]
        union = 0
        while glyphs:
            low = glyphs & -glyphs
            glyphs ^= low
            union |= column[low.bit_length() - 1]
        return union

    def propagate(self, state: State, changed: Iterable[int]) -> Failure | None:
        """Restore arc consistency after the domains of the slots in ``changed`` shrank.

        Returns None when every domain is non-empty, else the :class:`Failure`. ``state`` is
        modified in place (callers copy it first when they need to undo).
        """
        compiled = self.compiled()
        if compiled is not None:
            slot, cause = compiled.propagate(state, list(changed))
            return None if slot < 0 else Failure(slot, cause if cause >= 0 else None)
        if self._compiled is None:  # the compiled loop may take over: count the time
            started = time.perf_counter()
            try:
                return self._propagate_python(state, changed)
            finally:
                note_python_seconds(time.perf_counter() - started)
        return self._propagate_python(state, changed)

    def _propagate_python(self, state: State, changed: Iterable[int]) -> Failure | None:
        """The reference loop (see :meth:`propagate`)."""
        domains, masks, settled, seen = state.domains, state.masks, state.settled, state.seen
        queue = deque(dict.fromkeys(changed))
        queued = set(queue)
        check_repeats = not self.allow_duplicates
        run_masks = self.run_masks
        settle = check_repeats or run_masks is not None
        while queue:
            s = queue.popleft()
            queued.discard(s)
            domain = domains[s]
            if not domain:
                return Failure(s, None)
            if settle and not settled[s] and domain & (domain - 1) == 0:
                settled[s] = True
                if run_masks is not None:
                    failure = self._remove_shared_runs(run_masks, domains, s, queue, queued)
                    if failure is not None:
                        return failure
                if check_repeats:
                    others = self.same_length[s]
                    if self.limits is not None:
                        limit = self.limits[s].get(domain.bit_length() - 1, 1)
                        if limit > 1:
                            used = 1 + sum(1 for u in others if settled[u] and domains[u] == domain)
                            if used > limit:
                                return Failure(s, s)
                            if used < limit:
                                others = []
                            else:
                                others = [u for u in others if not (settled[u] and domains[u] == domain)]
                    for u in others:
                        if domains[u] & domain:
                            domains[u] &= ~domain
                            if not domains[u]:
                                return Failure(u, s)
                            if u not in queued:
                                queue.append(u)
                                queued.add(u)
            previous = seen[s]
            seen[s] = domain
            lost: list[int] | None = None  # per position, the glyphs of the words lost since
            if previous != NEVER_REVISED:
                removed = previous & ~domain
                if not removed:
                    continue  # every crossing mask is still supported
                if removed.bit_count() <= SMALL_REMOVAL:
                    lost = self._glyphs_of(s, removed)
            for t, i, j, c in self.neighbours[s]:
                old = masks[c]
                if lost is None:
                    kept = self.supports(s, domain, i, old)
                else:
                    kept = old
                    doubtful = lost[i] & old
                    if not doubtful:
                        continue
                    column = self.bits[s][i]
                    while doubtful:
                        low = doubtful & -doubtful
                        doubtful ^= low
                        if not domain & column[low.bit_length() - 1]:
                            kept ^= low
                if kept == old:
                    continue
                if not kept:
                    return Failure(s, t)
                masks[c] = kept
                removed = old & ~kept
                before = domains[t]
                if removed.bit_count() <= kept.bit_count():
                    after = before & ~self.words_with(t, j, removed)
                else:
                    after = before & self.words_with(t, j, kept)
                if after != before:
                    domains[t] = after
                    if not after:
                        return Failure(t, s)
                    if t not in queued:
                        queue.append(t)
                        queued.add(t)
        return None

    def _remove_shared_runs(
        self, run_masks: RunMasks, domains: list[int], s: int, queue: deque[int], queued: set[int]
    ) -> Failure | None:
        """Slot s is down to one word: remove from every other slot the words that share a run
        of ``run_masks.n`` glyphs with it (a filled slot that does is a failure)."""
        index = self.indexes[s]
        word = domains[s].bit_length() - 1
        by_length: dict[int, int] = {}
        for u, slot in enumerate(self.slots):
            if u == s or not domains[u]:
                continue
            mask = by_length.get(slot.length)
            if mask is None:
                mask = by_length[slot.length] = run_masks.conflicts(index, word, slot.length)
            if domains[u] & mask:
                domains[u] &= ~mask
                if not domains[u]:
                    return Failure(u, s, shared_run=True)
                if u not in queued:
                    queue.append(u)
                    queued.add(u)
        return None
