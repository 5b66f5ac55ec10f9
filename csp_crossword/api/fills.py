"""The library API, part 3: fill, check, count and enumerate a grid — every fill verified."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..backends import DEFAULT as DEFAULT_BACKEND
from ..backends import Backend
from ..core.deadline import Deadline, StopSignal
from ..core.errors import BuildTimeout, InputError

# The `name as name` imports re-export names this module held before the API was split.
from ..core.result import Candidates as Candidates
from ..core.result import FillResult, SearchStats, Status
from .candidates import candidates as candidates
from .candidates import job_candidates as job_candidates
from .inputs import GridLike, Words, job_deadline
from .jobs import STRATEGIES, FillJob, make_backend, prepare
from .jobs import WrongFillError as WrongFillError
from .jobs import fill_options as fill_options

if TYPE_CHECKING:
    from ..analysis.checking import CheckReport
    from ..analysis.counting import CountResult
    from ..backends.base import ProgressCallback
    from ..search.problem import FillProblem
    from ..words.lexicon import Lexicon
    from .portfolio import Member


def fill(
    grid: GridLike,
    words: Words = None,
    *,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    optimize: bool = False,
    optimize_total: bool = False,
    strategy: str = "quality",
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    portfolio: int | Sequence[Member] = 0,
    engine: str = "local",
    address: str | None = None,
    **fill_settings: Any,
) -> FillResult:
    """Fill ``grid`` from ``words``: a verified fill, a proof that none exists, or the best
    partial fill at the time limit (the result's ``status`` says which).

    ``portfolio`` N (2 or more) or a list of :class:`~csp_crossword.api.portfolio.Member`: race that
    many differently seeded and set searches in separate processes, on this machine (``engine``
    ``local``) or a Ray cluster (``engine="ray"``, ``address``); the first verified answer wins
    and the result's ``member`` names it (see :mod:`csp_crossword.api.portfolio`). A ``backend``
    other than the default makes N a pure seed portfolio of that backend.

    ``strategy`` is ``"quality"`` (the default: score floors first, lowered only where the grid
    needs it, see :mod:`csp_crossword.strategies.quality`) or ``"plain"`` (the backend alone, best-scored
    words first). ``optimize``: the highest weakest entry, then the highest total score among the
    fills that keep it (CP-SAT's), starting from the quality-first fill and never below it
    (:mod:`csp_crossword.strategies.optimize`); ``optimize_total``: the highest total alone, the
    weakest entry as it comes (implies ``optimize``).
    ``fill_settings`` are those of :func:`prepare`: ``lang``, ``min_score``, ``ban``,
    ``require`` (slot id -> word), ``allow_duplicates``, ``exact``, ``no_shared_substring``,
    ``spelling``, ``allow_shared_roots``. Two entries that share a root (GREY, GREYED) are kept
    apart unless ``allow_shared_roots`` (:mod:`csp_crossword.strategies.roots`); a pair the grid
    cannot do without is named in the result's ``shared_roots``.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown fill strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    optimize = optimize or optimize_total
    deadline = job_deadline(time_limit, deadline, stop)  # the clock starts before the problem is built
    racing = isinstance(portfolio, bool) or not isinstance(portfolio, int) or portfolio > 1
    if not racing and engine != "local":
        raise InputError(f"engine {engine!r} runs the members of a portfolio: give portfolio=N (2 or more)")
    if racing:  # portfolio_fill refuses what is not a count or a list of members
        from .portfolio import portfolio_fill, portfolio_members

        if optimize:
            raise InputError("a portfolio races for the first fill; it cannot optimise (drop optimize or portfolio)")
        members = portfolio
        if isinstance(portfolio, int) and not isinstance(portfolio, bool) and backend != DEFAULT_BACKEND:
            members = portfolio_members(portfolio, seed=seed, backend=backend, options=backend_options)
        return portfolio_fill(
            grid,
            words,
            members=members,
            engine=engine,
            address=address,
            deadline=deadline,
            seed=seed,
            stop=stop,
            progress=progress,
            **fill_settings,
        )
    started = time.monotonic()
    try:
        solver = make_backend(backend, backend_options, seed=seed, optimize=optimize)  # imports the solver
        try:
            job = prepare(grid, words, deadline=deadline, **fill_settings)
        except BuildTimeout as late:  # nothing placed yet: a timeout, as for a list read too late
            spent = SearchStats(seconds=time.monotonic() - started)
            return FillResult(Status.TIMEOUT, backend, stats=spent, reason=str(late))

        def run(problem: FillProblem) -> FillResult:
            if optimize:
                from ..strategies.optimize import optimize_fill

                result = optimize_fill(
                    problem,
                    solver,
                    deadline=deadline,
                    seed=seed,
                    stop=stop,
                    progress=progress,
                    total_only=optimize_total,
                )
            elif strategy == "quality":
                from ..strategies.quality import quality_first

                result = quality_first(problem, solver, deadline=deadline, stop=stop, progress=progress)
            else:
                result = solver.solve(problem, deadline=deadline, stop=stop, progress=progress)
            return result

        result = run(job.problem)
        if not job.problem.options.allow_shared_roots:
            from ..strategies.roots import without_shared_roots

            result = without_shared_roots(job.problem, result, run, solver=solver, deadline=deadline, stop=stop)
        from ..analysis.weak_spots import explain_weak_spots

        # the slots that force entries below the floor (or make the user's minimum unfillable)
        result = explain_weak_spots(job.problem, result, seed=seed, deadline=deadline, stop=stop)
        if strategy == "quality" and not optimize:
            from ..strategies.confine import confine_weak_entries

            # the weak entries kept to the core that forces them, not scattered over the grid
            result = confine_weak_entries(job.problem, result, solver, deadline=deadline, stop=stop)
    except KeyboardInterrupt:  # Ctrl-C outside a backend's search (loading it, building the problem)
        return FillResult(Status.INTERRUPTED, backend, stats=SearchStats(seconds=time.monotonic() - started))
    return job.checked(result)


def check(
    grid: GridLike,
    words: Words = None,
    *,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    min_length: int = 3,
    **fill_settings: Any,
) -> CheckReport:
    """Whether ``grid`` can be filled (with a verified witness), and if not, which slots clash.

    The time limit holds for the whole job: the proof and the core search together.
    """
    from ..analysis.checking import check as run_check

    deadline = job_deadline(time_limit, deadline, stop)
    solver = make_backend(backend, backend_options, seed=seed)
    job = prepare(grid, words, deadline=deadline, **fill_settings)
    report = run_check(
        job.grid,
        job.lexicon,
        job.problem.options,
        backend=solver,
        deadline=deadline,
        stop=stop,
        progress=progress,
        min_length=min_length,
        problem=job.problem,
    )
    if report.witness is not None:
        job.checked(report.witness)
    return job.rebus.report(report) if job.rebus is not None else report


def export_minizinc(grid: GridLike, words: Words = None, **fill_settings: Any) -> str:
    """The arc-consistent problem as MiniZinc data (``.dzn``) for ``models/crossword.mzn``."""
    from ..search.minizinc import dzn_data

    job = prepare(grid, words, **fill_settings)
    data = dzn_data(job.problem)
    return job.rebus.text(data) if job.rebus is not None else data  # a rebus glyph named by its letters


def count(
    grid: GridLike,
    words: Words = None,
    *,
    limit: int | None = None,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **fill_settings: Any,
) -> CountResult:
    """The number of fills (exact, or a lower bound when ``limit`` or the time limit cut it)."""
    from ..analysis.counting import count_fills

    if limit is not None and limit < 1:
        raise InputError("limit must be 1 or more")
    deadline = job_deadline(time_limit, deadline, stop)
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, deadline=deadline, **fill_settings)
    return count_fills(job.problem, solver, limit, deadline=deadline, stop=stop, progress=progress)


class FillStream:
    """The fills of a problem, each verified, produced lazily.

    Iterate for :class:`FillResult` objects. Afterwards ``complete`` says whether every fill was
    produced and ``stats`` holds the search effort.
    """

    def __init__(
        self,
        job: FillJob,
        solver: Backend,
        limit: int | None,
        deadline: Deadline,
        stop: StopSignal | None,
        progress: ProgressCallback | None,
    ):
        self.job = job
        self.backend = solver.name
        self.limit = limit
        self.produced = 0
        self._progress = progress
        reporting = None if progress is None else self._report
        self._enumeration = solver.enumerate(job.problem, deadline=deadline, stop=stop, progress=reporting)

    def _report(self, stats: SearchStats) -> None:
        # the backend's statistics say "search": progress should say counting, and how many so far
        if self._progress is not None:
            self._progress(replace(stats, phase="count", count=self.produced))

    @property
    def complete(self) -> bool:
        return self._enumeration.complete

    @property
    def stats(self) -> SearchStats:
        return self._enumeration.stats

    @property
    def stopped_by_limit(self) -> bool:
        return not self.complete and self.limit is not None and self.produced >= self.limit

    def __iter__(self) -> Iterator[FillResult]:
        from ..backends.base import fill_from_words

        for words in self._enumeration:
            cells, entries = fill_from_words(self.job.problem, words)
            self.produced += 1
            yield self.job.checked(FillResult(Status.FILLED, self.backend, cells, entries))
            if self.limit is not None and self.produced >= self.limit:
                break


def enumerate_fills(
    grid: GridLike,
    words: Words = None,
    *,
    limit: int | None = None,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **fill_settings: Any,
) -> FillStream:
    """Every fill, verified, one at a time (at most ``limit``); the clock starts now."""
    if limit is not None and limit < 1:
        raise InputError("limit must be 1 or more")
    deadline = job_deadline(time_limit, deadline, stop)
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, deadline=deadline, **fill_settings)
    return FillStream(job, solver, limit, deadline, stop, progress)


#: The entry lengths :func:`warm_up` prepares: those of everyday grids up to 15x15.
WARM_LENGTHS = range(3, 16)


def warm_up(lexicon: Lexicon, lengths: Iterable[int] = WARM_LENGTHS) -> None:
    """Do now, once, what a process's first fill with ``lexicon`` would otherwise pay for:
    import the fill's modules (networkx, numpy, the compiled core) by filling a tiny grid, and
    build the word indexes of ``lengths`` packed for the compiled core. A long-lived process (a
    web worker) calls it while idle, so that its first job costs what any other does."""
    from ..search.propagation_kernel import kernel_module

    available = lexicon.lengths()
    for n in lengths:
        if available.get(n):
            index = lexicon.index(n)
            if kernel_module() is not None:
                index.packed_columns  # noqa: B018 - built on first use, kept with the index
                index.matrix  # noqa: B018
                index.score_array  # noqa: B018
    if available.get(3):
        fill("...\n...\n...", lexicon, time_limit=5.0)  # its result does not matter
