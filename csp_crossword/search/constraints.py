"""The crossword CSP compiled from its constraint graph to the flat lists propagation runs on.

Slots are numbered in the graph's node order; ``neighbours[s]`` lists ``(t, i, j, c)``: slot
``s`` position ``i`` crosses slot ``t`` position ``j`` in crossing cell ``c`` (the edge's
``cell_id``), in the grid's crossing order. Both propagation loops (Python and compiled) and the
search read these lists, never the grid.
"""

from __future__ import annotations

import networkx as nx

from ..words.lexicon import Lexicon
from ..words.ngrams import RunMasks
from ..words.word_index import WordIndex
from .graph import crossings_of, slots_of


class Constraints:
    """Slots, word indexes, crossings and the no-repeat rule of one problem, as lists by slot
    number.

    With ``uses`` (entry -> how many times it may appear; fill-in puzzles) repeats are limited
    per word instead of forbidden; with ``max_shared_run`` N no two entries share a run of N
    glyphs (:mod:`csp_crossword.words.ngrams`).
    """

    def __init__(
        self,
        graph: nx.Graph,
        lexicon: Lexicon,
        uses: dict[str, int] | None = None,
        max_shared_run: int | None = None,
    ):
        self.graph = graph
        self.grid = graph.graph["grid"]
        self.lexicon = lexicon
        self.allow_duplicates = not graph.graph["no_repeat"] and uses is None
        self.uses = uses
        self.slots = slots_of(graph)
        self.slot_number = {slot.id: s for s, slot in enumerate(self.slots)}
        self.indexes: list[WordIndex] = [lexicon.index(slot.length) for slot in self.slots]
        self.bits = [index.bits for index in self.indexes]
        self.neighbours: list[list[tuple[int, int, int, int]]] = [
            [(self.slot_number[other], i, j, c) for other, i, j, c in crossings_of(graph, slot.id)]
            for slot in self.slots
        ]
        self.crossing_count: int = graph.graph["crossings"]
        number = self.slot_number
        # per slot, every slot of its length, itself included: one list per length, shared by
        # its slots (a list of the others per slot took time and memory in the square of the
        # slot count: 2,890 five-letter slots, 8 million entries)
        groups = {n: [number[u] for u in ids] for n, ids in graph.graph["same_length"].items()}
        self.same_length: list[list[int]] = [groups[slot.length] for slot in self.slots]
        self.limits: list[dict[int, int]] | None = None
        if uses is not None:
            self.limits = [
                {index.position[w]: n for w, n in uses.items() if w in index.position and n > 1}
                for index in self.indexes
            ]
        self.run_masks = None if max_shared_run is None else RunMasks(self.indexes, max_shared_run)
        self.all_glyphs = (1 << len(lexicon.alphabet)) - 1
        self._columns: list[list[list[tuple[int, int]]]] | None = None
        self.lexicon_glyphs = sorted(lexicon.alphabet, key=lexicon.alphabet.__getitem__)

    @property
    def columns(self) -> list[list[list[tuple[int, int]]]]:
        """Per slot and position, the (glyph bit, word bitset) pairs of the glyphs that occur
        there: the Python support test walks this short list instead of every glyph of the mask
        (made on first use: a search in the compiled core never asks)."""
        if self._columns is None:
            by_index: dict[int, list[list[tuple[int, int]]]] = {}  # one per word index: slots share them
            for bits in self.bits:
                if id(bits) not in by_index:
                    by_index[id(bits)] = [
                        [(1 << g, column) for g, column in enumerate(position) if column] for position in bits
                    ]
            self._columns = [by_index[id(bits)] for bits in self.bits]
        return self._columns
