"""A fill without two entries that share a root (GREY and GREYED, EAT and ATE, AGE and ICE AGE).

The rule is a preference of editors, not a constraint of the grid, so it is kept after the search
rather than inside it: when a fill holds such a pair, the weaker entry of each pair (the lower
score; on a tie the longer, then the later slot) leaves the problem's domains and the fill is
searched again, with the same strategy, seed and node budgets (so the result is reproducible), up
to ROOT_ROUNDS times. A round that cannot fill (the rule would need a word the grid cannot do
without, or the time is up) keeps the last fill and names its pairs: the rule never costs a fill
or turns one into "unsatisfiable". Given and required entries are never left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.result import FillResult, Status
from ..words.roots import roots_of, shared_root_pairs

if TYPE_CHECKING:
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem

#: How many times a fill is searched again without the weaker entries of its shared-root pairs.
#: Each round leaves out every pair's weaker entry at once; measured on the American patterns a
#: fill holds zero to two pairs, and one round almost always separates them.
ROOT_ROUNDS = 4


def root_pairs(problem: FillProblem, result: FillResult) -> list[tuple[str, str]]:
    """The slot ids of a fill's entries that share a root, in slot order."""
    lexicon = problem.lexicon
    entries = [entry for entry in result.entries if entry.answer]
    roots = [roots_of(e.answer, lexicon.display_form(e.answer), lexicon.__contains__) for e in entries]
    return [(entries[i].id, entries[j].id) for i, j, _ in shared_root_pairs(roots)]


def without_shared_roots(
    problem: FillProblem,
    result: FillResult,
    solve: Callable[[FillProblem], FillResult],
    *,
    deadline: Deadline,
    stop: StopSignal | None = None,
) -> FillResult:
    """``result``, or a fill of ``problem`` by ``solve`` without shared-root pairs (the module
    docstring); the result's ``shared_roots`` names the pairs left."""
    import time

    pairs = root_pairs(problem, result) if result.status == Status.FILLED else []
    left_out: set[str] = set()
    rounds = 0
    while pairs and rounds < ROOT_ROUNDS:
        if (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline):
            break
        rounds += 1
        left_out |= _weaker_entries(problem, result, pairs)
        smaller = _without(problem, left_out)
        if smaller is None:
            break
        again = solve(smaller)
        if again.status != Status.FILLED:
            break
        stats = again.stats
        stats.nodes += result.stats.nodes
        stats.seconds += result.stats.seconds
        result = again
        pairs = root_pairs(problem, result)
    return replace(result, shared_roots=pairs) if pairs else result


def _weaker_entries(problem: FillProblem, result: FillResult, pairs: list[tuple[str, str]]) -> set[str]:
    """Of each pair, the entry to leave out: never a given or required one."""
    fixed = {answer for _, answer in problem.options.required}
    # a slot whose domain is one word is given (typed in full, or required): it stays
    fixed |= {slot.id for slot, domain in zip(problem.slots, problem.domains, strict=True) if domain.bit_count() == 1}
    by_slot = {entry.id: entry for entry in result.entries}
    order = {entry.id: k for k, entry in enumerate(result.entries)}
    chosen = set()
    for a, b in pairs:
        candidates = [by_slot[s] for s in (a, b) if by_slot[s].answer not in fixed and s not in fixed]
        if candidates:
            weakest = min(candidates, key=lambda e: (e.score or 0, -len(e.answer), -order[e.id]))
            chosen.add(weakest.answer)
    return chosen


def _without(problem: FillProblem, entries: set[str]) -> FillProblem | None:
    """``problem`` with ``entries`` taken out of every slot's domain and made arc consistent
    again; None when that empties a slot."""
    network = problem.network
    domains = list(problem.domains)
    for s, index in enumerate(network.indexes):
        for answer in entries:
            word = index.id_of(answer)
            if word is not None and domains[s] >> word & 1 and domains[s] != 1 << word:
                domains[s] &= ~(1 << word)
    state = network.initial_state(domains)
    if network.propagate(state, range(len(domains))) is not None:
        return None
    return replace(problem, domains=tuple(state.domains), root=state.copy())
