"""The CP-SAT model of a fill problem, read from its constraint graph (see :mod:`.cpsat` for the
formulations and references)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal, expired
from ..core.errors import InputError
from ..search.graph import crossings_of
from ..search.problem import FillProblem
from ..words.ngrams import words_by_run
from ..words.word_index import WordIndex
from .base import WordChoice

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

FORMULATIONS = ("letters", "pairs")
#: The ``pairs`` formulation refuses problems whose crossing tables would exceed this many rows.
MAX_PAIR_ROWS = 2_000_000

#: Largest model built: table values (words x columns, summed over the slots' tables). Peak memory
#: per value, building and solving, measured at up to BYTES_PER_TABLE_VALUE (am15-01 with the
#: built-in list: 7.7 million values, 1.6 GB), so the largest model needs about 4 GiB.
MAX_TABLE_VALUES = 20_000_000
#: Largest model built to optimise from a known fill: larger problems keep each slot's best words
#: (and the known fill's) up to this size. Optimality is then not proved (the bound reported is
#: the whole problem's), but the job stays in memory: am15-01 with the built-in list peaked at
#: 1.15 GB with 500,000 values, 1.65 GB with a million and 2.6 GB with two (the whole model,
#: 7.7 million values, at 7.8 GB).
OPTIMIZE_TABLE_VALUES = 500_000
#: Models from this many table values up are solved in a child process when the job has a time
#: limit or can be stopped (``isolated``): CP-SAT ignores both while it loads a large model
#: (h2110 with words.txt, 4.5 million values: 9-28 s to stop), and the child costs about 1.5 s
#: (start, writing and reading the model), small against the load time of such models.
ISOLATE_FROM_VALUES = 1_000_000
#: Rows handed to OR-Tools at a time when a table is built. Each call holds Python's interpreter
#: lock while it converts its rows; one call for a whole million-word table held it for seconds,
#: starving ``ac`` (racing in ``auto``) and delaying Ctrl-C. In chunks of this many rows the
#: longest pause measured was 0.25 s (2,000,000 rows of 8 columns), and the build was 4x faster.
TABLE_CHUNK_ROWS = 20_000
BYTES_PER_TABLE_VALUE = 216


def bounded_for_optimizing(problem: FillProblem) -> tuple[FillProblem, bool]:
    """``problem``, or when its tables would pass OPTIMIZE_TABLE_VALUES, the problem with each
    slot's K best words and the incumbent's (K as large as fits), made arc consistent again;
    and whether it was cut."""
    if problem.incumbent is None or table_values(problem) <= OPTIMIZE_TABLE_VALUES:
        return problem, False
    graph = problem.graph
    columns = [1 + graph.degree[slot.id] for slot in problem.slots]
    sizes = [d.bit_count() for d in problem.domains]
    low, high = 1, max(sizes)
    while low < high:  # the largest K whose tables fit
        middle = (low + high + 1) // 2
        if sum(min(middle, n) * c for n, c in zip(sizes, columns, strict=True)) <= OPTIMIZE_TABLE_VALUES:
            low = middle
        else:
            high = middle - 1
    domains = []
    for s, d in enumerate(problem.domains):
        ids = WordIndex.id_array(d)
        kept = d if len(ids) <= low else d & ((1 << (int(ids[low - 1]) + 1)) - 1)  # ids are best first
        domains.append(kept | (1 << problem.incumbent[s]))
    network = problem.network
    state = network.initial_state(domains)
    if network.propagate(state, range(len(domains))) is not None:  # cannot happen: the incumbent fits
        return problem, False
    return replace(problem, domains=tuple(state.domains), root=state.copy()), True


class ModelTimeout(Exception):
    """The deadline passed, or the stop signal was set, while the model was being built."""


def table_values(problem: FillProblem) -> int:
    """How many values the letter tables of ``problem`` hold (its size, known before building)."""
    graph = problem.graph
    return sum(d.bit_count() * (1 + graph.degree[slot.id]) for slot, d in zip(problem.slots, problem.domains))


def check_size(problem: FillProblem) -> int:
    """The problem's :func:`table_values`, refused (InputError) over :data:`MAX_TABLE_VALUES`."""
    values = table_values(problem)
    if values > MAX_TABLE_VALUES:
        raise InputError(
            f"the CP-SAT model would hold {values:,} table values (at most {MAX_TABLE_VALUES:,}, about "
            f"{MAX_TABLE_VALUES * BYTES_PER_TABLE_VALUE // 2**30} GiB): use the ac backend, a shorter "
            "word list or --min-score"
        )
    return values


def glyph_ranks(problem: FillProblem, ids: list[list[int]]) -> Any:
    """Glyph code -> its rank among the glyphs by how many words left in the domains hold
    it (the most frequent 0): a cell's values in that order, so that the search, taking a
    cell's smallest value first, tries the glyph that leaves the most words."""
    import numpy as np

    net = problem.network
    counts = np.zeros(len(net.lexicon_glyphs), dtype=np.int64)
    for s, index in enumerate(net.indexes):
        if ids[s]:
            codes = index.matrix[np.asarray(ids[s], dtype=np.int64)].ravel()
            counts += np.bincount(codes, minlength=len(counts))[: len(counts)]
    rank = np.empty(len(counts), dtype=np.int64)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(counts))
    return rank


def cell_ranks(problem: FillProblem, ids: list[list[int]]) -> Any:
    """Per crossing cell, glyph code -> its rank in that cell (0 first): by the product of
    the words left in its two slots that hold the glyph there, the most first, so that the
    search, taking a cell's smallest value first, tries the glyph that leaves the most fills
    of both slots (ties by the glyph's count over every slot, :func:`glyph_ranks`)."""
    import numpy as np

    net = problem.network
    overall = glyph_ranks(problem, ids)
    glyph_count = len(net.lexicon_glyphs)
    support = np.ones((net.crossing_count, glyph_count), dtype=np.float64)
    for s, slot in enumerate(net.slots):
        words = np.asarray(ids[s], dtype=np.int64)
        matrix = net.indexes[s].matrix
        for _t, i, _j, c in crossings_of(problem.graph, slot.id):
            column = matrix[words, i] if len(words) else np.zeros(0, dtype=np.int64)
            support[c] *= np.bincount(column, minlength=glyph_count)[:glyph_count]
    ranks = np.empty((net.crossing_count, glyph_count), dtype=np.int64)
    for c in range(net.crossing_count):
        order = np.lexsort((overall, -support[c]))  # the most support first, then overall rank
        ranks[c, order] = np.arange(glyph_count)
    return ranks


def add_rows(model: cp_model.CpModel, columns: list[Any], rows: Any, check: Callable[[], None]) -> None:
    """``model.add_allowed_assignments(columns, rows)`` for a numpy array of rows, added
    :data:`TABLE_CHUNK_ROWS` at a time, calling ``check`` (the deadline's) in between."""
    constraint = model.add_allowed_assignments(columns, rows[:1].tolist())
    values = constraint.proto.table.values  # row after row, as add_allowed_assignments keeps them
    for start in range(1, len(rows), TABLE_CHUNK_ROWS):
        check()
        values.extend(rows[start : start + TABLE_CHUNK_ROWS].ravel().tolist())


class CpSatModel:
    """The CP-SAT model of a problem; ``word_vars[s]`` is slot s's word id.

    Args:
        problem: The problem; its arc-consistent domains become the variables' domains.
        formulation: ``letters`` or ``pairs``.
        optimize: Add the total score objective.
        break_symmetry: Order the word ids of interchangeable slots (not for enumeration).
        enumerating: The model's solutions are enumerated: no auxiliary literal may be free.
    """

    def __init__(
        self,
        problem: FillProblem,
        formulation: str = "letters",
        optimize: bool = False,
        break_symmetry: bool = False,
        enumerating: bool = False,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
    ):
        from ortools.sat.python import cp_model

        if formulation not in FORMULATIONS:
            raise ValueError(f"unknown formulation {formulation!r}; choose from {FORMULATIONS}")
        self.deadline = deadline
        self.stop = stop
        self.table_values = check_size(problem)
        self.problem = problem
        self.model = cp_model.CpModel()
        net = problem.network
        self.ids = [WordIndex.id_array(d).tolist() for d in problem.domains]
        self.word_vars: list[cp_model.IntVar] = []
        self.cell_vars: list[cp_model.IntVar] = []  # the letters formulation's glyph per crossing
        self.score_vars: list[cp_model.IntVar] = []
        self.symmetric_groups: list[list[cp_model.IntVar]] = []
        self.symmetric_slots: list[list[int]] = []  # the same groups as slot numbers
        self.graph = graph = problem.graph  # slots and crossings come from the constraint graph
        self.number = net.slot_number
        for s, slot_id in enumerate(graph):
            self._check_deadline()
            domain = cp_model.Domain.from_values(self.ids[s]) if self.ids[s] else cp_model.Domain(0, -1)
            self.word_vars.append(self.model.new_int_var_from_domain(domain, f"w{slot_id}"))
        if formulation == "letters":
            self._letter_tables(optimize)
        else:
            self._pair_tables()
            if optimize:
                self._score_tables()
        if graph.graph["no_repeat"]:
            for group in graph.graph["same_length"].values():
                if len(group) > 1:
                    self._no_repeats([self.number[slot_id] for slot_id in group])
        if problem.options.no_shared_substring is not None:
            self._no_shared_runs(problem.options.no_shared_substring, enumerating)
        if break_symmetry and not optimize:
            self._order_interchangeable_slots()
        if optimize:
            self.model.maximize(sum(self.score_vars))

    def _repeated(self, s: int) -> dict[int, int]:
        """Slot s's words that may fill more than one slot (``--exact`` with a word listed more
        than once): word id -> uses allowed."""
        limits = self.problem.network.limits
        return limits[s] if limits is not None else {}

    def _no_repeats(self, slots: list[int]) -> None:
        """No entry twice among these slots (all of one length): AllDifferent over their word ids;
        with use limits, AllDifferent over stand-ins (the word id, or for a word that may repeat a
        value of the slot's own) and, per such word, at most its uses among the slots."""
        repeated = self._repeated(slots[0])
        if not repeated:
            self.model.add_all_different([self.word_vars[s] for s in slots])
            return
        own = 1 + max((max(self.ids[s], default=0) for s in slots), default=0)
        stand_ins = []
        for k, s in enumerate(slots):
            rows = [(w, own + k if w in repeated else w) for w in self.ids[s]]
            stand_in = self.model.new_int_var(0, own + len(slots), f"u{s}")
            self.model.add_allowed_assignments([self.word_vars[s], stand_in], rows)
            stand_ins.append(stand_in)
        self.model.add_all_different(stand_ins)
        for w, uses in repeated.items():
            holders = [s for s in slots if self.problem.domains[s] >> w & 1]
            if len(holders) <= uses:
                continue
            holds = []
            for s in holders:
                holds_w = self.model.new_bool_var(f"h{s}_{w}")
                self.model.add(self.word_vars[s] == w).only_enforce_if(holds_w)
                self.model.add(self.word_vars[s] != w).only_enforce_if(~holds_w)
                holds.append(holds_w)
            self.model.add(sum(holds) <= uses)

    def _no_shared_runs(self, n: int, both_ways: bool) -> None:
        """At most one slot holds a word containing any one run of ``n`` glyphs (built over the
        words left in the domains: a run only one slot can contain needs nothing). A slot's
        literal is implied by its word holding the run; ``both_ways`` (enumeration) also ties it
        the other way, so that no fill is seen twice with another value of a free literal."""
        from ortools.sat.python import cp_model

        net = self.problem.network
        holders: dict[Hashable, list[tuple[int, list[int]]]] = {}
        for s in range(len(net.slots)):
            for run, words in words_by_run(net.indexes[s], self.problem.domains[s], n).items():
                holders.setdefault(run, []).append((s, words))
        for slots in holders.values():
            if len(slots) < 2:
                continue
            literals = []
            for s, words in slots:
                holds = self.model.new_bool_var("")
                inside = cp_model.Domain.from_values(words)
                word = self.word_vars[s]
                self.model.add_linear_expression_in_domain(word, inside.complement()).only_enforce_if(~holds)
                if both_ways:
                    self.model.add_linear_expression_in_domain(word, inside).only_enforce_if(holds)
                literals.append(holds)
            self.model.add_at_most_one(literals)

    def _order_interchangeable_slots(self) -> None:
        """Slots with no crossing and the same candidates can swap entries in any fill: only the
        fill with their word ids in increasing order is kept (a fill exists iff one of those
        does; not for enumeration, which must see every fill)."""
        groups: dict[tuple[int, int], list[int]] = {}
        for s, (slot_id, length) in enumerate(self.graph.nodes(data="length")):
            if not self.graph.degree[slot_id]:
                groups.setdefault((length, self.problem.domains[s]), []).append(s)
        self.symmetric_slots = [g for g in groups.values() if len(g) > 1]
        self.symmetric_groups = [[self.word_vars[s] for s in g] for g in self.symmetric_slots]
        for group in groups.values():
            # a word that may fill several slots (a use limit) may fill two of these
            strict = self.graph.graph["no_repeat"] and not self._repeated(group[0])
            for a, b in itertools.pairwise(self.word_vars[s] for s in group):
                self.model.add(a < b) if strict else self.model.add(a <= b)

    def _letter_tables(self, optimize: bool) -> None:
        import numpy as np

        net = self.problem.network
        ranks = self._cell_ranks()
        glyph_count = max(len(net.lexicon_glyphs), 1)
        self.cell_vars = [self.model.new_int_var(0, glyph_count - 1, f"g{c}") for c in range(net.crossing_count)]
        for s, slot in enumerate(net.slots):
            self._check_deadline()
            index = net.indexes[s]
            crossing = sorted((i, c) for _t, i, _j, c in crossings_of(self.graph, slot.id))
            columns = [self.word_vars[s]] + [self.cell_vars[c] for _i, c in crossing]
            ids = np.asarray(self.ids[s], dtype=np.int64)
            # one row per word: its id, (its score,) then its glyph's rank in each crossing cell,
            # built with numpy (a Python loop over a million words took seconds)
            glyphs = index.matrix[ids][:, [i for i, _c in crossing]].astype(np.int64)
            ranked = np.empty_like(glyphs)
            for k, (_i, c) in enumerate(crossing):
                ranked[:, k] = ranks[c][glyphs[:, k]]
            parts = [ids[:, None], ranked]
            if optimize:
                score = self.model.new_int_var(
                    min(index.scores, default=0), max(index.scores, default=0), f"s{slot.id}"
                )
                self.score_vars.append(score)
                columns.insert(1, score)
                parts.insert(1, index.score_array[ids][:, None])
            self._add_table(columns, np.hstack(parts))

    def _glyph_ranks(self) -> Any:
        """:func:`glyph_ranks` of this model's problem."""
        return glyph_ranks(self.problem, self.ids)

    def _cell_ranks(self) -> Any:
        """:func:`cell_ranks` of this model's problem."""
        return cell_ranks(self.problem, self.ids)

    def add_search_order(self) -> None:
        """The order CP-SAT's search starts with (``search_branching`` PARTIAL_FIXED_SEARCH): the
        crossing cell with the fewest glyphs left, first the glyph that the most words of its two
        slots hold there (:meth:`_cell_ranks`; measured on the open 6x6 with the built-in list:
        83 conflicts against 1,484 with the most frequent glyph overall); then the slot
        with the fewest words left, its best word first (word ids are best first), for the slots
        their cells do not settle. A cell decision splits a slot's words by a whole glyph, where a
        word decision tries one word: measured faster than words alone on open grids
        (docs/benchmarks.md, "CP-SAT's search")."""
        from ortools.sat.python import cp_model

        if self.cell_vars:
            self.model.add_decision_strategy(self.cell_vars, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
        self.model.add_decision_strategy(self.word_vars, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)

    def _add_table(self, columns: list[Any], rows: Any) -> None:
        """:func:`add_rows`, checking the deadline and the stop in between."""
        add_rows(self.model, columns, rows, self._check_deadline)

    def _check_deadline(self) -> None:
        if expired(self.deadline, self.stop):
            raise ModelTimeout()

    def _pair_tables(self) -> None:
        net = self.problem.network
        total = 0
        for a, b, crossing in self.graph.edges(data=True):
            s, t = self.number[a], self.number[b]
            i, j = crossing["positions"][a], crossing["positions"][b]
            by_glyph: dict[int, list[int]] = {}
            for w in self.ids[t]:
                by_glyph.setdefault(net.indexes[t].code(w)[j], []).append(w)
            rows = []
            for w in self.ids[s]:
                for v in by_glyph.get(net.indexes[s].code(w)[i], ()):
                    rows.append((w, v))
            total += len(rows)
            if total > MAX_PAIR_ROWS:
                raise ValueError(f"the pairs formulation needs more than {MAX_PAIR_ROWS} table rows here; use letters")
            self.model.add_allowed_assignments([self.word_vars[s], self.word_vars[t]], rows)

    def _score_tables(self) -> None:
        import numpy as np

        net = self.problem.network
        for s, slot in enumerate(net.slots):
            index = net.indexes[s]
            score = self.model.new_int_var(min(index.scores, default=0), max(index.scores, default=0), f"s{slot.id}")
            self.score_vars.append(score)
            ids = np.asarray(self.ids[s], dtype=np.int64)
            self._add_table([self.word_vars[s], score], np.column_stack([ids, index.score_array[ids]]))

    @property
    def solution_vars(self) -> list[Any]:
        """The variables a fill is read from (:meth:`words`)."""
        return list(self.word_vars)

    def words(self, value: Callable[[Any], Any]) -> WordChoice:
        """Slot number -> word id from a solver or callback's ``value`` function."""
        return {s: int(value(var)) for s, var in enumerate(self.word_vars)}
