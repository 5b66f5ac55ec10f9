"""The library API, part 2: fill, check, count and enumerate a grid — every fill verified."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..backends import DEFAULT as DEFAULT_BACKEND
from ..backends import Backend, get_backend, names
from ..deadline import Deadline, StopSignal, deadline_after, earliest
from ..errors import InputError
from ..glyphs import is_cell_glyph, normalize_entry, split_glyphs
from ..grid import Grid, Slot
from ..lexicon import Lexicon
from ..ngrams import check_run_length
from ..problem import FillOptions, FillProblem, build_problem
from ..result import FillResult, SearchStats, Status
from ..verify import verify_fill
from .inputs import GridLike, Words, as_grid, as_lexicon

if TYPE_CHECKING:
    from ..backends.base import Cells, ProgressCallback
    from ..checking import CheckReport
    from ..counting import CountResult
    from ..portfolio import Member


class WrongFillError(RuntimeError):
    """A backend produced a fill the independent verifier rejects: a bug, never a result."""


def fill_options(
    grid: Grid,
    *,
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
    no_shared_substring: int | None = None,
) -> FillOptions:
    """The fill options, checked against the grid (InputError for a slot it does not have)."""
    if min_score is not None and min_score < 0:
        raise InputError("min_score must be 0 or more")
    if no_shared_substring is not None:
        try:
            check_run_length(no_shared_substring)
        except ValueError as error:
            raise InputError(str(error)) from None
    pairs = list(require.items()) if isinstance(require, Mapping) else list(require or [])
    required: list[tuple[str, str]] = []
    for slot_id, word in pairs:
        if not str(slot_id).strip() or not str(word).strip():
            raise InputError(f"required entry {slot_id}={word}: give a slot id and a word, e.g. 1A=CROSSWORD")
        try:
            slot = grid.slot(slot_id)
        except KeyError:
            raise InputError(f"the grid has no slot {slot_id.strip().upper()}", grid.source) from None
        _check_required(grid, slot, word, required)
        required.append((slot.id, word.strip()))
    return FillOptions(
        allow_duplicates=allow_duplicates,
        min_score=min_score,
        banned=frozenset(ban),
        required=tuple(required),
        exact=exact,
        no_shared_substring=no_shared_substring,
    )


def _check_required(grid: Grid, slot: Slot, word: str, earlier: list[tuple[str, str]]) -> None:
    """A required word must be glyphs that can fill cells, as many as the slot has, agreeing with
    the slot's given glyphs and with any earlier requirement for the same slot."""
    glyphs = split_glyphs(normalize_entry(word))
    where = f"required entry {slot.id}={word}"
    bad = [g for g in glyphs if not is_cell_glyph(g)]
    if bad:
        raise InputError(f"{where}: {bad[0]!r} cannot fill a cell (letters and digits only)")
    if len(glyphs) != slot.length:
        raise InputError(f"{where}: {len(glyphs)} letters for a slot of {slot.length}")
    pattern = grid.pattern(slot)
    if any(given and given != g for given, g in zip(pattern, glyphs, strict=True)):
        raise InputError(f"{where}: clashes with the given letters {grid.pattern_text(slot)}")
    for other_id, other in earlier:
        if other_id == slot.id and normalize_entry(other) != normalize_entry(word):
            raise InputError(f"{where}: {slot.id} is already required to be {other}")


def make_backend(
    name: str = DEFAULT_BACKEND,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    job: str = "fill",
    optimize: bool = False,
) -> Backend:
    """The backend registered as ``name``, able to do ``job``, with its options checked."""
    cls = get_backend(name)
    if not cls.available():
        raise InputError(f"backend {name} is not available here (see 'csp-crossword backends')")
    if job not in cls.supports:
        able = [n for n in names() if job in get_backend(n).supports]
        raise InputError(f"backend {name} cannot {job}; use one of: {', '.join(able)}")
    values = dict(options or {})
    if optimize:
        if "optimize" not in cls.supports:
            able = [n for n in names() if "optimize" in get_backend(n).supports]
            raise InputError(f"backend {name} cannot optimise; use one of: {', '.join(able)}")
        values["optimize"] = True
    return cls(values, seed=seed)


@dataclass(frozen=True)
class FillJob:
    """A grid, its word list and the options, compiled into a problem once."""

    grid: Grid
    lexicon: Lexicon
    problem: FillProblem

    def verify(self, cells: Cells) -> list[str]:
        """The independent verifier's complaints about a fill of this problem (empty: valid)."""
        problem = self.problem
        return verify_fill(
            self.grid,
            cells,
            problem.lexicon,
            allow_duplicates=problem.options.allow_duplicates,
            extra_words=problem.extra_words,
            exact_uses=problem.word_uses if problem.options.exact else None,
            no_shared_substring=problem.options.no_shared_substring,
        )

    def checked(self, result: FillResult) -> FillResult:
        """``result``, after the verifier accepted its fill (WrongFillError otherwise)."""
        if result.status.has_fill and result.cells is not None:
            problems = self.verify(result.cells)
            if problems:
                raise WrongFillError(f"backend {result.backend} returned an invalid fill: {problems[0]}")
        return result


#: Fill strategies, the default first (see :func:`fill`).
STRATEGIES = ("quality", "plain")


def prepare(
    grid: GridLike,
    words: Words = None,
    *,
    lang: str = "en",
    min_score: int | None = None,
    ban: Iterable[str] = (),
    require: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    allow_duplicates: bool = False,
    exact: bool = False,
    no_shared_substring: int | None = None,
) -> FillJob:
    """Grid + word list + options -> the arc-consistent problem every job starts from.

    ``no_shared_substring`` N: no two entries share a run of N or more consecutive glyphs."""
    grid = as_grid(grid, rtl=lang == "ar")
    lexicon = as_lexicon(words, lang=lang)
    options = fill_options(
        grid,
        min_score=min_score,
        ban=ban,
        require=require,
        allow_duplicates=allow_duplicates,
        exact=exact,
        no_shared_substring=no_shared_substring,
    )
    return FillJob(grid, lexicon, build_problem(grid, lexicon, options))


def fill(
    grid: GridLike,
    words: Words = None,
    *,
    backend: str = DEFAULT_BACKEND,
    backend_options: Mapping[str, Any] | None = None,
    optimize: bool = False,
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

    ``portfolio`` N (2 or more) or a list of :class:`~csp_crossword.portfolio.Member`: race that
    many differently seeded and set searches in separate processes, on this machine (``engine``
    ``local``) or a Ray cluster (``engine="ray"``, ``address``); the first verified answer wins
    and the result's ``member`` names it (see :mod:`csp_crossword.portfolio`). A ``backend``
    other than the default makes N a pure seed portfolio of that backend.

    ``strategy`` is ``"quality"`` (the default: score floors first, lowered only where the grid
    needs it, see :mod:`csp_crossword.quality`) or ``"plain"`` (the backend alone, best-scored
    words first). ``optimize`` (CP-SAT's best total score) implies ``"plain"``.
    ``fill_settings`` are those of :func:`prepare`: ``lang``, ``min_score``, ``ban``,
    ``require`` (slot id -> word), ``allow_duplicates``, ``exact``, ``no_shared_substring``.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"unknown fill strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    deadline = earliest(deadline, deadline_after(time_limit))  # the clock starts before the problem is built
    racing = isinstance(portfolio, bool) or not isinstance(portfolio, int) or portfolio > 1
    if not racing and engine != "local":
        raise InputError(f"engine {engine!r} runs the members of a portfolio: give portfolio=N (2 or more)")
    if racing:  # portfolio_fill refuses what is not a count or a list of members
        from ..portfolio import portfolio_fill, portfolio_members

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
        job = prepare(grid, words, **fill_settings)
        if strategy == "quality" and not optimize:
            from ..quality import quality_first

            result = quality_first(job.problem, solver, deadline=deadline, stop=stop, progress=progress)
        else:
            result = solver.solve(job.problem, deadline=deadline, stop=stop, progress=progress)
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
    from ..checking import check as run_check

    deadline = earliest(deadline, deadline_after(time_limit))
    solver = make_backend(backend, backend_options, seed=seed)
    job = prepare(grid, words, **fill_settings)
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
    return report


@dataclass(frozen=True)
class Candidates:
    """The words that still fit one slot once every crossing is arc consistent, best first, with
    what placing each does to the rest of the grid (:mod:`csp_crossword.lookahead`).

    Attributes:
        slot: The slot.
        pattern: Its pattern (``C?T``).
        total: How many words fit (``words`` may hold fewer, up to the limit asked).
        words: (entry, display form, score), best score first.
        unsatisfiable: Why the grid cannot be filled at all, when propagation alone proves it
            (then ``words`` is empty).
        statuses: Per row of ``words``: ``"viable"`` (every slot keeps a word once it is placed
            and arc consistency has run again), ``"dead_end"`` (some slot is left without a
            word) or ``"unknown"`` (not checked within the time budget).
        crossings: Per row, crossing slot id -> words that crossing keeps once the word is
            placed (forward check), in the order of the slot's cells.
        emptied: Per row, for a dead end, the slot its placing leaves without a word.
        dead_ends: Known dead ends among all ``total`` words (not only the rows).
        viable: Words checked and found viable.
        examined: Words checked by full propagation.
        budget_spent: The checks ran out of time before every word they were to examine.
        viable_only: The rows skip dead ends (``unknown`` rows follow once the budget is spent).
    """

    slot: Slot
    pattern: str
    total: int
    words: list[tuple[str, str, int]]
    unsatisfiable: str | None = None
    statuses: list[str] = field(default_factory=list)
    crossings: list[dict[str, int]] = field(default_factory=list)
    emptied: list[str | None] = field(default_factory=list)
    dead_ends: int = 0
    viable: int = 0
    examined: int = 0
    budget_spent: bool = False
    viable_only: bool = False

    @property
    def unknown(self) -> int:
        """Words of ``total`` neither known dead ends nor checked viable."""
        return self.total - self.dead_ends - self.viable


def candidates(
    grid: GridLike,
    slot_id: str,
    words: Words = None,
    *,
    limit: int | None = 20,
    lookahead: bool = True,
    viable_only: bool = False,
    check_seconds: float | None = None,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
    **fill_settings: Any,
) -> Candidates:
    """The ranked words that still fit slot ``slot_id`` (``limit`` None or 0: all of them), each
    marked viable, dead end or unknown (see :func:`job_candidates`)."""
    if limit is not None and limit < 0:
        raise InputError("limit must be 0 or more")
    job = prepare(grid, words, **fill_settings)
    return job_candidates(
        job,
        slot_id,
        limit=limit,
        lookahead=lookahead,
        viable_only=viable_only,
        check_seconds=check_seconds,
        deadline=deadline,
        stop=stop,
    )


def job_candidates(
    job: FillJob,
    slot_id: str,
    *,
    limit: int | None = 20,
    lookahead: bool = True,
    viable_only: bool = False,
    check_seconds: float | None = None,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> Candidates:
    """:func:`candidates` of a prepared job (the web page keeps its jobs and asks again).

    ``lookahead`` places the best words one by one and runs full arc consistency for up to
    ``check_seconds`` (default ``lookahead.CHECK_SECONDS``; ``deadline`` and ``stop`` end it
    sooner); without it every row not refuted by the forward check is ``unknown``.
    ``viable_only`` skips dead ends and checks on down the list until ``limit`` viable words
    are found (``unknown`` ones fill the rows once the budget is spent: ``budget_spent``).
    """
    from ..lookahead import CHECK_SECONDS, look_ahead

    if limit is not None and limit < 0:
        raise InputError("limit must be 0 or more")
    if viable_only and not lookahead:
        raise InputError("viable_only needs the look-ahead")
    if check_seconds is not None and not check_seconds >= 0:
        raise InputError("the check time must be 0 seconds or more")
    try:
        slot = job.grid.slot(slot_id)
    except KeyError:
        raise InputError(f"the grid has no slot {slot_id.strip().upper()!r}", job.grid.source) from None
    problem = job.problem
    pattern = job.grid.pattern_text(slot)
    if problem.unsatisfiable:
        reason = "; ".join(f"{sid}: {why}" for sid, why in problem.empty)
        return Candidates(slot, pattern, 0, [], reason, viable_only=viable_only)
    outlook = look_ahead(
        problem,
        slot.id,
        limit=limit or None,
        viable_only=viable_only,
        propagate=lookahead,
        budget=CHECK_SECONDS if check_seconds is None else check_seconds,
        deadline=deadline,
        stop=stop,
    )
    return Candidates(
        slot,
        pattern,
        outlook.total,
        [(row.entry, problem.lexicon.display_form(row.entry), row.score) for row in outlook.words],
        statuses=[row.verdict.value for row in outlook.words],
        crossings=[dict(row.crossings) for row in outlook.words],
        emptied=[row.emptied for row in outlook.words],
        dead_ends=outlook.dead_ends,
        viable=outlook.viable,
        examined=outlook.examined,
        budget_spent=outlook.budget_spent,
        viable_only=viable_only,
    )


def export_minizinc(grid: GridLike, words: Words = None, **fill_settings: Any) -> str:
    """The arc-consistent problem as MiniZinc data (``.dzn``) for ``models/crossword.mzn``."""
    from ..minizinc import dzn_data

    return dzn_data(prepare(grid, words, **fill_settings).problem)


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
    from ..counting import count_fills

    if limit is not None and limit < 1:
        raise InputError("limit must be 1 or more")
    deadline = earliest(deadline, deadline_after(time_limit))
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, **fill_settings)
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
    deadline = earliest(deadline, deadline_after(time_limit))
    solver = make_backend(backend, backend_options, seed=seed, job="enumerate")
    job = prepare(grid, words, **fill_settings)
    return FillStream(job, solver, limit, deadline, stop, progress)
