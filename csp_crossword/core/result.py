"""What every backend returns: a status, the fill, its entries and search statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .grid import Cell, Slot

#: Entries a fill report names as its weakest.
WEAKEST_SHOWN = 5


# Stays (str, Enum), not StrEnum (UP042): StrEnum changes what str() and format() give for a member.
#: How a fill-in puzzle's per-length count mismatch is named where a slot id would be: no one
#: slot is to blame, so ``"length 5"`` stands for them all.
MISMATCH_PREFIX = "length "


class Status(str, Enum):  # noqa: UP042
    """Outcome of a solve. ``unsatisfiable`` is a proof; ``timeout`` and ``interrupted`` are not."""

    FILLED = "filled"
    OPTIMAL = "optimal"
    UNSATISFIABLE = "unsatisfiable"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"

    @property
    def has_fill(self) -> bool:
        return self in (Status.FILLED, Status.OPTIMAL)


@dataclass
class SearchStats:
    """Search effort. ``nodes`` counts decisions, ``backtracks`` failed decisions."""

    nodes: int = 0
    backtracks: int = 0
    restarts: int = 0
    propagations: int = 0
    seconds: float = 0.0
    #: Learned no-goods (``ac``), and how often they removed a word or failed a node.
    nogoods: int = 0
    nogood_prunings: int = 0
    nogood_failures: int = 0
    #: What the job is doing when progress is reported: ``search`` (a fill or a proof), ``core``
    #: (``check`` looking for the slots that clash), ``count``, ``layout`` (generate, freeform).
    phase: str = "search"
    #: Fills found so far, while counting or enumerating (None for every other job).
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        if self.count is None:
            del data["count"]  # only a count's or an enumeration's statistics have one
        data["seconds"] = round(self.seconds, 4)
        return data


@dataclass(frozen=True)
class Entry:
    """One filled slot."""

    id: str
    number: int
    direction: str
    row: int
    col: int
    length: int
    answer: str
    score: int | None
    clue: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "number": self.number,
            "direction": self.direction,
            "row": self.row,
            "col": self.col,
            "length": self.length,
            "answer": self.answer,
            "score": self.score,
        }
        if self.clue:
            data["clue"] = self.clue
        return data


class WeakVerdict(str, Enum):  # noqa: UP042 - see Status
    """What the bounded check of a floor found (:class:`WeakSpots`)."""

    #: Proved: no fill has every entry scored at the floor or more.
    UNFILLABLE = "unfillable"
    #: The check's node budget (or the time limit) ran out before an answer.
    UNKNOWN = "unknown"


@dataclass
class WeakSpots:
    """Why a fill holds entries scored below a floor, or why no fill keeps every entry at it.

    Attributes:
        floor: The score every entry was checked against (``ACCEPTABLE_SCORE`` of the quality
            fill, or the user's ``min_score`` for a fill proved unsatisfiable).
        entries: The fill's slots whose entries score below ``floor`` (empty when there is no fill).
        verdict: See :class:`WeakVerdict`.
        core: For ``unfillable``: slots that cannot all be filled with entries scored ``floor`` or
            more, even with every other slot left free, each test of it proved; None when no set
            smaller than the whole grid was proved unfillable within the budget (or Ctrl-C
            stopped the search).
        minimal: Every slot of ``core`` is needed (dropping any one was proved fillable).
        nodes: Search nodes the check and the core search took.
        banned: The user's banned words were left out too (the core holds without them).
    """

    floor: int
    entries: list[str] = field(default_factory=list)
    verdict: WeakVerdict = WeakVerdict.UNKNOWN
    core: list[str] | None = None
    minimal: bool = False
    nodes: int = 0
    banned: bool = False

    def describe(self) -> str:
        """The finding in one sentence, as the fill's summary prints it."""
        scored = f"entries scored {self.floor} or more" + (" and no banned word" if self.banned else "")
        if self.verdict == WeakVerdict.UNKNOWN:
            return (
                f"not known whether the grid can be filled with {scored}: the check was inconclusive within its budget"
            )
        if self.core is None:
            return (
                f"the grid cannot be filled with {scored} (proved); no smaller set of slots to blame was proved "
                "within the budget"
            )
        names = ", ".join(self.core)
        where = f"slot {names} cannot be filled" if len(self.core) == 1 else f"slots {names} cannot all be filled"
        how = "minimal: every one is needed" if self.minimal else "not proved minimal within the budget"
        return f"{where} with {scored} ({how})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "floor": self.floor,
            "entries": list(self.entries),
            "verdict": self.verdict.value,
            "core": None if self.core is None else list(self.core),
            "minimal": self.minimal,
            "nodes": self.nodes,
            "reason": self.describe(),
        }


@dataclass
class FillResult:
    """A backend's answer.

    Attributes:
        status: See :class:`Status`.
        backend: Name of the backend that produced it.
        cells: The grid's cells with the fill (``None`` blocks). For ``filled``/``optimal`` every
            cell of a slot holds a glyph; for ``timeout``/``interrupted`` it is the best partial
            fill found (empty cells ``""``), or None.
        entries: The slots whose entry is complete, in slot order.
        stats: Search statistics.
        reason: For ``unsatisfiable``: why, in words (which slots cannot be filled).
        empty_slots: Slot ids whose candidate set is empty, when that is the proof.
        objective: When optimising: the total score of the fill found.
        bound: When optimising: the best proved upper bound of the total score.
        blame: For a search that failed or ran out of time: slot id -> how often that slot was
            wiped out (or did the wiping) in the search (``ac``'s conflict counts); the slots a
            constructor should look at first. Empty when the backend does not tell.
        member: For a portfolio's answer: the member that found it ("2 of 4: cpsat seed 1, ...").
        weak_spots: For a quality-first fill with entries scored below ``ACCEPTABLE_SCORE``, or a
            fill proved unsatisfiable under a ``min_score``: the bounded check of that floor and
            the slots that force the weak entries (:class:`WeakSpots`); None otherwise.
        floor: When optimising the weakest entry first: the lowest entry score the total was
            maximised under (every entry scores at least this); None otherwise.
        floor_proved: Whether no fill has a weakest entry above ``floor`` (proved by ``ac``).
        shared_roots: Pairs of slot ids whose entries share a root (GREY, GREYED) and that the fill
            could not keep apart (:mod:`csp_crossword.strategies.roots`); empty when none.
        given: (slot id, entry) of the grid's complete entries the word list lacks, kept as the
            user wrote them (:mod:`csp_crossword.api.givens`); empty when none.
        rebus_first_letter: (slot id, rebus letters) of the entries that read a rebus cell as its
            first letter, because the word list has no entry spelling the rebus there
            (:mod:`csp_crossword.api.rebus`); empty when none.
    """

    status: Status
    backend: str
    cells: tuple[tuple[Cell, ...], ...] | None = None
    entries: list[Entry] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str | None = None
    empty_slots: list[str] = field(default_factory=list)
    objective: float | None = None
    bound: float | None = None
    blame: dict[str, float] = field(default_factory=dict)
    member: str | None = None
    weak_spots: WeakSpots | None = None
    floor: int | None = None
    floor_proved: bool = False
    shared_roots: list[tuple[str, str]] = field(default_factory=list)
    given: list[tuple[str, str]] = field(default_factory=list)
    rebus_first_letter: list[tuple[str, str]] = field(default_factory=list)

    @property
    def gap(self) -> float | None:
        """Relative optimality gap (0 when proved optimal), when optimising."""
        if self.objective is None or self.bound is None:
            return None
        return round((self.bound - self.objective) / max(abs(self.bound), 1.0), 6)

    @property
    def total_score(self) -> int:
        return sum(e.score or 0 for e in self.entries)

    @property
    def mean_score(self) -> float:
        return round(self.total_score / len(self.entries), 2) if self.entries else 0.0

    def weakest(self, count: int = WEAKEST_SHOWN) -> list[Entry]:
        """The ``count`` lowest-scored entries, weakest first (ties in slot order): where a
        constructor looks first."""
        ranked = sorted(enumerate(self.entries), key=lambda pair: (pair[1].score or 0, pair[0]))
        return [entry for _, entry in ranked[:count]]


@dataclass(frozen=True)
class Candidates:
    """The words that still fit one slot once every crossing is arc consistent, best first, with
    what placing each does to the rest of the grid (:mod:`csp_crossword.search.lookahead`).

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
