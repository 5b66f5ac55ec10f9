"""The value order of the ``ac`` search: which word (or glyph) to try first.

Words are taken best score first; among the top score tier the one that leaves its crossings the
most candidates (sum of log counts, the "product of crossing counts" look-ahead of crossword
fillers) goes first. The ``lookahead`` order ranks the whole domain by look-ahead alone, for a
search where every word left is acceptable and only fillability counts. Seeded noise perturbs
the values from the second run on (from the first when the seed is not 0), so restarts explore
other branches.
"""

from __future__ import annotations

import math
from typing import Any

from ..search.noise import Noise
from ..search.propagation import Network
from ..search.state import State
from ..words.word_index import WordIndex

#: Words ranked together by the look-ahead; larger windows trade score order for fillability.
VALUE_WINDOW = 8
#: Spread of the random perturbation of look-ahead values from the second run on.
VALUE_NOISE = 1.0
#: Stand-in count for a crossing glyph with no support left (cannot happen after arc
#: consistency; keeps the logarithm finite).
NO_SUPPORT = 1e-9
#: Look-ahead of a crossing a window word would leave without a word.
DEAD_CROSSING = -1e9


class ValueOrder:
    """Look-ahead ranking of a slot's words and of a crossing cell's glyphs.

    Ties go to the lower word id (the better scored). The compiled core (``kernel/values.c``)
    ranks the same way with the same noise (:mod:`csp_crossword.search.noise`).

    Args:
        net: The problem's network.
        order: ``tier`` (the top score tier by look-ahead), ``window`` (only the VALUE_WINDOW
            best-scored words) or ``lookahead`` (the whole domain by look-ahead).
        seed: Seeds the noise; seed 0 keeps the first run purely heuristic.
    """

    def __init__(self, net: Network, order: str, seed: int):
        self.net = net
        self.window_only = order == "window"
        self.whole_domain = order == "lookahead"
        self.seed = seed
        self.rng = Noise(seed)
        self.noise = VALUE_NOISE if seed else 0.0
        # numpy is imported by the first look-ahead over a large domain (_numpy): fills of small
        # grids with small lists never pay for it.
        self.log_table: Any = None

    def rank(self, state: State, s: int) -> list[int]:
        """The next words to try in slot s, best first.

        The candidates are the VALUE_WINDOW best-scored words plus every word tied on score with
        the last of them (for an unscored list, the whole domain); they are ranked by the
        look-ahead value: sum over crossings of log(words the crossing slot keeps).
        """
        domains = state.domains
        domain = domains[s]
        if domain & (domain - 1) == 0:
            return [domain.bit_length() - 1]
        if domain.bit_count() <= VALUE_WINDOW or self.window_only:
            window = []
            for w in WordIndex.iter_ids(domain):
                window.append(w)
                if len(window) == VALUE_WINDOW:
                    break
            return self._rank_small(state, s, window)
        np = self._numpy()
        index = self.net.indexes[s]
        ids = WordIndex.id_array(domain)
        scores = index.score_array[ids]
        tier = ids if self.whole_domain else ids[scores >= scores[VALUE_WINDOW - 1]]
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
            values += self.rng.draws(len(tier)) * self.noise
        negated = -values
        if len(tier) > VALUE_WINDOW:
            # the VALUE_WINDOW best, ties to the lower word id: every candidate at least as good
            # as the VALUE_WINDOW-th, in id order, then a stable sort by value
            kth = np.partition(negated, VALUE_WINDOW - 1)[VALUE_WINDOW - 1]
            best = np.flatnonzero(negated <= kth)
        else:
            best = np.arange(len(tier))
        best = best[np.argsort(negated[best], kind="stable")][:VALUE_WINDOW]
        return [int(tier[k]) for k in best]

    def _numpy(self) -> Any:
        import numpy

        if self.log_table is None:
            self.log_table = numpy.zeros(len(self.net.lexicon_glyphs))
        return numpy

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
                value += math.log(count) if count else DEAD_CROSSING
            if self.noise:
                value += self.rng.draw() * self.noise
            ranked.append((-value, w))
        ranked.sort()
        return [w for _, w in ranked]

    def best_glyph(self, state: State, cell: int, a: int, i: int, b: int, j: int) -> int:
        """The glyph of ``cell`` (position i of slot a, j of slot b) that keeps the most words in
        both its slots."""
        best, best_value = -1, -math.inf
        rest = state.masks[cell]
        bits = self.net.bits
        while rest:
            low = rest & -rest
            rest ^= low
            g = low.bit_length() - 1
            value = math.log((state.domains[a] & bits[a][i][g]).bit_count() or NO_SUPPORT) + math.log(
                (state.domains[b] & bits[b][j][g]).bit_count() or NO_SUPPORT
            )
            if self.noise:
                value += self.rng.draw() * self.noise
            if value > best_value:
                best, best_value = g, value
        return best
