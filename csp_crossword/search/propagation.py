"""Arc consistency on bitset domains: the propagation shared by every backend.

State: one domain per slot (a bitset over the word ids of the slot's :class:`WordIndex`) and one
glyph mask per crossing cell (a bitset over glyph ids). Invariant after :func:`Network.propagate`:
every word left in a slot has, at each crossing, a glyph allowed in that cell, and every glyph
allowed in a cell is used by some word of both slots that cross there (arc consistency of the
crossing constraints). When repeats are forbidden, a slot down to one word removes that word from
every other slot of the same length, including slots completed only by their crossings; with
``max_shared_run`` N, it also removes from every other slot the words sharing a run of N glyphs
with it (:mod:`csp_crossword.words.ngrams`).

References: Mackworth, "Consistency in networks of relations" (AC-3), 1977; Sabin & Freuder,
"Contradicting conventional wisdom in constraint satisfaction" (MAC), 1994; the per-(position,
glyph) bitsets follow Crosshare's word index.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable

import networkx as nx

from ..core.deadline import Deadline
from ..core.errors import BuildTimeout
from ..words.lexicon import Lexicon
from ..words.ngrams import RunMasks
from ..words.word_index import WordIndex
from .constraints import Constraints
from .propagation_kernel import MAX_GLYPHS, CompiledNetwork, kernel, kernel_wanted, note_python_seconds
from .state import NEVER_REVISED, Failure, State

#: Below this many words, a slot's glyph supports are read from the words themselves instead of
#: testing one bitset per glyph (cheaper when the domain is tiny and the alphabet is not).
SMALL_DOMAIN = 12
#: Slots revised between two looks at a deadline (a revision of a large Python domain takes up
#: to milliseconds).
DEADLINE_EVERY_REVISIONS = 16
#: When a slot lost at most this many words since its crossings were last revised, only the
#: glyphs of those words are re-tested (a refuted word costs one test per crossing instead of
#: one per glyph); a larger loss revises every glyph of each crossing.
SMALL_REMOVAL = 8


class Network(Constraints):
    """Arc-consistency propagation over a problem's :class:`Constraints` (built from its
    constraint graph). ``jit=False`` keeps the pure-Python loop even when the compiled one could
    serve."""

    def __init__(
        self,
        graph: nx.Graph,
        lexicon: Lexicon,
        uses: dict[str, int] | None = None,
        max_shared_run: int | None = None,
        *,
        jit: bool = True,
    ):
        super().__init__(graph, lexicon, uses, max_shared_run)
        # The compiled loop, made on the first propagation (None: not yet; False: not used).
        self._compiled: CompiledNetwork | bool | None = None if jit else False

    def load_compiled(self, state: State) -> None:
        """Pack the network for the compiled loop now, warm-up or not (one empty call on
        ``state`` packs its domains): for searches timed in stages, whose first stage should not
        pay for it."""
        if self._compiled is None:
            self._compiled = self._make_compiled()
        if isinstance(self._compiled, CompiledNetwork):
            self.propagate(state.copy(), [])

    def packed(self) -> CompiledNetwork | None:
        """The network packed for the compiled core now, warm-up or not; None when the extension
        is unavailable or the network's rules are not the core's (see :meth:`compiled`)."""
        if self._compiled is None:
            self._compiled = self._make_compiled()
        return self._compiled if isinstance(self._compiled, CompiledNetwork) else None

    def compiled(self) -> CompiledNetwork | None:
        """The compiled propagation loop, when the extension is built and the network's rules
        are ones it knows (no per-word use limits, no shared-run rule, at most MAX_GLYPHS glyphs); not
        before the process has spent ``propagation_kernel.WARMUP_SECONDS`` in the Python loop."""
        if self._compiled is None:
            if not self.core_takes_rules():
                self._compiled = False
            elif kernel_wanted():
                self._compiled = self._make_compiled()
        return self._compiled if isinstance(self._compiled, CompiledNetwork) else None

    def core_takes_rules(self) -> bool:
        """Whether the compiled core knows this network's rules (no per-word use limits, no
        shared-run rule, at most MAX_GLYPHS glyphs)."""
        return self.limits is None and self.run_masks is None and len(self.lexicon.alphabet) <= MAX_GLYPHS

    def _make_compiled(self) -> CompiledNetwork | bool:
        function = kernel() if self.core_takes_rules() else None
        return CompiledNetwork(self, function) if function is not None else False

    def initial_state(self, domains: list[int]) -> State:
        return State(list(domains), [self.all_glyphs] * self.crossing_count, [False] * len(self.slots))

    def supports(self, s: int, domain: int, pos: int, mask: int) -> int:
        """The glyphs of ``mask`` that some word of ``domain`` has at position ``pos`` of slot s."""
        if domain.bit_count() <= SMALL_DOMAIN:
            index = self.indexes[s]
            found = 0
            for w in WordIndex.iter_ids(domain):
                found |= 1 << index.code(w)[pos]
            return found & mask
        found = 0
        columns = self.columns[s][pos]
        if mask.bit_count() < len(columns):  # few glyphs left at the crossing (a large alphabet's usual case)
            by_glyph = self.bits[s][pos]
            while mask:
                low = mask & -mask
                mask ^= low
                if domain & by_glyph[low.bit_length() - 1]:
                    found |= low
            return found
        for bit, column in columns:
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

    def propagate(self, state: State, changed: Iterable[int], deadline: Deadline = None) -> Failure | None:
        """Restore arc consistency after the domains of the slots in ``changed`` shrank.

        Returns None when every domain is non-empty, else the :class:`Failure`. ``state`` is
        modified in place (callers copy it first when they need to undo). ``deadline``: the
        Python loop raises :class:`~csp_crossword.core.errors.BuildTimeout` once it passes (the
        compiled loop is done in moments).
        """
        compiled = self.compiled()
        if compiled is not None:
            slot, cause = compiled.propagate(state, list(changed))
            return None if slot < 0 else Failure(slot, cause if cause >= 0 else None)
        if self._compiled is None:  # the compiled loop may take over: count the time
            started = time.perf_counter()
            try:
                return self._propagate_python(state, changed, deadline)
            finally:
                note_python_seconds(time.perf_counter() - started)
        return self._propagate_python(state, changed, deadline)

    def _propagate_python(self, state: State, changed: Iterable[int], deadline: Deadline = None) -> Failure | None:
        """The reference loop (see :meth:`propagate`)."""
        domains, masks, settled, seen = state.domains, state.masks, state.settled, state.seen
        queue = deque(dict.fromkeys(changed))
        queued = set(queue)
        check_repeats = not self.allow_duplicates
        run_masks = self.run_masks
        settle = check_repeats or run_masks is not None
        revised = 0
        while queue:
            s = queue.popleft()
            queued.discard(s)
            revised += 1
            if deadline is not None and revised % DEADLINE_EVERY_REVISIONS == 0 and time.monotonic() >= deadline:
                raise BuildTimeout(len(domains))
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
                    others = [u for u in self.same_length[s] if u != s]
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
