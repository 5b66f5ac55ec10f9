"""Seed and solver portfolios: one grid, several differently-seeded or differently-set searches
racing on separate workers; the first verified fill or proof wins and the others are stopped.

Fill times are heavy-tailed: on the Herald set one instance takes 0.5 s with one seed and 25 s
with another. Members that differ in seed, value order, restarts or solver (``ac`` and CP-SAT)
fail in different places, so the race's time is the minimum of theirs (docs/scaling.md measures
how much that buys). Each member runs in its own process, on this machine (the ``local`` engine:
members are forked from the caller, so the word list and the compiled problem are shared, not
copied or loaded again) or on a Ray cluster (each member loads the word list, once per Ray worker).
A member's answer is checked here, by the independent verifier, before it can win.
"""

from __future__ import annotations

import functools
import os
import pickle
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal, deadline_after, time_left
from ..core.errors import InputError
from ..core.result import FillResult, SearchStats, Status

if TYPE_CHECKING:
    from ..backends.base import ProgressCallback
    from .inputs import GridLike, Words
    from .jobs import FillJob


@dataclass(frozen=True)
class Member:
    """One member of a portfolio: a backend with its options, a fill strategy and a seed."""

    backend: str = "ac"
    seed: int = 0
    strategy: str = "quality"
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        settings = "".join(f", {key}={value}" for key, value in sorted(self.options.items()))
        return f"{self.backend} seed {self.seed}, {self.strategy}{settings}"


#: The recipes members cycle through, each with its own seed (member i: seed + i). The first is
#: ``fill``'s own default, so a portfolio never does worse than the plain command on its first
#: member; CP-SAT (one thread: the portfolio is the parallelism) learns clauses, which proves
#: unsatisfiable grids and escapes some heavy tails that ``ac`` falls into.
RECIPES: tuple[Member, ...] = (
    Member("ac", strategy="quality"),
    Member("cpsat", strategy="plain", options={"workers": 1}),
    Member("ac", strategy="plain"),
    Member("ac", strategy="quality", options={"restart_policy": "luby"}),
    Member("ac", strategy="plain", options={"branching": "letter"}),
)
#: Most members of a portfolio raced on a cluster (a typo such as 10**9 is refused, not built).
MAX_CLUSTER_MEMBERS = 10_000
#: Seconds between two looks at the race (and two progress reports).
POLL_SECONDS = 0.2
#: Members end this much before the race's deadline (at most PARTIAL_SHARE of the time left), so
#: their best partial fills reach the driver before it must answer.
PARTIAL_MARGIN = 0.5
PARTIAL_SHARE = 0.25
#: Most members of a race on this machine, per core: more only time-share the cores, and starting
#: them eats into the time limit.
MEMBERS_PER_CORE = 4


def portfolio_members(
    size: int, *, seed: int = 0, backend: str | None = None, options: Mapping[str, Any] | None = None
) -> list[Member]:
    """``size`` members: the recipes in turn (or ``backend`` with ``options`` only: a pure seed
    portfolio), member i with seed ``seed + i``."""
    if size < 1:
        raise InputError("a portfolio needs 1 member or more")
    if backend is not None:
        strategy = "quality" if backend == "ac" else "plain"
        return [Member(backend, seed + i, strategy, dict(options or {})) for i in range(size)]
    return [replace(RECIPES[i % len(RECIPES)], seed=seed + i) for i in range(size)]


def solve_member(job: FillJob, task: tuple[Member, float]) -> FillResult:
    """Run one member on a prepared job for ``seconds`` (in the member's own process); its fill
    keeps entries that share a root apart, as :func:`~csp_crossword.api.fill` does."""
    from functools import partial

    from ..strategies.quality import quality_first
    from ..strategies.roots import without_shared_roots
    from .jobs import make_backend

    member, seconds = task
    deadline = deadline_after(seconds)
    solver = make_backend(member.backend, member.options, seed=member.seed)
    run = partial(quality_first, solver=solver, deadline=deadline) if member.strategy == "quality" else None
    result = run(job.problem) if run is not None else solver.solve(job.problem, deadline=deadline)
    if result.status == Status.FILLED and not job.problem.options.allow_shared_roots:
        again = run if run is not None else partial(solver.solve, deadline=deadline)
        result = without_shared_roots(job.problem, result, again, solver=solver, deadline=deadline)
    return result


def solve_member_from_words(grid: Any, words: Any, settings: Mapping[str, Any], task: tuple[Member, float]) -> Any:
    """Run one member where the caller's memory is not shared (a Ray worker): the job is prepared
    here, from the grid and the word list (a :class:`~.word_sources.WordSource` is loaded once per
    worker)."""
    from .jobs import prepare
    from .word_sources import WordSource, worker_cache

    lexicon = worker_cache().lexicon(words) if isinstance(words, WordSource) else words
    return solve_member(prepare(grid, lexicon, **settings), task)


def portfolio_fill(
    grid: GridLike,
    words: Words | Any = None,
    *,
    members: int | Sequence[Member] = 2,
    engine: str = "local",
    address: str | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    seed: int = 0,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    **settings: Any,
) -> FillResult:
    """Race ``members`` (a count: :func:`portfolio_members`) on ``grid``; the first verified fill
    or proof of unsatisfiability wins, the other members are stopped at once. The result's
    ``member`` names the winner. Without a winner by the deadline: the best partial fill (status
    ``timeout``, or ``interrupted`` when ``stop`` was set or Ctrl-C pressed).

    ``words`` may also be a :class:`~.word_sources.WordSource`: on Ray, members load it themselves.
    ``settings`` are those of :func:`csp_crossword.api.prepare`.
    """
    from ..engines import Task, make_engine
    from .inputs import job_deadline
    from .jobs import prepare
    from .word_sources import WordSource

    deadline = job_deadline(time_limit, deadline, stop)
    started = time.monotonic()
    if isinstance(members, bool) or not isinstance(members, int | Sequence) or isinstance(members, str):
        raise InputError(f"portfolio: a number of members or a list of Member: {members!r}")
    count = members if isinstance(members, int) else len(members)
    most = MEMBERS_PER_CORE * (os.cpu_count() or 1)
    if engine == "local" and count > most:  # before any member is made: a huge count costs nothing
        raise InputError(f"a portfolio of {count:,} on this machine: at most {most} ({MEMBERS_PER_CORE} per core)")
    if engine != "local" and count > MAX_CLUSTER_MEMBERS:
        raise InputError(f"a portfolio of {count:,}: at most {MAX_CLUSTER_MEMBERS:,} on a cluster")
    chosen = portfolio_members(members, seed=seed) if isinstance(members, int) else list(members)
    if not chosen or not all(isinstance(m, Member) for m in chosen):
        raise InputError("portfolio: a list of one Member or more")
    source = words if isinstance(words, WordSource) else None
    lexicon = _source_lexicon(source) if source is not None else words
    job = prepare(grid, lexicon, **settings)  # checks the answers, and is what local members fork with
    if engine == "local":
        run: Any = functools.partial(solve_member, job)
        racers = make_engine("local", run, workers=len(chosen), start_method="fork")
    else:
        shipped = source if source is not None else _picklable(lexicon)
        # the grid as written: a member reads its rebus cells again, with the same stand-ins
        written = job.rebus.original if job.rebus is not None and job.rebus.original is not None else job.grid
        run = functools.partial(solve_member_from_words, written, shipped, settings)
        racers = make_engine(engine, run, workers=len(chosen), address=address)
    best: FillResult | None = None
    winner: FillResult | None = None
    failures: list[str] = []
    try:
        seconds = time_left(deadline)
        limit = None if seconds == float("inf") else seconds - min(PARTIAL_MARGIN, PARTIAL_SHARE * seconds)
        for number, member in enumerate(chosen):
            racers.submit(Task(str(number), (member, limit if limit is not None else 1e9), limit))
        while racers.outstanding() and winner is None:
            if (stop is not None and stop.is_set()) or time_left(deadline) <= 0:
                break
            for done in racers.wait(min(POLL_SECONDS, time_left(deadline))):
                member = chosen[int(done.task.id)]
                if done.kind != "ok":
                    failures.append(f"{member.name}: {done.reason}")
                    continue
                result: FillResult = job.checked(done.value)  # a wrong fill raises: never returned
                result.member = f"{int(done.task.id) + 1} of {len(chosen)}: {member.name}"
                if result.status.has_fill or result.status == Status.UNSATISFIABLE:
                    winner = result
                    break
                if best is None or len(result.entries) > len(best.entries):
                    best = result
            if progress is not None:
                # the members search in their own processes: the race reports how many still run
                progress(SearchStats(nodes=racers.outstanding(), seconds=time.monotonic() - started, phase="race"))
    except KeyboardInterrupt:
        stopped = True
    else:
        stopped = stop is not None and stop.is_set()
    finally:
        racers.shutdown()  # the losers are killed here: no member outlives the race
    elapsed = time.monotonic() - started
    if winner is not None:
        from ..analysis.weak_spots import explain_weak_spots

        winner.stats.seconds = elapsed
        # the slots that force entries below the floor (or make the user's minimum unfillable)
        return explain_weak_spots(job.problem, winner, seed=seed, deadline=deadline, stop=stop)
    status = Status.INTERRUPTED if stopped else Status.TIMEOUT
    reason = "; ".join(failures) if failures and len(failures) == len(chosen) else None
    if best is None:
        return FillResult(status, "portfolio", stats=SearchStats(seconds=elapsed), reason=reason)
    return replace(best, status=status, stats=replace(best.stats, seconds=elapsed))


def _source_lexicon(source: Any) -> Any:
    from .word_sources import WordCache

    return WordCache().lexicon(source)


def _picklable(lexicon: Any) -> Any:
    """The word list as members on other machines receive it (InputError when it cannot travel)."""
    try:
        pickle.dumps(lexicon)
    except (TypeError, pickle.PicklingError):
        raise InputError(
            "this word list cannot be sent to Ray workers; give the list as files or a WordSource"
        ) from None
    return lexicon


__all__ = ["Member", "RECIPES", "portfolio_fill", "portfolio_members", "solve_member"]
