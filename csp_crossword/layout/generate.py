"""``generate``: choose the blocks and fill the grid, given only a size and a word list.

Two styles:

* ``american``: the grids newspapers print (symmetric, all cells checked, entries of 3+
  letters), filled with the quality-first fill and repaired where it gets stuck
  (:mod:`.american`);
* ``open``: any blocks, entries of 2+ letters, unchecked cells allowed (Darwish's layouts), by
  the methods below.

The open style's two methods, tried in this order by :func:`generate`:

* ``csp``: draw block patterns with :func:`~csp_crossword.layout.patterns.random_pattern` and
  fill each with the ``ac`` backend until one fills (the arc-consistency check rejects most
  unfillable patterns before any search);
* ``progressive``: the progressive search of ``layout/progressive.py`` for the rest of the
  budget, with its knobs (queue size, neighbours, threshold, Fill_1 or Fill_2 start) in
  :class:`~csp_crossword.layout.progressive.ProgressiveOptions`.

Both methods spend a budget of work, not of seconds, so the same inputs and seed give the same
grid at any machine load: the time limit asked buys :data:`CSP_NODES_PER_SECOND` search nodes a
second for the CSP path (:data:`PATTERN_NODES` at most a pattern) and
:data:`PROGRESSIVE_WORK_PER_SECOND` units a second for progressive search. The whole job also
keeps one deadline (the time limit from the start) as the outer cap: every pattern fill and the
progressive search stop at it, and only a machine two to three times slower than an idle core
reaches it first. The result says which method produced it; every fill is checked
by ``verify_fill``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from ..backends.ac import ACBackend
from ..backends.base import MAX_SEED, ProgressCallback
from ..core.deadline import Deadline, StopSignal, earliest, expired
from ..core.grid import Grid, Slot
from ..core.result import Entry, FillResult, SearchStats, Status
from ..search.problem import FillOptions, build_problem
from ..strategies.roots import without_shared_roots
from ..verify.fill import verify_fill
from ..words.lexicon import Lexicon
from .american import generate_american
from .american_patterns import LayoutRuleError, PatternRules
from .patterns import random_pattern
from .progressive import Layout, ProgressiveOptions, ProgressiveSearch

#: Share of the budget given to the CSP path before progressive search takes over (``auto``).
CSP_SHARE = 0.6
#: Search nodes of ``ac`` per candidate pattern; a pattern not filled within them is dropped. On
#: patterns that do not fill (7x7 to 12x12, runs as long as the side, the built-in list) ``ac``
#: makes 3,000 to 12,000 nodes a second on an idle core: half a second to 1.5 s a pattern.
PATTERN_NODES = 5_000
#: The CSP path's budget: this many search nodes per second of the time limit, each pattern drawn
#: charged PATTERN_CHARGE nodes besides its search's (drawing and building it takes 2 to 10 ms).
#: A third of the slowest rate above (4,500 nodes a second on the 10x10 with runs of 10; 2,400
#: with a load average of 6 on 2 cores), so that a busy machine still ends on the budget.
CSP_NODES_PER_SECOND = 1_500
PATTERN_CHARGE = 20
#: Progressive search's budget: this many units of work per second of the time limit, a step
#: (one neighbour made and costed) weighing rows + cols units, since it re-costs the changed
#: columns and counts the grid's entries again. Measured on an idle core (5x5 to 15x15, runs of 5
#: to 15, the built-in list): 107,000 to 183,000 units a second; this is about half the slowest.
PROGRESSIVE_WORK_PER_SECOND = 50_000
#: Longest run of open cells when none is given: longer runs make most random patterns
#: unfillable (8x8 to 12x12 with the built-in list found no fillable pattern in 12 s at full
#: width, and one at the first try with 6 or 7).
DEFAULT_MAX_RUN = 6
#: Shortest time handed to progressive search when the deadline has passed (it returns the best
#: layout of its first steps).
MIN_PROGRESSIVE_SECONDS = 0.05
#: The open style's methods, in the order ``auto`` tries them.
METHODS = ("auto", "csp", "progressive")
#: Layout styles (see the module docstring).
STYLES = ("american", "open")


@dataclass
class Generated:
    """A generated crossword: the layout, the fill result, and how it was made."""

    grid: Grid
    result: FillResult
    method: str
    patterns_tried: int = 0
    unknown: list[str] = field(default_factory=list)
    scrambled: list[str] = field(default_factory=list)
    #: American style: block pairs moved to where the fill got stuck, and the theme entries.
    repairs: int = 0
    theme: list[str] = field(default_factory=list)
    rules: PatternRules | None = None


@dataclass
class _Job:
    rows: int
    cols: int
    lexicon: Lexicon
    options: FillOptions
    max_run: int
    symmetric: bool
    rtl: bool
    seed: int
    stop: StopSignal | None
    start: float
    progress: ProgressCallback | None = None
    #: The effort of the searches that have finished: every pattern's ``ac`` search (nodes,
    #: backtracks, restarts), then progressive search's steps as nodes.
    effort: SearchStats = field(default_factory=lambda: SearchStats(phase="layout"))

    def report(self, running: SearchStats | None = None, steps: int = 0) -> None:
        """The job's effort so far, with the ``running`` search's or progressive search's
        ``steps``, to ``progress`` as one growing count (phase ``layout``)."""
        if self.progress is None:
            return
        now = replace(self.effort, seconds=time.monotonic() - self.start)
        now.nodes += steps
        if running is not None:
            now.nodes += running.nodes
            now.backtracks += running.backtracks
            now.restarts += running.restarts
        self.progress(now)


def _csp_path(
    job: _Job, rng: random.Random, deadline: float, budget: int
) -> tuple[tuple[Grid, FillResult] | None, int, int]:
    """The first pattern that fills, else the last one searched with its partial fill (None when
    no pattern was searched), the number of patterns drawn and the nodes charged: the patterns'
    searches spend at most ``budget`` nodes in all (PATTERN_CHARGE a pattern besides)."""
    tried = spent = 0
    last = None
    while spent < budget and not expired(deadline, job.stop):
        grid = random_pattern(
            job.rows, job.cols, rng, job.max_run, job.symmetric, rtl=job.rtl, deadline=deadline, stop=job.stop
        )
        if grid is None:
            break
        tried += 1
        spent += PATTERN_CHARGE
        problem = build_problem(grid, job.lexicon, job.options)
        if problem.unsatisfiable:
            continue
        nodes = max(1, min(PATTERN_NODES, budget - spent))
        reporting = None if job.progress is None else job.report
        solver = ACBackend(seed=(job.seed + tried) % (MAX_SEED + 1))
        result = solver.solve(problem, deadline=deadline, stop=job.stop, progress=reporting, node_limit=nodes)
        if result.status == Status.FILLED and not job.options.allow_shared_roots:
            result = without_shared_roots(
                problem,
                result,
                partial(solver.solve, deadline=deadline, stop=job.stop, node_limit=nodes),
                solver=solver,
                deadline=deadline,  # local refills are counted in nodes: the job's deadline
                stop=job.stop,
            )
        spent += result.stats.nodes
        job.effort.nodes += result.stats.nodes
        job.effort.backtracks += result.stats.backtracks
        job.effort.restarts += result.stats.restarts
        job.report()
        last = grid, result
        if result.status.has_fill:
            break
    return last, tried, spent


def _layout_result(layout: Layout, lexicon: Lexicon, steps: int, seconds: float, rtl: bool) -> tuple[Grid, FillResult]:
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in layout.cells), rtl=rtl)
    cells = tuple(tuple(row) for row in layout.cells)
    entries = []
    for slot in grid.slots:
        answer = "".join(cells[r][c] or "" for r, c in slot.cells)
        if answer in lexicon:
            entries.append(_entry(slot, answer, lexicon))
    status = Status.FILLED if layout.cost == 0 else Status.TIMEOUT
    return grid, FillResult(status, "progressive", cells, entries, SearchStats(nodes=steps, seconds=seconds))


def _entry(slot: Slot, answer: str, lexicon: Lexicon) -> Entry:
    r, c = slot.start
    index = lexicon.index(slot.length)  # not lexicon.scores: that builds the whole list's table
    score = index.scores[index.position[answer]]
    return Entry(slot.id, slot.number, slot.direction, r, c, slot.length, answer, score, lexicon.clue(answer))


def generate(
    rows: int,
    cols: int,
    lexicon: Lexicon,
    *,
    max_run: int | None = None,
    symmetric: bool = False,
    time_limit: float = 10.0,
    deadline: Deadline = None,
    seed: int = 0,
    method: str = "auto",
    rtl: bool = False,
    allow_duplicates: bool = False,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
    no_shared_substring: int | None = None,
    style: str = "open",
    blocks: int | None = None,
    max_words: int | None = None,
    symmetry: str = "rotational",
    entries: Sequence[str] = (),
    progressive: ProgressiveOptions | None = None,
    allow_shared_roots: bool = False,
    budget_seconds: float | None = None,
) -> Generated:
    """Generate a filled crossword of the given size (see the module docstring). Two entries
    that share a root are kept apart unless ``allow_shared_roots``
    (:mod:`csp_crossword.strategies.roots`).

    ``style`` ``american`` takes ``blocks`` (default 16% of the cells), ``max_words`` (default 78
    per 225 cells), ``max_run`` (the longest entry, default 15), ``symmetry`` (``rotational`` or
    ``mirror``) and ``entries`` (theme answers placed first); LayoutRuleError when they are
    impossible. ``method``, ``symmetric`` and ``progressive`` (the progressive search's options)
    are the open style's.

    ``no_shared_substring`` N: no two entries share a run of N glyphs (the CSP path enforces it;
    a progressive layout that breaks it is not a fill).

    ``time_limit`` (or ``deadline``, whichever is first) holds for the whole job; a set ``stop``
    ends it with the best layout so far. The open style's search spends the work that
    ``budget_seconds`` (default ``time_limit``) buys at the rates of the module docstring, so the
    same inputs and seed give the same grid at any load while the deadline is not reached.
    ``progress`` is called now and then with a :class:`SearchStats` of phase ``layout``: the nodes
    of every pattern's search, then progressive search's steps, added up.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}")
    start = time.monotonic()
    end = earliest(deadline, start + time_limit)
    assert end is not None  # time_limit always sets one
    longest = max((n for n in lexicon.by_length if n >= 2), default=0)
    if style == "american":
        rules = PatternRules.for_size(
            rows, cols, blocks=blocks, max_words=max_words, max_run=max_run, symmetry=symmetry
        )
        if max_run is None and longest >= 3:
            rules = replace(rules, max_run=min(rules.max_run, longest))  # no entry longer than any word
        american_options = FillOptions(
            allow_duplicates=allow_duplicates,
            no_shared_substring=no_shared_substring,
            allow_shared_roots=allow_shared_roots,
        )
        made = generate_american(
            rules,
            lexicon,
            american_options,
            deadline=end,
            seed=seed,
            entries=entries,
            rtl=rtl,
            stop=stop,
            progress=progress,
        )
        return Generated(
            made.grid, made.result, "american", made.patterns_tried, repairs=made.repairs, theme=made.theme, rules=rules
        )
    max_run = min(max_run or DEFAULT_MAX_RUN, longest, max(rows, cols))
    rng = random.Random(seed)
    options = FillOptions(
        allow_duplicates=allow_duplicates,
        no_shared_substring=no_shared_substring,
        allow_shared_roots=allow_shared_roots,
    )
    job = _Job(rows, cols, lexicon, options, max_run, symmetric, rtl, seed, stop, start, progress)
    tried = 0
    if symmetric and method == "progressive":
        raise LayoutRuleError(
            "progressive search does not keep symmetric blocks; use the csp method or the american style"
        )
    if symmetric and method == "auto":
        method = "csp"  # the only open-style method that keeps the blocks symmetric
    budget = time_limit if budget_seconds is None else budget_seconds
    if method in ("auto", "csp"):
        share = 1.0 if method == "csp" else CSP_SHARE
        found, tried, spent = _csp_path(job, rng, end, int(share * budget * CSP_NODES_PER_SECOND))
        budget = max(0.0, budget - spent / CSP_NODES_PER_SECOND)  # the rest goes to progressive search
        if found is not None and found[1].status.has_fill:
            grid, result = found
            result.stats.seconds = time.monotonic() - start
            return Generated(grid, result, "csp", tried)
        if method == "csp":
            if found is None:
                return Generated(
                    Grid(((None,) * cols,) * rows, rtl=rtl), FillResult(Status.TIMEOUT, "ac"), "csp", tried
                )
            grid, result = found  # the last pattern with its partial fill
            result.status = Status.TIMEOUT
            result.stats.seconds = time.monotonic() - start
            return Generated(grid, result, "csp", tried)
    search = ProgressiveSearch(
        rows, cols, lexicon, max_run=max_run, rtl=rtl, allow_duplicates=allow_duplicates, seed=seed, options=progressive
    )
    steps_allowed = max(1, int(budget * PROGRESSIVE_WORK_PER_SECOND / (rows + cols)))
    on_step = None if progress is None else lambda steps, _best_cost: job.report(steps=steps)
    cap = max(end, time.monotonic() + MIN_PROGRESSIVE_SECONDS)
    layout, steps = search.run(deadline=cap, on_progress=on_step, stop=stop, step_limit=steps_allowed)
    grid, result = _layout_result(layout, lexicon, steps, time.monotonic() - start, rtl)
    if result.status == Status.FILLED and verify_fill(
        grid, result.cells or (), lexicon, allow_duplicates=allow_duplicates, no_shared_substring=no_shared_substring
    ):
        result.status = Status.TIMEOUT  # the verifier has the last word
    return Generated(grid, result, "progressive", tried, layout.unknown, layout.scrambled)
