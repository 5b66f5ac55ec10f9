"""A fill without two entries that share a root (GREY and GREYED, EAT and ATE, AGE and ICE AGE).

The rule is a preference of editors, not a constraint of the grid, so it is kept after the search
rather than inside it. The pairs of a fill are repaired one at a time (at most ROOT_REPAIRS): the
slot of the weaker entry (the lower score; on a tie the longer, then the later slot) loses every
word of the root they share (MAN beside MEN: TMAN, GMAN and AMAN go too) and is refilled with its
crossings, then within two, three and four crossings (REFILL_HOPS), the rest of the fill kept,
among words at least as good as the fill's weakest entry, within LOCAL_REFILL_NODES search nodes
(LOCAL_REFILL_WORK of a backend that counts its own work instead); failing that the stronger entry
gives way the same way; failing both, the whole grid is searched again with the strategy of the
fill. Budgets are nodes or work and the seed is the fill's, so the result is reproducible.
A repair that finds no fill (the grid cannot do without the pair, or the time is up) keeps the
last fill and names its pairs: the rule never costs a fill or turns one into "unsatisfiable".
Given and required entries never give way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.result import FillResult, Status, WeakSpots
from ..words.roots import irregular_forms_of, roots_of, shared_root_pairs

if TYPE_CHECKING:
    from ..backends.base import Backend
    from ..core.deadline import Deadline, StopSignal
    from ..search.problem import FillProblem

#: How many pairs a fill repairs, one at a time (a repair may make a new pair): a 15x15 fill of
#: the built-in list holds zero to two, a 21x21 up to six.
ROOT_REPAIRS = 12
#: A round first refills only the slots that give way and their crossings, then within two,
#: three and four crossings of them (the rest of the fill stays), and only then searches the whole
#: grid again. On words-h1510 with words.txt, CP-SAT's fill paired two entries whose region
#: within three crossings could not be refilled around the rest (a slot emptied); within four it
#: was, and the command filled in 18.4 s instead of 55.2 s (the whole grid searched again: 39 s).
REFILL_HOPS = 4
#: Search nodes a local refill may spend (a few milliseconds of the compiled search): a region
#: that cannot be refilled within them is left to a search of the whole grid.
LOCAL_REFILL_NODES = 2000
#: The same budget for a backend that counts its own deterministic work instead of nodes
#: (``Backend.counts_work``: CP-SAT's deterministic time). A region's model is small, the slots
#: outside it holding one word each.
LOCAL_REFILL_WORK = 1.0
#: The letters of a root a word must hold to be stemmed when a slot loses the root's words.
ROOT_PREFIX = 3


def without_shared_roots(
    problem: FillProblem,
    result: FillResult,
    solve: Callable[[FillProblem], FillResult],
    *,
    solver: Backend,
    deadline: Deadline,
    stop: StopSignal | None = None,
) -> FillResult:
    """``result``, or a fill of ``problem`` without shared-root pairs (the module docstring): local
    refills by ``solver`` within their node budgets, under ``deadline``; a whole-grid search by
    ``solve``, which carries its own deadline. The result's ``shared_roots`` names the pairs left."""
    pairs = root_pairs(problem, result) if result.status == Status.FILLED else []
    spots = result.weak_spots
    domains = list(problem.domains)
    repairs = 0
    kept: set[tuple[str, str]] = set()  # pairs no repair could part: the others are still tried
    while repairs < ROOT_REPAIRS:
        waiting = [pair for pair in pairs if pair[:2] not in kept]
        if not waiting:
            break
        if (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline):
            break
        repairs += 1
        # a pair, given way by its weaker entry (or else its stronger) refilled locally
        sides = _giving_way(problem, result, waiting[0])
        again = None
        for side in sides:
            trial = _without_root(problem, domains, side)
            again = _refilled_locally(problem, result, trial, {side[0]}, solver, deadline, stop)
            if again is not None:
                domains = trial
                break
        if again is None and sides:  # the whole grid again, without the weaker entry's root there
            trial = _without_root(problem, domains, sides[0])
            smaller = _with_domains(problem, trial)
            again = solve(smaller) if smaller is not None else None
            if again is not None and again.status == Status.FILLED:
                domains = trial
            else:
                again = None
        if again is None:
            kept.add(waiting[0][:2])
            continue
        stats = again.stats
        stats.nodes += result.stats.nodes
        stats.seconds += result.stats.seconds
        result = again
        pairs = root_pairs(problem, result)
    left = [(a, b) for a, b, _ in pairs]
    return replace(_with_weak_spots(result, spots), shared_roots=left)


def _with_weak_spots(result: FillResult, spots: WeakSpots | None) -> FillResult:
    """A repaired fill keeps the weak spots the quality-first fill found for the problem (what
    they say of the grid still holds), naming the repaired fill's own entries under the floor."""
    if spots is None or result.weak_spots is not None:
        return result
    weak = [e.id for e in result.entries if e.score is not None and e.score < spots.floor]
    return replace(result, weak_spots=replace(spots, entries=weak)) if weak else result


def _refilled_locally(
    problem: FillProblem,
    result: FillResult,
    domains: list[int],
    changed: set[int],
    solver: Backend,
    deadline: Deadline,
    stop: StopSignal | None,
) -> FillResult | None:
    """A fill of ``problem`` within ``domains`` that keeps every slot but the ``changed`` ones
    and their crossings (then within more crossings, REFILL_HOPS) as they are, found by the
    backend within LOCAL_REFILL_NODES search nodes (or LOCAL_REFILL_WORK) and no weaker than
    ``result``'s weakest entry; None when there is none (or the backend counts neither)."""
    from .quality import word_ids

    words = word_ids(problem, result)
    if words is None or not (solver.counts_nodes or solver.counts_work):
        return None
    indexes = problem.network.indexes
    weakest = _weakest(result)
    # the region's slots keep only words at least as good as the fill's weakest entry
    floors = [domains[s] & (1 << index.count_at_least(weakest)) - 1 for s, index in enumerate(indexes)]
    # a budget in nodes or in the backend's own work: the same refill at any load
    budget = {"node_limit": LOCAL_REFILL_NODES} if solver.counts_nodes else {"work_limit": LOCAL_REFILL_WORK}
    region = set(changed)
    for _ in range(REFILL_HOPS):
        region |= {other for s in region for other, _i, _j, _c in problem.network.neighbours[s]}
        kept = [floors[s] if s in region else domains[s] & 1 << words[s] for s in range(len(domains))]
        smaller = _with_domains(problem, kept) if all(kept) else None
        if smaller is None:
            continue
        again = solver.solve(smaller, deadline=deadline, stop=stop, **budget)
        # a local refill must not buy the rule with a weaker entry than the fill had
        if again.status == Status.FILLED and _weakest(again) >= _weakest(result):
            return again
    return None


def _weakest(result: FillResult) -> int:
    return min((entry.score for entry in result.entries if entry.score is not None), default=0)


def root_pairs(problem: FillProblem, result: FillResult) -> list[tuple[str, str, str]]:
    """The fill's shared-root pairs: slot ids and the root they share."""
    lexicon = problem.lexicon
    entries = [entry for entry in result.entries if entry.answer]
    read = _as_read(problem)
    roots = [roots_of(read(e.answer), lexicon.display_form(read(e.answer)), lexicon.__contains__) for e in entries]
    return [(entries[i].id, entries[j].id, root) for i, j, root in shared_root_pairs(roots)]


def _as_read(problem: FillProblem) -> Callable[[str], str]:
    """How the problem's entries read: through a rebus cell, with its letters (SWEET[HEART])."""
    rules = problem.options.rebus
    return rules.as_read if rules is not None else str


def _giving_way(problem: FillProblem, result: FillResult, pair: tuple[str, str, str]) -> list[tuple[int, str, int]]:
    """The slots (numbers) that may give way in a pair, weaker entry first (the lower score; on a
    tie the longer, then the later slot), each with the root it must lose and its word (id in the
    slot's index); never a given or required entry's slot."""
    number = {slot.id: s for s, slot in enumerate(problem.slots)}
    by_slot = {entry.id: entry for entry in result.entries}
    order = {entry.id: k for k, entry in enumerate(result.entries)}
    a, b, root = pair
    required = {slot_id for slot_id, _ in problem.options.required}
    sides = []
    for entry in sorted((by_slot[a], by_slot[b]), key=lambda e: (e.score or 0, -len(e.answer), -order[e.id])):
        slot = number[entry.id]
        # a slot whose domain is one word is given (typed in full, or required): it stays
        if entry.id in required or problem.domains[slot].bit_count() == 1:
            continue
        word = problem.network.indexes[slot].id_of(entry.answer)
        if word is not None:
            sides.append((slot, root, word))
    return sides


def _without_root(problem: FillProblem, domains: list[int], side: tuple[int, str, int]) -> list[int]:
    """``domains`` with the giving-way slot's words of the root taken out, and its word itself
    (its display form may hide the root's letters)."""
    slot, root, word = side
    trial = list(domains)
    trial[slot] &= ~(_words_with_root(problem, slot, trial[slot], root) | 1 << word)
    return trial


def _words_with_root(problem: FillProblem, slot: int, domain: int, root: str) -> int:
    """The words of ``domain`` (slot ``slot``'s) that have ``root``, as a bitset. A word, or a
    word of a phrase, with a root starts with most of it, so only the words holding its first
    letters (and the irregular forms of its lemmas: ATE for EAT) are stemmed."""
    lexicon = problem.lexicon
    index = problem.network.indexes[slot]
    known = lexicon.__contains__
    needle = root[:ROOT_PREFIX].upper()
    irregular = irregular_forms_of(root)
    read = _as_read(problem)
    found = 0
    for word in index.iter_ids(domain):
        entry = read(index.words[word])
        if (needle in entry or entry in irregular) and root in roots_of(entry, lexicon.display_form(entry), known):
            found |= 1 << word
    return found


def _with_domains(problem: FillProblem, domains: list[int]) -> FillProblem | None:
    """``problem`` with these domains, made arc consistent again; None when a slot empties."""
    network = problem.network
    state = network.initial_state(domains)
    if network.propagate(state, range(len(domains))) is not None:
        return None
    return replace(problem, domains=tuple(state.domains), root=state.copy())
