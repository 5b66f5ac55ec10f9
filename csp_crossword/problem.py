"""A fill problem: grid, lexicon and options, with the initial domains after propagation.

>>> from csp_crossword.grid import parse_grid
>>> from csp_crossword.lexicon import Lexicon
>>> grid = parse_grid("C.\\n..")
>>> problem = build_problem(grid, Lexicon.from_words(["CA", "CB", "AT", "BE", "AB"]))
>>> problem.candidates("1A")
['CA', 'CB']
>>> problem.unsatisfiable
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import networkx as nx

from .glyphs import normalize_entry
from .graph import constraint_graph
from .grid import Grid
from .lexicon import DEFAULT_SCORE, Lexicon, WordIndex
from .propagation import Network, State


@dataclass(frozen=True)
class FillOptions:
    """What the user asks of a fill.

    Attributes:
        allow_duplicates: Allow the same entry in two slots.
        min_score: Drop words scored below this.
        banned: Words never used.
        required: Slot id -> word that slot must hold (added to the word list if missing).
        exact: Fill-in puzzle: every word of the list is used exactly as many times as it is
            listed (``Lexicon.multiplicity``), and nothing else.
    """

    allow_duplicates: bool = False
    min_score: int | None = None
    banned: frozenset[str] = frozenset()
    required: tuple[tuple[str, str], ...] = ()
    exact: bool = False


@dataclass(frozen=True)
class FillProblem:
    """Everything a backend needs. Build it with :func:`build_problem`.

    Attributes:
        grid: The grid (with any pre-filled glyphs).
        lexicon: The word list after ``min_score``, ``banned`` and ``required`` were applied.
        options: The options.
        graph: The constraint graph (slots and crossings).
        domains: One bitset per slot (``grid.slots`` order) after node and arc consistency; all
            zero-free unless the problem is already proved unsatisfiable.
        empty: Ids of the slots whose domain is empty, and why, when propagation alone proves
            the problem unsatisfiable.
    """

    grid: Grid
    lexicon: Lexicon
    options: FillOptions
    graph: nx.Graph
    domains: tuple[int, ...]
    empty: tuple[tuple[str, str], ...] = field(default=())

    @property
    def slots(self):
        """The slots of the problem (all the grid's, unless built for a subset), in domain order."""
        return self.network.slots

    @property
    def unsatisfiable(self) -> bool:
        return bool(self.empty)

    @cached_property
    def network(self) -> Network:
        return Network(self.grid, self.lexicon, self.options.allow_duplicates)

    @cached_property
    def _root(self) -> State:
        state = self.network.initial_state(list(self.domains))
        if not self.unsatisfiable:
            self.network.propagate(state, range(len(self.domains)))
        return state

    def root_state(self) -> State:
        """A fresh copy of the search state at the root (arc consistent, glyph masks set)."""
        return self._root.copy()

    def index_of(self, slot_id: str) -> WordIndex:
        return self.network.indexes[self.network.slot_number[slot_id]]

    def candidates(self, slot_id: str, limit: int | None = None) -> list[str]:
        """The words still possible in a slot, best score first."""
        s = self.network.slot_number[slot_id]
        index = self.network.indexes[s]
        found = []
        for w in WordIndex.iter_ids(self.domains[s]):
            found.append(index.words[w])
            if limit is not None and len(found) >= limit:
                break
        return found

    @property
    def word_uses(self) -> dict[str, int] | None:
        """For fill-in puzzles: entry -> exact number of uses."""
        return self.network.uses

    @property
    def extra_words(self) -> frozenset[str]:
        """Required words, which count as words of the list for the verifier."""
        return frozenset(normalize_entry(w) for _, w in self.options.required)


def _node_domains(grid: Grid, options: FillOptions, network: Network):
    """Domains from lengths, pre-filled glyphs and required words, with reasons for empty ones."""
    required = {slot_id.upper(): normalize_entry(word) for slot_id, word in options.required}
    domains: list[int] = []
    empty: list[tuple[str, str]] = []
    for s, slot in enumerate(network.slots):
        index = network.indexes[s]
        pattern = grid.pattern(slot)
        if slot.id in required:
            word = required[slot.id]
            domain = 1 << index.position[word] if word in index.position else 0
            if not domain:
                empty.append((slot.id, f"required word {word} does not fit {slot.length} cells"))
            elif index.match(pattern) & domain == 0:
                empty.append((slot.id, f"required word {word} clashes with {grid.pattern_text(slot)}"))
                domain = 0
        elif not len(index):
            domain = 0
            empty.append((slot.id, f"no {slot.length}-letter word in the word list"))
        else:
            domain = index.match(pattern)
            if not domain:
                empty.append((slot.id, f"no word matches {grid.pattern_text(slot)}"))
        domains.append(domain)
    return domains, empty


def _count_mismatches(network: Network, uses: dict[str, int]) -> list[tuple[str, str]]:
    """Fill-in puzzles: per length, the slots must match the listed words one for one."""
    from .lexicon import glyph_count

    words_per_length: dict[int, int] = {}
    for word, n in uses.items():
        words_per_length[glyph_count(word)] = words_per_length.get(glyph_count(word), 0) + n
    slots_per_length: dict[int, list[str]] = {}
    for slot in network.slots:
        slots_per_length.setdefault(slot.length, []).append(slot.id)
    problems = []
    for length in sorted(set(words_per_length) | set(slots_per_length)):
        have, need = words_per_length.get(length, 0), len(slots_per_length.get(length, ()))
        if have != need:
            ids = slots_per_length.get(length, [])
            where = ids[0] if ids else "(none)"
            problems.append(
                (where, f"{need} slot(s) of length {length} but {have} listed word(s) of that length")
            )
    return problems


def build_problem(
    grid: Grid, lexicon: Lexicon, options: FillOptions | None = None, *, slot_ids=None
) -> FillProblem:
    """Apply the options to the lexicon, then node and arc consistency to every slot.

    ``slot_ids`` keeps only the constraints of those slots (the other cells are free): a relaxed
    problem, used to find which slots cannot be filled together.

    Raises:
        KeyError: a required slot id is not in the grid.
    """
    options = options or FillOptions()
    for slot_id, _ in options.required:
        grid.slot(slot_id)
    if options.min_score is not None or options.banned:
        lexicon = lexicon.filtered(options.min_score, options.banned)
    missing = {}
    for _, word in options.required:
        entry = normalize_entry(word)
        if entry not in lexicon:
            missing[entry] = DEFAULT_SCORE
    if missing:
        lexicon = lexicon.with_entries(missing)
    graph = constraint_graph(grid)
    slots = None if slot_ids is None else tuple(grid.slot(i) for i in slot_ids)
    uses = lexicon.word_uses() if options.exact else None
    network = Network(grid, lexicon, options.allow_duplicates, slots, uses)
    domains, empty = _node_domains(grid, options, network)
    if options.exact and slot_ids is None:
        empty += _count_mismatches(network, uses)
    state = None
    if not empty:
        state = network.initial_state(domains)
        failure = network.propagate(state, range(len(domains)))
        domains = state.domains
        if failure is not None:
            slot = network.slots[failure.slot]
            why = "no word is left once every crossing is made consistent"
            if failure.cause is not None and failure.cause != failure.slot:
                why += f" (last pruned by its crossing with {network.slots[failure.cause].id})"
            elif failure.cause == failure.slot:
                why += " (its only words are used elsewhere)"
            empty.append((slot.id, why))
    problem = FillProblem(grid, lexicon, options, graph, tuple(domains), tuple(empty))
    problem.__dict__["network"] = network  # reuse the compiled network (cached_property slot)
    if state is not None and not empty:
        problem.__dict__["_root"] = state.copy()
    return problem

