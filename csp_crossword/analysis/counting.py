"""Counting and enumerating every fill of a (small) puzzle.

Two fills are different when at least one entry differs. ``count_fills`` splits the constraint
graph into its connected components and multiplies their counts when that is sound: when repeats
are allowed, or when no two slots of equal length in different components have a word in common
(otherwise the no-repeat rule links the components and the whole grid is counted at once).
Likewise with ``no_shared_substring`` N: components are counted apart only when no run of N glyphs
occurs in the candidates of both.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.words.lexicon import Lexicon
>>> from csp_crossword.search.problem import build_problem
>>> from csp_crossword.backends.ac import ACBackend
>>> lex = Lexicon.from_words(["AB", "CD", "AC", "BD", "EF", "GH", "EG", "FH"])
>>> grid = parse_grid("..#..\\n..#..")
>>> count_fills(build_problem(grid, lex), ACBackend()).count
8
>>> from csp_crossword.search.problem import FillOptions
>>> result = count_fills(build_problem(grid, lex, FillOptions(allow_duplicates=True)), ACBackend(), time_limit=10)
>>> result.count, result.components
(64, 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ..backends.base import Backend, ProgressCallback
from ..core.deadline import Deadline, StopSignal, earliest
from ..core.result import SearchStats
from ..search.graph import note_domain_sizes
from ..search.problem import FillProblem, build_problem
from ..words.ngrams import runs_of_domain


@dataclass
class CountResult:
    """The number of fills.

    Attributes:
        count: Fills found; the exact number when ``exact``, else a lower bound.
        exact: False when ``limit`` or the time limit stopped the count early.
        components: Independent regions counted separately (1 when counted as a whole).
        seconds: Wall time.
        nodes: Search nodes of the backend(s).
    """

    count: int
    exact: bool
    components: int
    seconds: float
    nodes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__, seconds=round(self.seconds, 4))


def decomposable(problem: FillProblem, parts: list[list[str]]) -> bool:
    """Whether counting the components separately and multiplying is exact."""
    number = problem.network.slot_number
    domains = problem.domains
    n = problem.options.no_shared_substring
    if n is not None:
        seen: set[tuple[int, ...]] = set()
        for part in parts:
            found: set[tuple[int, ...]] = set()
            for slot_id in part:
                s = number[slot_id]
                found |= runs_of_domain(problem.network.indexes[s], domains[s], n)
            if found & seen:
                return False
            seen |= found
    graph = problem.graph
    if not graph.graph["no_repeat"] and problem.word_uses is None:
        return True  # with use limits (fill-in puzzles) a word's uses link the regions too
    part_of = {slot_id: k for k, part in enumerate(parts) for slot_id in part}
    for group in graph.graph["same_length"].values():  # the no-repeat rule links these slots
        for a, b in combinations(group, 2):
            if part_of[a] != part_of[b] and domains[number[a]] & domains[number[b]]:
                return False
    return True


def region_problem(problem: FillProblem, part: list[str]) -> FillProblem:
    """The slots of ``part`` alone, with the domains the whole problem narrowed them to.

    The narrowing matters: :func:`decomposable` judged the regions independent on those domains
    (a word the repeat rule took from this region because another region's slot is down to it
    must stay out of this region's count too).
    """
    # the lexicon is already filtered and holds the required words: keep the same object, so the
    # word indexes (and the bit of each word) are the whole problem's
    options = replace(problem.options, min_score=None, banned=frozenset())
    sub = build_problem(problem.grid, problem.lexicon, options, slot_ids=part)
    if sub.unsatisfiable:
        return sub
    whole = problem.network
    narrowed = []
    for k, slot in enumerate(sub.slots):
        s = whole.slot_number[slot.id]
        if sub.network.indexes[k] is not whole.indexes[s]:
            raise RuntimeError("a region's word index differs from the whole problem's")
        narrowed.append(sub.domains[k] & problem.domains[s])
    state = sub.network.initial_state(narrowed)
    failure = sub.network.propagate(state, range(len(narrowed)))
    note_domain_sizes(sub.graph, sub.slots, state.domains)
    if failure is not None:
        return replace(sub, domains=tuple(state.domains), empty=((sub.slots[failure.slot].id, "no word left"),))
    return replace(sub, domains=tuple(state.domains), root=state.copy())


@dataclass
class _Job:
    """The per-call settings shared by every region of one count."""

    deadline: Deadline
    stop: StopSignal | None
    progress: ProgressCallback | None


def _count_whole(problem: FillProblem, backend: Backend, limit: int | None, job: _Job) -> tuple[int, bool, int]:
    found = 0
    progress = job.progress

    def report(stats: SearchStats) -> None:
        # the backend's statistics say "search": a progress line should say counting, and how far
        if progress is not None:
            progress(replace(stats, phase="count", count=found))

    enumeration = backend.enumerate(
        problem, deadline=job.deadline, stop=job.stop, progress=None if progress is None else report
    )
    for _ in enumeration:
        found += 1
        if limit is not None and found >= limit:
            break
    return found, enumeration.complete, enumeration.stats.nodes


def count_fills(
    problem: FillProblem,
    backend: Backend,
    limit: int | None = None,
    *,
    time_limit: float | None = None,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
    progress: ProgressCallback | None = None,
) -> CountResult:
    """Count the fills of a problem with a backend that can enumerate.

    With ``limit``, counting stops once that many fills are known (``exact`` is then False unless
    the count is complete anyway). ``time_limit`` (or ``deadline``) holds for the whole count,
    every region together.
    """
    start = time.monotonic()
    job = _Job(earliest(deadline, None if time_limit is None else start + time_limit), stop, progress)
    if problem.unsatisfiable:
        return CountResult(0, True, 1, time.monotonic() - start)
    parts = problem.regions()
    if problem.slots != problem.grid.slots:
        parts = [[slot.id for slot in problem.slots]]
    if len(parts) > 1 and decomposable(problem, parts):
        total, exact, nodes = 1, True, 0
        for part in parts:
            sub = region_problem(problem, part)
            found, complete, part_nodes = _count_whole(sub, backend, limit, job)
            nodes += part_nodes
            if complete and found == 0:
                return CountResult(0, True, len(parts), time.monotonic() - start, nodes)
            total *= found
            exact &= complete
        return CountResult(total, exact, len(parts), time.monotonic() - start, nodes)
    found, complete, nodes = _count_whole(problem, backend, limit, job)
    return CountResult(found, complete, 1, time.monotonic() - start, nodes)
