"""The library API, part 4: the ranked words that still fit one slot, each checked by look-ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.deadline import Deadline, StopSignal
from ..core.errors import InputError
from ..core.result import Candidates
from .inputs import GridLike, Words, job_deadline
from .jobs import FillJob, prepare

if TYPE_CHECKING:
    pass


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

    ``lookahead`` places the best words one by one and runs full arc consistency, as many times
    as ``check_seconds`` (default ``lookahead.CHECK_SECONDS``) buys on this grid
    (``lookahead.check_budget``: a number of checks, so the statuses are the same at any
    machine load; the clock caps it at ``lookahead.check_cap``, and ``deadline`` and ``stop``
    end it sooner); without it every row not refuted by the forward check is ``unknown``.
    ``viable_only`` skips dead ends and checks on down the list until ``limit`` viable words
    are found (``unknown`` ones fill the rows once the budget is spent: ``budget_spent``).
    """
    from ..search.lookahead import CHECK_SECONDS, look_ahead

    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InputError(f"limit must be a whole number, 0 or more, or None, not {limit!r}")
    if not isinstance(slot_id, str):
        raise InputError(f"a slot is named by its id such as '1A', not {slot_id!r}")
    job_deadline(None, deadline, stop)  # refuses what is not a deadline or a stop signal
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
        reason = problem.empty_reason()
        found = Candidates(slot, pattern, 0, [], reason, viable_only=viable_only)
        return job.rebus.candidates(found) if job.rebus is not None else found
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
    found = Candidates(
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
    return job.rebus.candidates(found) if job.rebus is not None else found
