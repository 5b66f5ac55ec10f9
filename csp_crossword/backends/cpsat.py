"""``cpsat``: Google OR-Tools CP-SAT on the arc-consistent problem.

Two formulations (``formulation=``):

* ``letters`` (default): a glyph variable per cell of a crossing, a word variable per slot, and
  one table constraint per slot over (word id, score, glyph of each crossing cell). The tables
  hold only the words that survive arc consistency (``FillProblem.domains``), which is what keeps
  presolve short.
* ``pairs``: a word variable per slot and, per crossing, a table of the compatible (word, word)
  pairs. Exact but the tables grow with the product of the domains, so it is for small problems.

Equal-length slots get an AllDifferent over their word ids unless repeats are allowed (word ids
are shared by every slot of a length, so equal ids mean equal entries). A fill or a proof with
``letters`` is built in glyphs instead (:mod:`.cpsat_layers`: each slot's words as a layered
automaton, the no-repeat rule by pairs of slots), unless a rule over whole words (use limits,
``no_shared_substring``) or an uncrossed slot needs the word tables. With ``no_shared_substring``
N, every run of N glyphs that words of two or more slots' domains contain gets one literal per
such slot ("this slot's word contains the run", implied by the word variable; tied both ways when
enumerating) and an at-most-one over them. With ``optimize`` the
total entry score is maximised from the problem's ``incumbent`` (its first solution and a floor)
or a quick ``ac`` fill; a problem too large to optimise whole keeps each slot's best words
(``cpsat_model.OPTIMIZE_TABLE_VALUES``) and reports the whole problem's bound.

Reference: Perron & Didier, "CP-SAT", OR-Tools (https://developers.google.com/optimization);
the letter-table model is the classical crossword CSP model (e.g. Gecode's crossword example,
"Modeling and Programming with Gecode", case study "Crossword puzzle").
"""

from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..core.limits import MAX_WORKERS
from ..core.result import FillResult, SearchStats, Status
from ..search.problem import FillProblem
from .base import Backend, Enumeration, FillGenerator, SolveCall, fill_from_words
from .cpsat_layers import LayeredModel, layered_applies
from .cpsat_model import (
    ISOLATE_FROM_VALUES,
    CpSatModel,
    ModelTimeout,
    bounded_for_optimizing,
)

# Names this module held before the model had a module of its own.
from .cpsat_model import MAX_TABLE_VALUES as MAX_TABLE_VALUES
from .cpsat_model import table_values as table_values
from .cpsat_process import solve_here, watch_stop

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


#: Seconds of ``ac`` search spent on a hint before optimising.
HINT_SECONDS = 2.0
#: CP-SAT's presolve spends most of the time on these table models without paying back: with it
#: off, am15-01 with 54,577 words solved in 19 s instead of timing out at 60 s, and h0504 with
#: words.txt in 3.9 s instead of 7.9 s (1 worker; docs/benchmarks.md, CP-SAT against ac).
PRESOLVE = False
#: CP-SAT's settings for a fill or a proof (not for ``optimize``), measured on open 5x5 to 7x7
#: grids and the Herald quick set (docs/benchmarks.md, "CP-SAT's search"). With CP-SAT's defaults
#: the time went to loading the table model (probing added two million binary clauses for an open
#: 5x5), to clause inprocessing, and to a search that mostly branched on "slot s does not take
#: word w" (thousands of decisions where one word or glyph would do): the open 5x5 with words.txt
#: took 17 s of CPU. The search follows the model's own order (``CpSatModel.add_search_order``:
#: the fewest glyphs left first), still learning clauses from its conflicts, so a fill or a proof
#: stays complete; one worker keeps the answer the same on every run for a seed.
#: Each decision takes one of the SEARCH_VARIABLE_POOL best variables by the seed (words-h1504:
#: 814 conflicts against over 3,790 with the best always; the open 6x6 with the built-in list: 4).
#: The model's order holds until CP-SAT's first restart, then CP-SAT's own conflict-driven choice
#: takes over (``PARTIAL_FIXED_SEARCH``): an unlucky first order no longer holds the search to the
#: end. Measured in one process, seeds 0-2, 60 s each, on words-h1501, h1504, h1510, h1903, h1506,
#: h2101 and uk-h1909 (docs/benchmarks.md, "After the first restart"): 17 of 21 runs filled
#: against 14 with the model's order throughout; h2101 filled on two seeds (19-24 s) where it never
#: had, h1504 took 27 s on seed 0 against 7 s.
SEARCH_VARIABLE_POOL = 2
FILL_SEARCH: dict[str, Any] = {
    "search_branching": "PARTIAL_FIXED_SEARCH",  # an enum, by its name
    "randomize_search": True,
    "search_random_variable_pool_size": SEARCH_VARIABLE_POOL,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "symmetry_level": 0,
    "use_sat_inprocessing": False,
    # CP-SAT looks through every clause for "x >= one of these" at load; over the no-repeat rule's
    # clauses it made hundreds of thousands of decisions without a conflict first (uk-h1909:
    # 358,000-380,000 branches for 24-41 conflicts, 21 s before the search; without, 211 branches
    # and the whole solve 15 s instead of 36 s). The words.txt Herald instances searched the same
    # conflicts either way, in up to a fifth less time. (Measured with the rule by words, which
    # is now kept for a length of hundreds of slots.)
    "auto_detect_greater_than_at_least_one_of": False,
}
#: Workers of a fill or a proof: one, so that the search (and the fill) is the same on every run
#: for a seed; two on 2 cores raced the same search to the same answer.
FILL_WORKERS = 1

#: Fills buffered between the solver thread and the consumer while enumerating.
ENUMERATION_BUFFER = 64

#: Seconds CP-SAT takes at least to load a model, per table value (it heeds no time limit while it
#: loads): a solve given less would end before its search began, so it is not started. Measured
#: some 2.5 microseconds (the open 6x6 with the built-in list, 1.9 million values: 4.8 s).
LOAD_SECONDS_PER_TABLE_VALUE = 2e-6
#: The largest model a solve with a work budget (a quality-first stage) is started on. CP-SAT
#: counts almost none of its loading as deterministic work (am15-02 with the built-in list, floors
#: 50: 2.6 million values, 0.5 units in 5.1 s wall, 2.0 in 10.3 s), so a stage's budget cannot
#: say whether loading pays: the model's size does, the same on every run. Measured with the
#: built-in list: the first stages of mini-5x5, blocks-7x7 (0.4 million values) and am15-01 (2.2
#: million) fill within 0.01-0.2 units; on am15-02 the stages of 2.6 to 8.8 million values took
#: 5-30 s each and filled nothing before the search without floors.
WORK_LIMITED_MAX_TABLE_VALUES = 2_500_000

#: Shortest time limit handed to CP-SAT (it treats 0 as "no time at all" and answers UNKNOWN).
MIN_SOLVER_SECONDS = 0.01


@dataclass(frozen=True)
class CpSatOptions:
    """Settings of the ``cpsat`` backend (``--backend-option name=value``).

    Attributes:
        formulation: ``letters`` (glyph variables and one table per slot) or ``pairs`` (a
            table of compatible word pairs per crossing; small problems only).
        optimize: Maximise the total entry score (the result is then ``optimal`` when proved).
        workers: Parallel search workers (default: one for a fill or a proof, FILL_WORKERS;
            every core to optimise).
        presolve: CP-SAT's presolve (off: measured faster on these table models).
        linearization: CP-SAT's ``linearization_level`` (default: 0 for a fill or a proof,
            FILL_SEARCH; CP-SAT's own to optimise).
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
        if self.workers is not None and not 1 <= self.workers <= MAX_WORKERS:
            # CP-SAT's parameter is a 32-bit integer: a huge count would end in its own error
            raise ValueError(f"workers must be from 1 to {MAX_WORKERS}")


def _parameters(
    time_limit: float | None,
    workers: int | None,
    seed: int,
    presolve: bool = PRESOLVE,
    linearization: int | None = None,
    fill_search: bool = False,
    work_limit: float | None = None,
) -> dict[str, Any]:
    """CP-SAT's parameters by name (``SatParameters`` fields; an enum's value by its name).
    ``fill_search``: CP-SAT's search for a fill or a proof (FILL_SEARCH, FILL_WORKERS).
    ``work_limit``: CP-SAT's deterministic time (``max_deterministic_time``)."""
    default_workers = FILL_WORKERS if fill_search else os.cpu_count() or 1
    parameters: dict[str, Any] = {
        **(FILL_SEARCH if fill_search else {}),
        "num_workers": workers or default_workers,
        # CP-SAT's seed is a 32-bit signed integer.
        "random_seed": seed % (1 << 31),
        "cp_model_presolve": bool(presolve),
        # signals are Python's to handle (see cpsat_process.solve_here); CP-SAT's handler swallowed
        # Ctrl-C and, installed from a racing thread, could abort the process
        "catch_sigint_signal": False,
    }
    if time_limit is not None:
        parameters["max_time_in_seconds"] = float(time_limit)
    if linearization is not None:
        parameters["linearization_level"] = linearization
    if work_limit is not None:
        parameters["max_deterministic_time"] = float(work_limit)
    return parameters


def _solver(parameters: dict[str, Any]) -> cp_model.CpSolver:
    """A CP-SAT solver with these parameters (from :func:`_parameters`)."""
    from ortools.sat.python import cp_model

    from .cpsat_process import apply_parameters

    solver = cp_model.CpSolver()
    apply_parameters(solver, parameters)
    return solver


class CpSatBackend(Backend):
    """OR-Tools CP-SAT: fills, proves unsatisfiability, optimises the total score, enumerates."""

    name = "cpsat"
    description = "OR-Tools CP-SAT on letter tables over arc-consistent domains"
    supports = frozenset({"fill", "prove", "optimize", "enumerate"})
    solver_module = "ortools.sat.python.cp_model"
    solver_distribution = "ortools"
    #: A work budget is CP-SAT's deterministic time: with one worker and a seed (a fill's
    #: default, FILL_WORKERS) the same search on every run at any load.
    counts_work = True

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

    def _start_from_incumbent(self, problem: FillProblem, model: CpSatModel) -> None:
        """The problem's known fill as the first solution, and its total as a floor: the answer
        is never worse. Interchangeable slots hold its words in increasing order, as the
        symmetry-breaking constraints want."""
        assert problem.incumbent is not None
        words = list(problem.incumbent)
        for group in model.symmetric_slots:
            for s, w in zip(group, sorted(words[s] for s in group), strict=True):
                words[s] = w
        for s, w in enumerate(words):
            model.model.add_hint(model.word_vars[s], w)
        model.model.add(sum(model.score_vars) >= problem.total_score(words))

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:

        start = call.start
        options = self.options
        whole = problem
        cut = False
        if options.optimize:
            problem, cut = bounded_for_optimizing(problem)
        if call.deadline is not None and call.time_left() < table_values(problem) * LOAD_SECONDS_PER_TABLE_VALUE:
            stats = SearchStats(seconds=time.monotonic() - start)
            reason = "the time limit would pass before CP-SAT had loaded its model"
            return FillResult(Status.TIMEOUT, self.name, stats=stats, reason=reason)
        if call.work_limit is not None and table_values(problem) > WORK_LIMITED_MAX_TABLE_VALUES:
            # decided from the model's size alone: the same on every run
            stats = SearchStats(seconds=time.monotonic() - start)
            reason = "the model is too large to load for a search with a work budget"
            return FillResult(Status.TIMEOUT, self.name, stats=stats, reason=reason)
        layered = not options.optimize and options.formulation == "letters" and layered_applies(problem)
        try:
            model: CpSatModel | LayeredModel
            if layered:
                model = LayeredModel(problem, deadline=call.deadline, stop=call.stop)
            else:
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
            reason = "the time limit passed while building the model"
            return FillResult(Status.TIMEOUT, self.name, stats=stats, reason=reason)
        if isinstance(model, LayeredModel) or not options.optimize:
            model.add_search_order()
        elif problem.incumbent is not None:
            self._start_from_incumbent(problem, model)
        else:
            self._hint(problem, model, call)
        # a fill or a proof gets no time limit of CP-SAT's own: with one, two runs of am15-02 with
        # the built-in list beside each other took 163 and 706 conflicts to two fills (without,
        # both 163 and the same fill); its deadline is watched from outside (cpsat_process)
        timed = options.optimize and call.deadline is not None
        remaining = max(MIN_SOLVER_SECONDS, call.time_left()) if timed else None
        parameters = _parameters(
            remaining,
            options.workers,
            self.seed,
            options.presolve,
            options.linearization,
            fill_search=not options.optimize,
            work_limit=call.work_limit,
        )
        try:
            if self._isolate(model, call):
                from .cpsat_process import solve_isolated

                watched = [v.index for v in model.solution_vars]
                outcome = solve_isolated(model.model, parameters, watched, deadline=call.deadline, stop=call.stop)
            else:
                outcome = solve_here(model, parameters, call.stop, call.deadline)
        except KeyboardInterrupt:
            return FillResult(Status.INTERRUPTED, self.name, stats=SearchStats(seconds=time.monotonic() - start))
        stats = SearchStats(seconds=time.monotonic() - start)
        if outcome is None:  # the child was stopped before it answered
            stopped = call.stop is not None and call.stop.is_set()
            return FillResult(Status.INTERRUPTED if stopped else Status.TIMEOUT, self.name, stats=stats)
        stats.nodes, stats.backtracks = outcome.branches, outcome.conflicts
        found = outcome.status in ("OPTIMAL", "FEASIBLE")
        choice = model.words(outcome.value_of) if found else {}
        if found:
            cells, entries = fill_from_words(problem, choice)
            if options.optimize and outcome.status == "OPTIMAL" and not cut:
                result_status = Status.OPTIMAL
            else:
                result_status = Status.FILLED
            result = FillResult(result_status, self.name, cells, entries, stats)
            if options.optimize:
                result.objective = outcome.objective
                # a cut model's bound holds for it alone: the whole problem's is every slot's best word
                result.bound = whole.score_bound() if cut else outcome.bound
            return result
        if outcome.status == "INFEASIBLE" and problem.incumbent is not None:  # cannot happen: it is a solution
            raise RuntimeError("CP-SAT refused the known fill it was to improve on")
        if outcome.status == "INFEASIBLE":
            return FillResult(Status.UNSATISFIABLE, self.name, stats=stats, reason="CP-SAT proved that no fill exists")
        if outcome.status == "MODEL_INVALID":
            raise RuntimeError(f"CP-SAT rejected the model: {model.model.validate()}")
        return FillResult(Status.TIMEOUT, self.name, stats=stats)

    def _isolate(self, model: CpSatModel | LayeredModel, call: SolveCall) -> bool:
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
        watch_stop(solver, call.stop, stop)
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
