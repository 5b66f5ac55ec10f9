"""``check``: is a layout fillable, and if not, which slots are to blame?

The answer has three parts:

* structure: slot lengths against the word list, connectivity, symmetry, unchecked cells and
  entries shorter than ``min_length``;
* solvability: ``solvable`` with a witness fill, ``unsolvable`` (proved), or ``unknown`` when the
  time limit is reached;
* explanation for an unsolvable grid: the slots whose candidates run out under arc consistency,
  and an unsatisfiable core, a set of slots whose constraints cannot all hold together even when
  every other slot is left free, seeded from the failed proof and shrunk to a minimal one when
  the time allows (:mod:`.unsat_core`; ``ac`` decides each step: they are small problems);
* for an unknown answer, the trouble spots: the slots the search blamed most, with their
  candidates left.

The whole job — solving, then the core search — keeps one deadline: the user's time limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..backends import Backend
from ..backends.ac import ACBackend
from ..backends.base import ProgressCallback
from ..core.deadline import Deadline, StopSignal, earliest, time_left
from ..core.grid import Grid
from ..core.result import FillResult, Status
from ..search.graph import components, constraint_graph
from ..search.problem import FillOptions, FillProblem, build_problem
from ..words.lexicon import Lexicon
from .unsat_core import Core, CoreSearch, trouble_spots

#: Seconds for the core search when the job has no time limit.
CORE_BUDGET_SECONDS = 30.0
#: Seconds for the test of whether the grid fills once ``min_score`` and the banned words are
#: lifted: an answer not found in that time is reported as unknown. Without the cap the test took
#: whatever the core left (18 s of a 20 s check on an 8x8 open grid at --min-score 72, whose
#: unfiltered fill with the whole built-in list is hard).
FILTER_TEST_SECONDS = 2.0


@dataclass
class CheckReport:
    """What ``check`` found. ``status`` is ``solvable``, ``unsolvable`` or ``unknown``."""

    status: str
    structure: dict[str, Any]
    witness: FillResult | None = None
    empty: list[tuple[str, str]] = field(default_factory=list)
    core: list[str] | None = None
    core_minimal: bool = False
    patterns: dict[str, str] = field(default_factory=dict)
    reason: str | None = None
    seconds: float = 0.0
    #: For an unsolvable grid checked with ``min_score`` or banned words: True when the grid can
    #: be filled without them (the threshold is the cause), False when it cannot either, None when
    #: no filter applies or there was no time to tell.
    filter_is_cause: bool | None = None
    #: Seconds of the proof (or of the search that ran out), of the core search, and its tests.
    proof_seconds: float = 0.0
    core_seconds: float = 0.0
    core_tests: int = 0
    #: When no answer came in time (or no core was found): (slot id, candidates left at the
    #: root, conflicts in the search), most blamed first.
    trouble: list[tuple[str, int, float]] = field(default_factory=list)
    #: Stopped by Ctrl-C (or SIGTERM/SIGHUP in the CLI): what was found until then is kept.
    interrupted: bool = False


def structure(grid: Grid, lexicon: Lexicon, min_length: int = 3, usable: Lexicon | None = None) -> dict[str, Any]:
    """Structural facts a constructor checks before filling.

    ``usable`` is the word list after ``--min-score`` and ``--ban``: each length then shows the
    words left (``words``) next to the words listed (``listed``).
    """
    stats = grid.stats()
    available = (usable or lexicon).lengths()
    listed = lexicon.lengths() if usable is not None and usable is not lexicon else None
    lengths = []
    for length, count in sorted(stats.length_histogram.items()):
        row = {"length": length, "slots": count, "words": available.get(length, 0)}
        if listed is not None:
            row["listed"] = listed.get(length, 0)
        lengths.append(row)
    missing = [row["length"] for row in lengths if row["words"] == 0]
    short = [slot.id for slot in grid.slots if slot.length < min_length]
    parts = components(constraint_graph(grid))
    return {
        "stats": stats.to_dict(),
        "lengths": lengths,
        "missing_lengths": missing,
        "short_slots": short,
        "min_length": min_length,
        "components": parts,
        "symmetry": list(stats.symmetries) or ["none"],
        "unchecked_cells": stats.unchecked_cells,
    }


def unsat_core(
    problem: FillProblem,
    deadline: Deadline,
    seeds: list[str] | None = None,
    *,
    prover: Backend | None = None,
    blame: dict[str, float] | None = None,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> Core:
    """A set of slots that cannot be filled together (see :mod:`.unsat_core`).

    ``prover`` decides each sub-problem (default ``ac``); ``blame`` is the failed proof's
    conflict count per slot; nothing runs past ``deadline``.
    """
    search = CoreSearch(problem, prover or ACBackend(), deadline, blame, stop, progress)
    return search.find(seeds)


def _filter_is_cause(
    grid: Grid,
    lexicon: Lexicon,
    options: FillOptions,
    prover: Backend,
    deadline: Deadline,
    stop: StopSignal | None,
) -> bool | None:
    """Whether the grid fills once ``min_score`` and the banned words are lifted (within the
    job's deadline)."""
    if options.min_score is None and not options.banned:
        return None
    relaxed = build_problem(grid, lexicon, replace(options, min_score=None, banned=frozenset()))
    if relaxed.unsatisfiable:
        return False
    result = prover.solve(relaxed, deadline=earliest(deadline, time.monotonic() + FILTER_TEST_SECONDS), stop=stop)
    if result.status.has_fill:
        return True
    return False if result.status == Status.UNSATISFIABLE else None


def check(
    grid: Grid,
    lexicon: Lexicon,
    options: FillOptions | None = None,
    *,
    backend: Backend | None = None,
    time_limit: float | None = None,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    min_length: int = 3,
    problem: FillProblem | None = None,
) -> CheckReport:
    """Structure, solvability and (for an unsolvable grid) an explanation.

    ``backend`` (default ``ac``) decides solvability; ``ac`` decides each step of the core search
    (small problems). ``time_limit`` (or ``deadline``) holds for the whole job: when the proof uses it up,
    the core is left out (``core`` None). ``problem``: the problem of these arguments when the
    caller has built it already.
    """
    start = time.monotonic()
    deadline = earliest(deadline, None if time_limit is None else start + time_limit)
    backend = backend or ACBackend()
    options = options or FillOptions()
    problem = problem or build_problem(grid, lexicon, options)
    report = CheckReport("unknown", structure(grid, lexicon, min_length, problem.lexicon))
    result = backend.solve(problem, deadline=deadline, stop=stop, progress=progress)
    report.proof_seconds = result.stats.seconds
    if result.status.has_fill:
        report.status = "solvable"
        report.witness = result
    elif result.status == Status.UNSATISFIABLE:
        report.status = "unsolvable"
        report.empty = list(problem.empty)
        report.reason = result.reason
        core_deadline = deadline if deadline is not None else time.monotonic() + CORE_BUDGET_SECONDS
        if options.min_score is not None or options.banned:
            # leave the threshold test its time (a core that spans the grid can use all of it)
            core_deadline -= min(FILTER_TEST_SECONDS, 0.25 * time_left(core_deadline))
        seeds = [slot_id for slot_id, _ in problem.empty]
        # the core's tests are small problems, which ac decides in milliseconds where CP-SAT
        # spends most of a second building its model (docs/benchmarks.md, unsolvable grids)
        try:
            core = unsat_core(
                problem,
                core_deadline,
                seeds,
                prover=ACBackend(seed=backend.seed),
                blame=result.blame,
                stop=stop,
                progress=progress,
            )
        except KeyboardInterrupt:  # the proof stands; the core search was cut short
            report.interrupted = True
            core = Core(None)
        report.core, report.core_minimal = core.slots, core.minimal
        report.core_seconds, report.core_tests = core.seconds, core.tests
        if report.core is None:
            if report.interrupted:
                report.reason = f"{report.reason}; interrupted while finding the clashing slots"
            elif time_left(core_deadline) <= 0:
                report.reason = f"{report.reason}; no time was left to find the clashing slots"
            report.trouble = trouble_spots(problem, result.blame)
        else:
            report.patterns = {slot_id: grid.pattern_text(grid.slot(slot_id)) for slot_id in report.core}
            if len(report.core) == len(problem.slots) and not report.core_minimal:
                # no smaller clash was proved: where the search struggled says more
                report.trouble = trouble_spots(problem, result.blame)
        if not report.interrupted:
            prover = backend if "prove" in backend.supports else ACBackend(seed=backend.seed)
            report.filter_is_cause = _filter_is_cause(grid, lexicon, options, prover, deadline, stop)
    else:
        report.interrupted = result.status == Status.INTERRUPTED
        if report.interrupted:
            report.reason = "interrupted: no fill found and no proof yet"
        else:
            report.reason = f"{result.status.value}: no fill found and no proof within the time limit"
        report.trouble = trouble_spots(problem, result.blame)
    report.seconds = time.monotonic() - start
    return report
