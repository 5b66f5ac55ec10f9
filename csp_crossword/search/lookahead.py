"""Look-ahead for one slot's candidates: which words leave the rest of the grid fillable.

The words of a slot of a prepared :class:`~csp_crossword.search.problem.FillProblem` are ranked best
score first, and each gets a :class:`Verdict`:

* ``dead_end``: placing it leaves some slot without a word — a crossing at once (forward check),
  or any slot once arc consistency has run again;
* ``viable``: placing it and running full arc consistency (:meth:`Network.propagate` on a copy of
  the root state) leaves every slot at least one word (a fill is likely, not proved);
* ``unknown``: not examined within the check budget.

Each word also gets, per crossing, the number of words that crossing keeps (forward check: the
crossing slot's words, within its current domain, with the placed word's glyph in the shared
cell). Those counts are taken once per (crossing, glyph), not per word, and the words that empty
some crossing are, for the whole domain at once, the OR of the index's bitsets of the glyphs
nobody in the crossing has there. On the problem's arc-consistent root that set is empty (arc
consistency leaves every word a support in every crossing); the dead ends found there come from
the full-propagation checks, which run best first until the budget is spent.

The budget is a number of checks, not seconds: :func:`check_budget` turns the check time asked
for into the checks an idle machine makes in about half of it, by the grid's size. So the same
grid and list give the same statuses at any machine load; the clock only caps the whole
(:func:`check_cap`), for a machine far busier than that.

>>> from csp_crossword.core.grid import parse_grid
>>> from csp_crossword.words.lexicon import Lexicon
>>> from csp_crossword.search.problem import build_problem
>>> words = ["BET", "ARE", "ERA", "EAT", "TEN", "BAN", "NAB", "TAR", "NAN"]
>>> problem = build_problem(parse_grid("...\\n...\\n..."), Lexicon.from_words(words))
>>> outlook = look_ahead(problem, "1A", limit=None)
>>> for row in outlook.words:
...     print(row.entry, row.verdict.value, dict(row.crossings), row.emptied)
BAN viable {'1D': 2, '2D': 1, '3D': 2} None
BET viable {'1D': 2, '2D': 1, '3D': 2} None
EAT dead_end {'1D': 1, '2D': 1, '3D': 2} 1D
NAB dead_end {'1D': 2, '2D': 1, '3D': 2} 5A
NAN dead_end {'1D': 2, '2D': 1, '3D': 2} 3D
TEN dead_end {'1D': 1, '2D': 1, '3D': 2} 1D
>>> outlook.total, outlook.dead_ends, outlook.viable, outlook.unknown
(6, 4, 2, 0)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ..core.deadline import Deadline, StopSignal, earliest, expired
from ..words.word_index import WordIndex
from .propagation_kernel import kernel

if TYPE_CHECKING:
    from .problem import FillProblem

#: The default check time in seconds, turned into a number of checks by :func:`check_budget`:
#: some 80 checks on a 15x15 grid, some 270 on a 7x7 (with the compiled core), so the first screen
#: of candidates is checked while the whole call, ranking and forward counts included, stays
#: under 0.2 s: quick enough for every click in the web page.
CHECK_SECONDS = 0.1
#: Check work per second of check time, in slots propagated: a check (place the word, restore
#: arc consistency) weighs the grid's slot count. Measured with the compiled core on the demo
#: grids and a 15x15, with the built-in list and the tests' stand-in list (60 checks each, one
#: idle core): 0.003-0.008 ms a slot, some 125,000 slots a second at the slowest; this is half of
#: it, so that a machine twice as busy still ends on the budget, not the clock.
CHECK_SLOTS_PER_SECOND = 60_000
#: How much more a check weighs when the compiled core cannot serve the network (not built,
#: ``CSP_CROSSWORD_JIT=0``, rules it does not know): the Python loop took 0.012-0.029 ms a slot
#: in the same measurement, about four times the compiled core's.
PYTHON_CHECK_WEIGHT = 4
#: The clock's cap on the checks, as a multiple of the check time asked for, and at least
#: CHECK_CAP_FLOOR seconds: an outer bound for a machine so busy that the budget would take far
#: longer than asked, loose enough that it never decides the statuses of a merely busy one (a
#: scheduler can hold a process back for tens of milliseconds, longer than a 0.1 s check time
#: could absorb).
CHECK_CAP_FACTOR = 10
CHECK_CAP_FLOOR = 1.0

#: Above this many rows the word ids are read from the domain with numpy at once: peeling the
#: lowest bit off a bitset of tens of thousands of words, one word at a time, costs a copy of the
#: whole bitset per word.
MANY_ROWS = 2000


class Verdict(StrEnum):
    """What placing a word does to the rest of the grid."""

    VIABLE = "viable"
    DEAD_END = "dead_end"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class WordOutlook:
    """One ranked word of the slot.

    Attributes:
        entry: The word (normalised entry).
        score: Its score.
        verdict: :class:`Verdict`.
        crossings: (crossing slot id, words it keeps once this word is placed), in the order of
            the slot's cells.
        emptied: For a dead end, the slot left without a word (None otherwise).
    """

    entry: str
    score: int
    verdict: Verdict
    crossings: tuple[tuple[str, int], ...]
    emptied: str | None = None


@dataclass(frozen=True)
class SlotOutlook:
    """The ranked words of one slot and the totals over its whole domain.

    Attributes:
        slot_id: The slot.
        words: The rows asked for, best score first (with ``viable_only``, no dead ends).
        total: Words in the slot's domain (after arc consistency).
        dead_ends: Known dead ends in the whole domain: every word the forward check refutes,
            plus those whose full-propagation check failed.
        viable: Words checked by full propagation and found viable.
        examined: Full-propagation checks run.
        budget_spent: The checks stopped (their budget, the clock's cap, the deadline or stop)
            before every word they would have examined was examined: rows past that point are
            ``unknown``.
        seconds: Time the call took.
    """

    slot_id: str
    words: list[WordOutlook]
    total: int
    dead_ends: int
    viable: int
    examined: int
    budget_spent: bool
    seconds: float

    @property
    def unknown(self) -> int:
        """Words of the domain neither known dead nor checked viable."""
        return self.total - self.dead_ends - self.viable


def look_ahead(
    problem: FillProblem,
    slot_id: str,
    *,
    limit: int | None = 20,
    viable_only: bool = False,
    propagate: bool = True,
    budget: float = CHECK_SECONDS,
    deadline: Deadline = None,
    stop: StopSignal | None = None,
) -> SlotOutlook:
    """Rank the words of ``slot_id`` and give each a verdict and its crossing counts.

    ``limit`` rows are returned (None: every word). Without ``viable_only`` they are the best
    ``limit`` words, and the full-propagation checks examine those rows best first. With
    ``viable_only`` dead ends are skipped and the checks go on down the list until ``limit``
    viable words are found; once the budget is spent, the next words not refuted by the forward
    check fill the rows as ``unknown`` (``budget_spent`` says so). ``propagate`` False skips the
    full-propagation checks (rows are then ``unknown`` unless the forward check refutes them).
    ``budget`` is the check time in seconds, spent as a number of checks
    (:func:`check_budget`), so the statuses do not depend on the machine's load. The checks also
    stop at the clock's cap (:func:`check_cap`), at ``deadline`` (monotonic clock) or when
    ``stop`` is set, whichever comes first.

    Raises:
        KeyError: the problem has no slot ``slot_id``.
        ValueError: the problem is already proved unsatisfiable (nothing to look ahead from).
    """
    started = time.perf_counter()
    if problem.unsatisfiable:
        raise ValueError("the problem is unsatisfiable: no word of any slot leads to a fill")
    network = problem.network
    s = network.slot_number[slot_id]
    index = network.indexes[s]
    domain = problem.domains[s]
    counts = _crossing_counts(problem, s)
    refuted = _refuted_by_forward_check(problem, s, counts)
    # The crossings as the slot's cells run (the network lists them in the grid's order).
    along = sorted(range(len(counts)), key=lambda k: network.neighbours[s][k][1])
    crossing_ids = tuple(network.slots[network.neighbours[s][k][0]].id for k in along)
    positions = [network.neighbours[s][k][1] for k in along]
    counts = [counts[k] for k in along]
    root = problem.root_state()
    # With viable_only the loop also passes over the dead ends it skips, but those were all
    # checked within the budget: a few hundred at most, so ``limit`` still tells the lazy case.
    ids = _ids(domain, limit)
    allowed = check_budget(problem, budget)
    checks_end = earliest(deadline, time.monotonic() + check_cap(budget))

    rows: list[WordOutlook] = []
    dead_ends, viable, examined, budget_spent = refuted.bit_count(), 0, 0, False
    for w in ids:
        if limit is not None and len(rows) >= limit:
            break
        code = index.code(w)
        kept = tuple(by_glyph.get(code[i], 0) for by_glyph, i in zip(counts, positions, strict=True))
        emptied: str | None = None
        if refuted and refuted >> w & 1:  # (empty at an arc-consistent root: skip the shift)
            verdict = Verdict.DEAD_END
            emptied = crossing_ids[kept.index(0)]
        elif propagate and examined < allowed and not expired(checks_end, stop):
            state = root.copy()
            state.domains[s] = 1 << w
            failure = network.propagate(state, [s])
            examined += 1
            if failure is None:
                verdict = Verdict.VIABLE
                viable += 1
            else:
                verdict = Verdict.DEAD_END
                # Propagation may fail on the placed slot itself (a crossing it can no longer
                # agree with removed its last glyph there): name that crossing instead.
                blamed = failure.slot
                if blamed == s and failure.cause is not None:
                    blamed = failure.cause
                emptied = network.slots[blamed].id
                dead_ends += 1
        else:
            verdict = Verdict.UNKNOWN
            budget_spent = budget_spent or propagate
        if viable_only and verdict is Verdict.DEAD_END:
            continue
        rows.append(WordOutlook(index.words[w], index.scores[w], verdict, tuple(zip(crossing_ids, kept)), emptied))
    return SlotOutlook(
        slot_id, rows, domain.bit_count(), dead_ends, viable, examined, budget_spent, time.perf_counter() - started
    )


def check_budget(problem: FillProblem, seconds: float) -> int:
    """The full-propagation checks a check time of ``seconds`` buys on ``problem``: a check
    weighs the grid's slot count (:data:`PYTHON_CHECK_WEIGHT` times more when the compiled core
    cannot serve the network), at :data:`CHECK_SLOTS_PER_SECOND`. It depends on the problem
    alone, never on the clock; 0 seconds buy none, any other time at least one."""
    if not seconds > 0:
        return 0
    network = problem.network
    weight = max(1, len(network.slots))
    if not network.core_takes_rules() or kernel() is None:
        weight *= PYTHON_CHECK_WEIGHT
    checks = seconds * CHECK_SLOTS_PER_SECOND / weight
    if checks >= sys.maxsize:  # an endless check time (or near it): every word asked for
        return sys.maxsize
    return max(1, int(checks))


def check_cap(seconds: float) -> float:
    """The clock's cap on a check time of ``seconds`` (:data:`CHECK_CAP_FACTOR`,
    :data:`CHECK_CAP_FLOOR`)."""
    return max(CHECK_CAP_FACTOR * seconds, CHECK_CAP_FLOOR) if seconds > 0 else 0.0


def _crossing_counts(problem: FillProblem, s: int) -> list[dict[int, int]]:
    """Per crossing of slot s (``network.neighbours[s]`` order), glyph id -> how many words of
    the crossing slot's domain have that glyph in the shared cell (glyphs with none left out)."""
    network = problem.network
    counts = []
    for t, _i, j, _c in network.neighbours[s]:
        crossing_domain = problem.domains[t]
        by_glyph = {}
        for bit, column in network.columns[t][j]:
            n = (crossing_domain & column).bit_count()
            if n:
                by_glyph[bit.bit_length() - 1] = n
        counts.append(by_glyph)
    return counts


def _refuted_by_forward_check(problem: FillProblem, s: int, counts: list[dict[int, int]]) -> int:
    """The words of slot s's domain that leave some crossing with no word: per crossing, the
    glyphs slot s offers in the shared cell that no word of the crossing has there."""
    network = problem.network
    domain = problem.domains[s]
    refuted = 0
    for (_t, i, _j, _c), by_glyph in zip(network.neighbours[s], counts, strict=True):
        offered = network.supports(s, domain, i, network.all_glyphs)
        unmatched = offered & ~sum(1 << g for g in by_glyph)
        if unmatched:
            refuted |= network.words_with(s, i, unmatched)
    return refuted & domain


def _ids(domain: int, needed: int | None) -> Iterable[int]:
    """The word ids of ``domain`` best first: lazily when few are needed (or few there are),
    else all at once."""
    if (needed is not None and needed <= MANY_ROWS) or domain.bit_count() <= MANY_ROWS:
        return WordIndex.iter_ids(domain)
    return [int(w) for w in WordIndex.id_array(domain)]
