"""The CP-SAT model of a fill or a proof in glyphs: each slot's words as a layered automaton.

The word-table model (:class:`.cpsat_model.CpSatModel`) makes a literal per slot and word, and
the support of a glyph in a cell is a clause over every word of the slot holding it there: CP-SAT
explains a conflict with those word literals, so each conflict learned a clause of tens of
thousands of literals (the open 6x6 with the built-in list: some 67,000, 15 ms a conflict).

Here each slot's words are the minimal layered automaton that accepts exactly them (states shared
by the words' common prefixes and suffixes), put to CP-SAT as one small table per letter position
over (state before, glyph, state after). A glyph's support is then a clause over that position's
transitions, and no literal stands for a whole word. The no-repeat rule is put, for every length,
by pairs of slots that can take a common word (some position of the two differs), or where that
would be the larger, for a length of hundreds of slots, by words (a literal per slot and word that
another slot can take, at most one true per word). A slot's tables form a chain, the usual
decomposition of an automaton constraint, which prunes its glyphs as the word table did (measured:
as many conflicts or fewer, docs/benchmarks.md, "Glyph literals").

Fills and proofs only: ``optimize`` needs the score of a slot's word and enumeration a model with
no free literal, so both keep the word tables, as do use limits and ``no_shared_substring``
(rules over whole words).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal, expired
from ..search.graph import crossings_of
from ..search.problem import FillProblem
from ..words.word_index import WordIndex
from .base import WordChoice
from .cpsat_model import ModelTimeout, add_rows, cell_ranks, check_size

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def layered_applies(problem: FillProblem) -> bool:
    """Whether the layered model holds every rule of ``problem``: not with use limits (a word
    allowed in several slots) or ``no_shared_substring``, which the word tables keep, nor with a
    slot that crosses none (the word tables order such interchangeable slots' words)."""
    limits = problem.network.limits
    graph = problem.graph
    return (
        problem.options.no_shared_substring is None
        and not (limits and any(limits))
        and all(graph.degree[slot_id] for slot_id in graph)
    )


def rule_sizes(ids: list[Any], labels: list[Any]) -> tuple[int, int]:
    """Constraints the no-repeat rule of one length would add (``ids`` and ``labels``: its slots'
    word ids and their values per position), by pairs of slots and by words: for each pair of
    slots, a clause per position and glyph both can hold there (the average number of glyphs a
    position's words hold) and one more; for each slot and word another slot can take, two
    clauses, and an at-most-one per such word. Building the model takes about as long as it adds
    constraints one at a time. By pairs is the smaller for the Herald grids (words-h1504: 61,161
    clauses against 270,930), by words for a grid of hundreds of slots of one length (a 34x34 of
    4x4 blocks with the built-in list: 8.1 million constraints by pairs, 73 s to build, against
    4.9 million, 27 s)."""
    import numpy as np

    if len(ids) < 2:
        return 0, 0
    length = labels[0].shape[1]
    every = np.concatenate(ids)
    shared, counts = np.unique(every, return_counts=True)
    shared = shared[counts > 1]
    held = sum(int(np.isin(words, shared, assume_unique=True).sum()) for words in ids)
    glyphs = [len(np.unique(rows[:, i])) for rows in labels for i in range(length) if len(rows)]
    per_position = sum(glyphs) / len(glyphs) if glyphs else 0.0
    pairs = len(ids) * (len(ids) - 1) // 2
    return int(pairs * (length * per_position + 1)), 2 * held + len(shared)


def word_automaton(labels: Any) -> list[Any]:
    """The minimal layered automaton accepting exactly the rows of ``labels`` (words x
    positions, distinct rows): per position d, its transitions as rows (state at d, label, state
    at d + 1), states numbered from 0 within each layer (one state before the first position and
    one after the last). Two prefixes share a state when the same suffixes complete them."""
    import numpy as np

    count, length = labels.shape
    if count == 0:
        return [np.zeros((0, 3), dtype=np.int64) for _ in range(length)]
    rows = labels[np.lexsort(labels.T[::-1])]
    # starts[d][i]: row i is the first of its prefix of length d (rows sorted, so prefixes are runs)
    starts = [np.zeros(count, dtype=bool)]
    starts[0][0] = True
    for d in range(length):
        changed = np.ones(count, dtype=bool)
        changed[1:] = rows[1:, d] != rows[:-1, d]
        starts.append(starts[-1] | changed)
    after = np.zeros(count, dtype=np.int64)  # each row's state after position d (d = length: the end)
    layers: list[Any] = [None] * length
    for d in range(length - 1, -1, -1):
        prefix = np.cumsum(starts[d]) - 1  # each row's prefix of length d, numbered in order
        first = starts[d + 1]  # one row per prefix of length d + 1
        group, glyph, target = prefix[first], rows[first, d], after[first]
        bounds = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]).tolist() + [len(group)]
        glyphs, targets = glyph.tolist(), target.tolist()
        states: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        state_of = np.empty(len(bounds) - 1, dtype=np.int64)
        for k in range(len(bounds) - 1):  # a prefix's state: the set of (glyph, next state) it has
            key = (tuple(glyphs[bounds[k] : bounds[k + 1]]), tuple(targets[bounds[k] : bounds[k + 1]]))
            state_of[k] = states.setdefault(key, len(states))
        layers[d] = np.unique(np.column_stack([state_of[group], glyph, target]), axis=0)
        after = state_of[prefix]
    return layers


class LayeredModel:
    """The layered CP-SAT model of ``problem`` for a fill or a proof.

    ``cell_vars[c]`` is crossing c's glyph (its rank in the cell, :func:`.cpsat_model.cell_ranks`,
    as in the word-table model); ``position_vars[s]`` slot s's glyph variables in order (its
    crossings' cell variables and a variable for each of its unchecked cells); ``labels[s]``
    its words' values of those variables, a row per word of ``ids[s]``.
    """

    def __init__(
        self,
        problem: FillProblem,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
    ):
        import numpy as np
        from ortools.sat.python import cp_model

        self.deadline = deadline
        self.stop = stop
        # the word tables' size and limit: a problem is refused, or solved apart, by both alike
        self.table_values = check_size(problem)
        self.problem = problem
        self.model = cp_model.CpModel()
        net = problem.network
        graph = problem.graph
        self.ids = [WordIndex.id_array(d).astype(np.int64) for d in problem.domains]
        ranks = cell_ranks(problem, [ids.tolist() for ids in self.ids])
        glyph_count = max(len(net.lexicon_glyphs), 1)
        self.cell_vars = [self.model.new_int_var(0, glyph_count - 1, f"g{c}") for c in range(net.crossing_count)]
        self.free_vars: list[cp_model.IntVar] = []  # unchecked cells' glyphs
        self.position_vars: list[list[cp_model.IntVar]] = []
        self.labels: list[Any] = []
        self._glyph_literals: dict[tuple[int, int], cp_model.IntVar] = {}
        for s, slot in enumerate(net.slots):
            self._check_deadline()
            crossing = {i: c for _t, i, _j, c in crossings_of(graph, slot.id)}
            glyphs = net.indexes[s].matrix[self.ids[s]][:, : slot.length].astype(np.int64)
            labels = glyphs.copy()
            variables = []
            for i in range(slot.length):
                if i in crossing:
                    variables.append(self.cell_vars[crossing[i]])
                    labels[:, i] = ranks[crossing[i]][glyphs[:, i]]
                else:
                    free = self.model.new_int_var(0, glyph_count - 1, f"p{slot.id}_{i}")
                    self.free_vars.append(free)
                    variables.append(free)
            self.position_vars.append(variables)
            self.labels.append(labels)
            if not len(labels):
                self.model.add_bool_or([])  # a slot no word fits: no fill
                continue
            self._add_automaton(variables, word_automaton(labels))
        if graph.graph["no_repeat"]:
            for group in graph.graph["same_length"].values():
                if len(group) > 1:
                    self._no_repeats([net.slot_number[slot_id] for slot_id in group])

    def _add_automaton(self, variables: list[Any], layers: list[Any]) -> None:
        """One table per position: (state before, glyph, state after), with no state variable
        before the first position or after the last (each has one state)."""
        count = len(layers)
        states = [None] + [self.model.new_int_var(0, int(layers[d][:, 0].max()), "") for d in range(1, count)] + [None]
        for d, layer in enumerate(layers):
            self._check_deadline()
            columns, kept = [variables[d]], [1]
            if states[d] is not None:
                columns.insert(0, states[d])
                kept.insert(0, 0)
            if states[d + 1] is not None:
                columns.append(states[d + 1])
                kept.append(2)
            add_rows(self.model, columns, layer[:, kept], self._check_deadline)

    def _glyph_literal(self, variable: Any, value: int) -> Any:
        """The literal "``variable`` == ``value``" (made once; CP-SAT takes it as the value's own
        literal of the variable's encoding)."""
        key = (variable.index, value)
        if key not in self._glyph_literals:
            literal = self.model.new_bool_var("")
            self.model.add(variable == value).only_enforce_if(literal)
            self.model.add(variable != value).only_enforce_if(~literal)
            self._glyph_literals[key] = literal
        return self._glyph_literals[key]

    def _no_repeats(self, slots: list[int]) -> None:
        """No entry twice among these slots (all of one length), by pairs of slots or, where that
        would be the larger model (:func:`rule_sizes`), by words."""
        by_pairs, by_words = rule_sizes([self.ids[s] for s in slots], [self.labels[s] for s in slots])
        if by_pairs <= by_words:
            self._no_repeats_by_pairs(slots)
        else:
            self._no_repeats_by_words(slots)

    def _no_repeats_by_pairs(self, slots: list[int]) -> None:
        """For each pair of these slots that can take a common word, some position differs: a
        literal per position ("the two glyphs there differ", made false by each glyph both can
        hold) and a clause over them. Once one slot's glyphs are set and the other's match but
        one, that one is pruned, as the word literals do. Written into the model's proto a
        clause at a time (tens of thousands for a 15x15)."""
        import numpy as np

        net = self.problem.network
        proto = self.model.proto
        # per slot and position, glyph code -> the value its variable takes for it (a crossing
        # cell's variable holds the glyph's rank in that cell)
        values: dict[int, list[dict[int, int]]] = {}
        for s in slots:
            length = net.slots[s].length
            glyphs = net.indexes[s].matrix[self.ids[s]][:, :length]
            values[s] = [
                dict(zip(glyphs[:, i].tolist(), self.labels[s][:, i].tolist(), strict=True)) for i in range(length)
            ]
        for a, b in itertools.combinations(slots, 2):
            self._check_deadline()
            if not len(np.intersect1d(self.ids[a], self.ids[b], assume_unique=True)):
                continue  # no word both can take (a common word puts a common glyph at every position)
            differs = []
            for i, (in_a, in_b) in enumerate(zip(values[a], values[b], strict=True)):
                literal = len(proto.variables)
                proto.variables.add().domain.extend([0, 1])
                for glyph in sorted(in_a.keys() & in_b.keys()):
                    a_holds = self._glyph_literal(self.position_vars[a][i], in_a[glyph]).index
                    b_holds = self._glyph_literal(self.position_vars[b][i], in_b[glyph]).index
                    # CP-SAT's negation of literal i is -i - 1
                    proto.constraints.add().bool_or.literals.extend([-literal - 1, -a_holds - 1, -b_holds - 1])
                differs.append(literal)
            proto.constraints.add().bool_or.literals.extend(differs)

    def _no_repeats_by_words(self, slots: list[int]) -> None:
        """For each word that two or more of these slots can take, a literal per such slot
        equivalent to the word's glyphs there, and at most one of those literals true. Written
        into the model's proto a clause at a time."""
        import numpy as np

        proto = self.model.proto
        every = np.concatenate([self.ids[s] for s in slots])
        shared, counts = np.unique(every, return_counts=True)
        shared = shared[counts > 1]
        holders: dict[int, list[int]] = {}
        for s in slots:
            self._check_deadline()
            rows = np.flatnonzero(np.isin(self.ids[s], shared, assume_unique=True))
            if not len(rows):
                continue
            # each position's "not this glyph" literal by label: CP-SAT's negation of index i is -i - 1
            negated = []
            for variable, column in zip(self.position_vars[s], self.labels[s][rows].T, strict=True):
                lookup = {int(v): -self._glyph_literal(variable, int(v)).index - 1 for v in np.unique(column)}
                negated.append(np.vectorize(lookup.__getitem__, otypes=[np.int64])(column))
            clauses = np.column_stack(negated)
            first = len(proto.variables)
            for k, (word, clause) in enumerate(zip(self.ids[s][rows].tolist(), clauses.tolist(), strict=True)):
                proto.variables.add().domain.extend([0, 1])
                proto.constraints.add().bool_or.literals.extend([*clause, first + k])
                # and the other way, so that no such literal is left free once the glyphs are set
                # (CP-SAT's fixed search would decide the free ones one by one)
                both = proto.constraints.add()
                both.enforcement_literal.append(first + k)
                both.bool_and.literals.extend(-literal - 1 for literal in clause)
                holders.setdefault(word, []).append(first + k)
        self._check_deadline()
        for literals in holders.values():
            proto.constraints.add().at_most_one.literals.extend(literals)

    def add_search_order(self) -> None:
        """The word-table model's order (:meth:`.cpsat_model.CpSatModel.add_search_order`): the
        crossing cell with the fewest glyphs left, its best-supported glyph first; then the
        unchecked cells."""
        from ortools.sat.python import cp_model

        for variables in (self.cell_vars, self.free_vars):
            if variables:
                self.model.add_decision_strategy(variables, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)

    @property
    def solution_vars(self) -> list[Any]:
        """The variables a fill is read from (:meth:`words`)."""
        return self.cell_vars + self.free_vars

    def words(self, value: Callable[[Any], Any]) -> WordChoice:
        """Slot number -> word id from a solver or callback's ``value`` function: the word whose
        glyphs the slot's variables hold."""
        import numpy as np

        choice = {}
        for s, variables in enumerate(self.position_vars):
            held = np.array([int(value(v)) for v in variables], dtype=np.int64)
            match = np.flatnonzero((self.labels[s] == held).all(axis=1))
            choice[s] = int(self.ids[s][match[0]])
        return choice

    def _check_deadline(self) -> None:
        if expired(self.deadline, self.stop):
            raise ModelTimeout()
