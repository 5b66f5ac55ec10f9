"""``cpsat``: Google OR-Tools CP-SAT on the arc-consistent problem.

Two formulations (``formulation=``):

* ``letters`` (default): a glyph variable per cell of a crossing, a word variable per slot, and
  one table constraint per slot over (word id, score, glyph of each crossing cell). The tables
  hold only the words that survive arc consistency (``FillProblem.domains``), which is what keeps
  presolve short.
* ``pairs``: a word variable per slot and, per crossing, a table of the compatible (word, word)
  pairs. Exact but the tables grow with the product of the domains, so it is for small problems.

Equal-length slots get an AllDifferent over their word ids unless repeats are allowed (word ids
are shared by every slot of a length, so equal ids mean equal entries). With
``no_shared_substring`` N, every run of N glyphs that words of two or more slots' domains contain
gets one literal per such slot ("this slot's word contains the run", implied by the word
variable; tied both ways when enumerating) and an at-most-one over them. With ``optimize`` the
total entry score is maximised, with a hint from a quick ``ac`` fill.

Reference: Perron & Didier, "CP-SAT", OR-Tools (https://developers.google.com/optimization);
the letter-table model is the classical crossword CSP model (e.g. Gecode's crossword example,
"Modeling and Programming with Gecode", case study "Crossword puzzle").
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..core.deadline import Deadline, StopSignal
from ..core.errors import InputError
from ..core.result import FillResult, SearchStats, Status
from ..search.graph import crossings_of
from ..search.problem import FillProblem
from ..words.lexicon import WordIndex
from ..words.ngrams import words_by_run
from .base import Backend, Enumeration, FillGenerator, SolveCall, WordChoice, fill_from_words

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .cpsat_process import Outcome

#: Seconds of ``ac`` search spent on a hint before optimising.
HINT_SECONDS = 2.0
#: The ``pairs`` formulation refuses problems whose crossing tables would exceed this many rows.
MAX_PAIR_ROWS = 2_000_000
#: CP-SAT's presolve spends most of the time on these table models without paying back: with it
#: off, am15-01 with 54,577 words solved in 19 s instead of timing out at 60 s, and h0504 with
#: words.txt in 3.9 s instead of 7.9 s (issue-3 measurements, 1 worker).
PRESOLVE = False
#: Fills buffered between the solver thread and the consumer while enumerating.
ENUMERATION_BUFFER = 64

FORMULATIONS = ("letters", "pairs")
#: Shortest time limit handed to CP-SAT (it treats 0 as "no time at all" and answers UNKNOWN).
MIN_SOLVER_SECONDS = 0.01
#: Seconds between checks of the stop signal while CP-SAT runs.
STOP_POLL_SECONDS = 0.1


#: Largest model built: table values (words x columns, summed over the slots' tables). Peak memory
#: per value, building and solving, measured at up to BYTES_PER_TABLE_VALUE (am15-01 with the
#: built-in list: 7.7 million values, 1.6 GB), so the largest model needs about 4 GiB.
MAX_TABLE_VALUES = 20_000_000
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


class ModelTimeout(Exception):
    """The deadline passed, or the stop signal was set, while the model was being built."""


def table_values(problem: FillProblem) -> int:
    """How many values the letter tables of ``problem`` hold (its size, known before building)."""
    graph = problem.graph
    return sum(d.bit_count() * (1 + graph.degree[slot.id]) for slot, d in zip(problem.slots, problem.domains))


@dataclass(frozen=True)
class CpSatOptions:
    """Settings of the ``cpsat`` backend (``--backend-option name=value``).

    Attributes:
        formulation: ``letters`` (glyph variables and one table per slot) or ``pairs`` (a
            table of compatible word pairs per crossing; small problems only).
        optimize: Maximise the total entry score (the result is then ``optimal`` when proved).
        workers: Parallel search workers (default: every core).
        presolve: CP-SAT's presolve (off: measured faster on these table models).
        linearization: CP-SAT's ``linearization_level`` (default: CP-SAT's own).
        isolated: Solve in a child process that is killed at once when the job is stopped or
            its time is up (default: for models of ISOLATE_FROM_VALUES table values and more,
            when there is a time limit or a stop).
    """

    formulation: Literal["letters", "pairs"] = "letters"
    optimize: bool = False
    workers: int | None = None
    presolve: bool = PRESOLVE
    linearization: int | None = None
    isolated: bool | None = None

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError("workers must be 1 or more")


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
        values = self.table_values = table_values(problem)
        if values > MAX_TABLE_VALUES:
            raise InputError(
                f"the CP-SAT model would hold {values:,} table values (at most {MAX_TABLE_VALUES:,}, about "
                f"{MAX_TABLE_VALUES * BYTES_PER_TABLE_VALUE // 2**30} GiB): use the ac backend, a shorter "
                "word list or --min-score"
            )
        self.problem = problem
        self.model = cp_model.CpModel()
        net = problem.network
        self.ids = [WordIndex.id_array(d).tolist() for d in problem.domains]
        self.word_vars: list[cp_model.IntVar] = []
        self.score_vars: list[cp_model.IntVar] = []
        self.symmetric_groups: list[list[cp_model.IntVar]] = []
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
        if not problem.options.allow_duplicates:
            for group in graph.graph["same_length"].values():
                if len(group) > 1:
                    self.model.add_all_different([self.word_vars[self.number[slot_id]] for slot_id in group])
        if problem.options.no_shared_substring is not None:
            self._no_shared_runs(problem.options.no_shared_substring, enumerating)
        if break_symmetry and not optimize:
            self._order_interchangeable_slots()
        if optimize:
            self.model.maximize(sum(self.score_vars))

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
        groups: dict[tuple[int, int], list[cp_model.IntVar]] = {}
        for s, (slot_id, length) in enumerate(self.graph.nodes(data="length")):
            if not self.graph.degree[slot_id]:
                groups.setdefault((length, self.problem.domains[s]), []).append(self.word_vars[s])
        strict = not self.problem.options.allow_duplicates
        self.symmetric_groups = [g for g in groups.values() if len(g) > 1]
        for group in self.symmetric_groups:
            for a, b in itertools.pairwise(group):
                self.model.add(a < b) if strict else self.model.add(a <= b)

    def _letter_tables(self, optimize: bool) -> None:
        import numpy as np

        net = self.problem.network
        glyph_count = max(len(net.lexicon_glyphs), 1)
        cell_vars = {c: self.model.new_int_var(0, glyph_count - 1, f"g{c}") for c in range(net.crossing_count)}
        for s, slot in enumerate(net.slots):
            self._check_deadline()
            index = net.indexes[s]
            crossing = sorted((i, c) for _t, i, _j, c in crossings_of(self.graph, slot.id))
            columns = [self.word_vars[s]] + [cell_vars[c] for _i, c in crossing]
            ids = np.asarray(self.ids[s], dtype=np.int64)
            # one row per word: its id, (its score,) then its glyph at each crossing, built with
            # numpy (a Python loop over a million words took seconds)
            parts = [ids[:, None], index.matrix[ids][:, [i for i, _c in crossing]].astype(np.int64)]
            if optimize:
                score = self.model.new_int_var(
                    min(index.scores, default=0), max(index.scores, default=0), f"s{slot.id}"
                )
                self.score_vars.append(score)
                columns.insert(1, score)
                parts.insert(1, index.score_array[ids][:, None])
            self._add_table(columns, np.hstack(parts))

    def _add_table(self, columns: list[Any], rows: Any) -> None:
        """``add_allowed_assignments(columns, rows)`` for a numpy array of rows, added
        :data:`TABLE_CHUNK_ROWS` at a time, checking the deadline and the stop in between."""
        constraint = self.model.add_allowed_assignments(columns, rows[:1].tolist())
        values = constraint.proto.table.values  # row after row, as add_allowed_assignments keeps them
        for start in range(1, len(rows), TABLE_CHUNK_ROWS):
            self._check_deadline()
            values.extend(rows[start : start + TABLE_CHUNK_ROWS].ravel().tolist())

    def _check_deadline(self) -> None:
        if (self.deadline is not None and time.monotonic() >= self.deadline) or (
            self.stop is not None and self.stop.is_set()
        ):
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

    def words(self, value: Callable[[Any], Any]) -> WordChoice:
        """Slot number -> word id from a solver or callback's ``value`` function."""
        return {s: int(value(var)) for s, var in enumerate(self.word_vars)}


def _parameters(
    time_limit: float | None,
    workers: int | None,
    seed: int,
    presolve: bool = PRESOLVE,
    linearization: int | None = None,
) -> dict[str, Any]:
    """CP-SAT's parameters by name (``SatParameters`` fields)."""
    parameters: dict[str, Any] = {
        "num_workers": workers or os.cpu_count() or 1,
        # CP-SAT's seed is a 32-bit signed integer.
        "random_seed": seed % (1 << 31),
        "cp_model_presolve": bool(presolve),
        # signals are Python's to handle (see _solve_interruptibly); CP-SAT's handler swallowed
        # Ctrl-C and, installed from a racing thread, could abort the process
        "catch_sigint_signal": False,
    }
    if time_limit is not None:
        parameters["max_time_in_seconds"] = float(time_limit)
    if linearization is not None:
        parameters["linearization_level"] = linearization
    return parameters


def _solver(parameters: dict[str, Any]) -> cp_model.CpSolver:
    """A CP-SAT solver with these parameters (from :func:`_parameters`)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    for name, value in parameters.items():
        setattr(solver.parameters, name, value)
    return solver


class CpSatBackend(Backend):
    """OR-Tools CP-SAT: fills, proves unsatisfiability, optimises the total score, enumerates."""

    name = "cpsat"
    description = "OR-Tools CP-SAT on letter tables over arc-consistent domains"
    supports = frozenset({"fill", "prove", "optimize", "enumerate"})
    solver_module = "ortools.sat.python.cp_model"
    solver_distribution = "ortools"

    Options = CpSatOptions
    options: CpSatOptions

    def _hint(self, problem: FillProblem, model: CpSatModel, call: SolveCall) -> None:
        from .ac import ACBackend

        budget = min(HINT_SECONDS, call.time_left() / 4)
        quick = ACBackend(seed=self.seed).solve(problem, time_limit=budget, stop=call.stop)
        if quick.status.has_fill:
            net = problem.network
            for entry in quick.entries:
                s = net.slot_number[entry.id]
                model.model.add_hint(model.word_vars[s], net.indexes[s].position[entry.answer])

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:

        start = call.start
        options = self.options
        try:
            model = CpSatModel(
                problem,
                options.formulation,
                options.optimize,
                break_symmetry=True,
                deadline=call.deadline,
                stop=call.stop,
            )
        except ModelTimeout:
            stats = SearchStats(seconds=time.monotonic() - start)
            if call.stop is not None and call.stop.is_set():
                return FillResult(Status.INTERRUPTED, self.name, stats=stats)
            return FillResult(
                Status.TIMEOUT, self.name, stats=stats, reason="the time limit passed while building the model"
            )
        if options.optimize:
            self._hint(problem, model, call)
        remaining = None if call.deadline is None else max(MIN_SOLVER_SECONDS, call.time_left())
        parameters = _parameters(remaining, options.workers, self.seed, options.presolve, options.linearization)
        try:
            if self._isolate(model, call):
                from .cpsat_process import solve_isolated

                watched = [v.index for v in model.word_vars]
                outcome = solve_isolated(model.model, parameters, watched, deadline=call.deadline, stop=call.stop)
            else:
                outcome = _solve_here(model, parameters, call.stop)
        except KeyboardInterrupt:
            return FillResult(Status.INTERRUPTED, self.name, stats=SearchStats(seconds=time.monotonic() - start))
        stats = SearchStats(seconds=time.monotonic() - start)
        if outcome is None:  # the child was stopped before it answered
            stopped = call.stop is not None and call.stop.is_set()
            return FillResult(Status.INTERRUPTED if stopped else Status.TIMEOUT, self.name, stats=stats)
        stats.nodes, stats.backtracks = outcome.branches, outcome.conflicts
        if outcome.status in ("OPTIMAL", "FEASIBLE"):
            cells, entries = fill_from_words(problem, model.words(lambda var: outcome.values[var.index]))
            if options.optimize and outcome.status == "OPTIMAL":
                result_status = Status.OPTIMAL
            else:
                result_status = Status.FILLED
            result = FillResult(result_status, self.name, cells, entries, stats)
            if options.optimize:
                result.objective = outcome.objective
                result.bound = outcome.bound
            return result
        if outcome.status == "INFEASIBLE":
            return FillResult(Status.UNSATISFIABLE, self.name, stats=stats, reason="CP-SAT proved that no fill exists")
        if outcome.status == "MODEL_INVALID":
            raise RuntimeError(f"CP-SAT rejected the model: {model.model.validate()}")
        return FillResult(Status.TIMEOUT, self.name, stats=stats)

    def _isolate(self, model: CpSatModel, call: SolveCall) -> bool:
        """Solve in a child process (:mod:`.cpsat_process`): when asked to, or, by default, when
        the model is large enough that CP-SAT would not stop in time and the job can be stopped."""
        if self.options.isolated is not None:
            return self.options.isolated
        stoppable = call.deadline is not None or call.stop is not None
        return stoppable and model.table_values >= ISOLATE_FROM_VALUES

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        """Every fill, streamed from a solver thread through a bounded queue."""
        stats = SearchStats()
        return Enumeration(self._stream(problem, stats, call), stats, call.start)

    def _stream(self, problem: FillProblem, stats: SearchStats, call: SolveCall) -> FillGenerator:
        from ortools.sat.python import cp_model

        try:
            model = CpSatModel(
                problem, self.options.formulation, enumerating=True, deadline=call.deadline, stop=call.stop
            )
        except ModelTimeout:
            return False  # incomplete: the time limit passed before any fill was looked for
        remaining = None if call.deadline is None else max(MIN_SOLVER_SECONDS, call.time_left())
        solver = _solver(_parameters(remaining, 1, self.seed))
        solver.parameters.enumerate_all_solutions = True
        fills: queue.Queue[object] = queue.Queue(maxsize=ENUMERATION_BUFFER)
        stop = threading.Event()
        done = object()
        outcome: dict[str, Any] = {}

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                fill = model.words(self.value)
                while not stop.is_set():
                    try:
                        fills.put(fill, timeout=0.1)
                        return
                    except queue.Full:
                        continue
                self.stop_search()

        def run() -> None:
            try:
                outcome["status"] = solver.solve(model.model, Collector())
            finally:
                fills.put(done)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        _watch_stop(solver, call.stop, stop)
        try:
            while True:
                item = fills.get()
                if item is done:
                    break
                yield item  # type: ignore[misc]
        finally:
            stop.set()
            while thread.is_alive():
                try:
                    fills.get(timeout=0.1)
                except queue.Empty:
                    pass
            thread.join()
            stats.nodes = solver.num_branches
            stats.backtracks = solver.num_conflicts
        return outcome.get("status") in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


def _solve_here(model: CpSatModel, parameters: dict[str, Any], stop: StopSignal | None) -> Outcome:
    """Solve in this process (CP-SAT's search runs in a helper thread, see _solve_interruptibly)."""
    from .cpsat_process import Outcome

    solver = _solver(parameters)
    finished = threading.Event()
    _watch_stop(solver, stop, finished)
    try:
        status = _solve_interruptibly(solver, model.model)
    finally:
        finished.set()
    name = solver.status_name(status)
    found = name in ("OPTIMAL", "FEASIBLE")
    values = {var.index: int(solver.value(var)) for var in model.word_vars} if found else {}
    objective = solver.objective_value if found else 0.0
    bound = solver.best_objective_bound if found else 0.0
    return Outcome(name, values, solver.num_branches, solver.num_conflicts, objective, bound)


def _solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Any:
    """``solver.solve(model)`` in a helper thread while this one waits, so a signal (Ctrl-C,
    SIGTERM) reaches Python at once: the search is then stopped and KeyboardInterrupt raised here
    once the solver has returned. (CP-SAT's own SIGINT handler is off: it would swallow Ctrl-C.)"""
    outcome: dict[str, Any] = {}

    def run() -> None:
        outcome["status"] = solver.solve(model)

    thread = threading.Thread(target=run, name="cpsat-solve", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(STOP_POLL_SECONDS)
    except KeyboardInterrupt:
        _stop_until_done(solver, thread)
        raise
    return outcome["status"]


def _stop_until_done(solver: cp_model.CpSolver, thread: threading.Thread) -> None:
    """Stop ``solver``, whose search runs in ``thread``, and wait for it. The stop is asked for
    again at every poll: asked for before the solver's search has begun, it is forgotten when the
    search starts (a race in ``auto`` then ran CP-SAT on for 20-30 s after Ctrl-C)."""
    while thread.is_alive():
        solver.stop_search()
        thread.join(STOP_POLL_SECONDS)


def _watch_stop(solver: cp_model.CpSolver, stop: StopSignal | None, finished: threading.Event) -> None:
    """Stop ``solver`` once ``stop`` is set (cancellation or a race; polled every
    STOP_POLL_SECONDS) until ``finished`` is set."""
    if stop is None:
        return

    def watch() -> None:
        # asked for again at every poll once set: see _stop_until_done
        while not finished.wait(STOP_POLL_SECONDS):
            if stop.is_set():
                solver.stop_search()

    threading.Thread(target=watch, name="cpsat-stop", daemon=True).start()
