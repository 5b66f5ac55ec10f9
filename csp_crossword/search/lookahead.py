"""Look-ahead for one slot's candidates: which words leave the rest of the grid fillable.

The words of a slot of a prepared :class:`~csp_crossword.search.problem.FillProblem` are ranked best
score first, and each gets a :class:`Verdict`:

* ``dead_end``: placing it leaves some slot without a word — a crossing at once (forward check),
  or any slot once arc consistency has run again;
* ``viable``: placing it and running full arc consistency (:meth:`Network.propagate` on a copy of
  the root state) leaves every slot at least one word (a fill is likely, not proved);
* ``unknown``: not examined within the time budget.

Each word also gets, per crossing, the number of words that crossing keeps (forward check: the
crossing slot's words, within its current domain, with the placed word's glyph in the shared
cell). Those counts are taken once per (crossing, glyph), not per word, and the words that empty
some crossing are, for the whole domain at once, the OR of the index's bitsets of the glyphs
nobody in the crossing has there. On the problem's arc-consistent root that set is empty (arc
consistency leaves every word a support in every crossing); the dead ends found there come from
the full-propagation checks, which run best first until the budget is spent.

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

import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ..core.deadline import Deadline, StopSignal, earliest, expired
from ..words.word_index import WordIndex

if TYPE_CHECKING:
    from .problem import FillProblem

#: Seconds of full-propagation checks per call. One check (place the word, restore arc
#: consistency over the whole grid) costs 1-5 ms on a 15x15 grid with the built-in list, so this
#: examines the first screen of candidates (some 20-80 words) while the whole call, ranking and
#: forward counts included, stays under 0.2 s: quick enough for every click in the web page.
CHECK_SECONDS = 0.1

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
        budget_spent: The checks stopped (time budget, deadline or stop) before every word they
            would have examined was examined: rows past that point are ``unknown``.
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
    The checks stop at ``budget`` seconds, at ``deadline`` (monotonic clock) or when ``stop`` is
    set, whichever comes first.

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
    checks_end = earliest(deadline, time.monotonic() + budget)

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
        elif propagate and not expired(checks_end, stop):
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
