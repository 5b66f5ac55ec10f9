"""The interface every backend implements, and helpers to turn domains into a result.

A backend is one file with one :class:`Backend` subclass and one line in the registry
(``backends/__init__.py``). It declares its options as a frozen dataclass (``Options``) and
implements ``_solve`` (and ``_enumerate`` when it can). The public ``solve`` and ``enumerate``
take the per-call settings — a deadline or time limit, a stop event and a progress callback —
and do the shared prologue once: start the clock, answer problems already proved unsatisfiable
at the root, and turn a stop or deadline that has already passed into a ``timeout`` result.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..core.deadline import Deadline, StopSignal, deadline_after, earliest, time_left
from ..core.errors import InputError
from ..core.grid import Cell, Grid
from ..core.result import MISMATCH_PREFIX, Entry, FillResult, SearchStats, Status
from ..search.problem import FillProblem
from ..words.word_index import WordIndex
from .options import NoOptions, build_options

#: Called now and then during a long search with the statistics so far (for a progress line).
ProgressCallback = Callable[[SearchStats], None]
#: A fill as slot number -> word id.
WordChoice = dict[int, int]
#: Cells of a filled grid.
Cells = tuple[tuple[Cell, ...], ...]


@dataclass
class SolveCall:
    """The per-call settings of one ``solve`` or ``enumerate``, with the clock started."""

    start: float
    deadline: Deadline = None
    stop: StopSignal | None = None
    progress: ProgressCallback | None = None
    node_limit: int | None = None
    work_limit: float | None = None

    def stopped(self) -> bool:
        """Whether the caller asked to stop (cancellation or another racer's answer)."""
        return self.stop is not None and self.stop.is_set()

    def expired(self) -> bool:
        return self.stopped() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def time_left(self) -> float:
        return time_left(self.deadline)

    def elapsed(self) -> float:
        return time.monotonic() - self.start


#: Seeds are 0 to 2**31 - 1: what every solver's random generator takes (CP-SAT's is 32-bit).
MAX_SEED = 2**31 - 1


class Backend:
    """Base class of the solvers. Subclasses set ``name``, ``description``, ``supports`` and
    ``Options``, and implement ``_solve`` (and ``_enumerate``).

    ``supports`` names the jobs a backend can do: ``fill``, ``prove`` (prove unsatisfiability),
    ``optimize``, ``enumerate``.

    Args:
        options: The backend's options: an ``Options`` instance, or a dict of values (text or
            typed) checked against the declared fields.
        seed: Random seed; the same seed gives the same result.
        **option_values: Options as keywords (``ACBackend(restart_base=64)``).
    """

    name: ClassVar[str] = "base"
    description: ClassVar[str] = ""
    supports: ClassVar[frozenset[str]] = frozenset()
    #: Whether ``solve`` honours ``node_limit`` (a search that counts its decisions).
    counts_nodes: ClassVar[bool] = False
    #: Whether ``solve`` honours ``work_limit`` (a solver that measures its own deterministic work,
    #: as CP-SAT's deterministic time): for a backend that cannot count nodes.
    counts_work: ClassVar[bool] = False
    #: The frozen dataclass of this backend's options.
    Options: ClassVar[type] = NoOptions
    #: The module the solver needs (imported lazily by ``available``), and its distribution name
    #: on PyPI (for ``version``); None for backends written here.
    solver_module: ClassVar[str | None] = None
    solver_distribution: ClassVar[str | None] = None

    def __init__(self, options: Any = None, *, seed: int = 0, **option_values: Any):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}: {seed!r}")
        self.seed = seed
        if isinstance(options, self.Options):
            if option_values:
                raise TypeError("give options either as an Options instance or as keywords")
            self.options = options
        else:
            values: dict[str, Any] = dict(options or {})
            values.update(option_values)
            self.options = build_options(self.Options, values, self.name)

    def fillability_first(self) -> Backend:
        """This backend set to find any fill first, for a search where every word left is
        acceptable: the ``lookahead`` value order where the backend has one and was left at its
        default ``tier``; itself otherwise."""
        if getattr(self.options, "value_order", None) != "tier":
            return self
        options: Any = self.options
        return type(self)(replace(options, value_order="lookahead"), seed=self.seed)

    @classmethod
    def make_options(cls, values: Mapping[str, Any] | None = None) -> Any:
        """The backend's options from a dict of text or typed values (InputError when invalid)."""
        return build_options(cls.Options, values, cls.name)

    @classmethod
    def available(cls) -> bool:
        """Whether the solver this backend needs can be imported."""
        if cls.solver_module is None:
            return True
        try:
            importlib.import_module(cls.solver_module)
        except ImportError as error:
            # Ctrl-C in the middle of a compiled module's start-up comes back as an ImportError
            # ("initialization failed", pybind11) caused by the KeyboardInterrupt: an interrupt,
            # not a missing solver
            cause: BaseException | None = error
            while cause is not None:
                if isinstance(cause, KeyboardInterrupt):
                    raise KeyboardInterrupt from None
                cause = cause.__cause__ or cause.__context__
            return False
        return True

    @classmethod
    def version(cls) -> str:
        """The solver's version (the package's own for backends written here)."""
        if cls.solver_distribution is None:
            from .. import __version__

            return __version__
        from importlib import metadata

        return metadata.version(cls.solver_distribution)

    # ------------------------------------------------------------------ the public calls

    def solve(
        self,
        problem: FillProblem,
        *,
        time_limit: float | None = None,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        progress: ProgressCallback | None = None,
        node_limit: int | None = None,
        work_limit: float | None = None,
    ) -> FillResult:
        """Fill the problem's grid. Never raises for unsatisfiable or timed-out problems.

        Args:
            time_limit: Seconds from now; with ``deadline`` too, the earlier one holds.
            deadline: A ``time.monotonic()`` point at which to stop with the best partial fill.
            stop: Set it (a :class:`threading.Event`) to end the search as a timeout.
            progress: Called with the statistics now and then during a long search.
            node_limit: End as a timeout after this many decisions: a budget that does not
                depend on the machine's speed or load (backends whose ``counts_nodes`` is True;
                the others ignore it).
            work_limit: End as a timeout after this much of the solver's own deterministic work
                (backends whose ``counts_work`` is True; the others ignore it): with one worker
                and a seed, the same on every run at any load.
        """
        call = self._call(time_limit, deadline, stop, progress)
        call.node_limit = node_limit
        call.work_limit = work_limit
        if problem.unsatisfiable:
            return unsatisfiable_result(problem, self.name, call.start)
        if call.expired():
            return FillResult(Status.TIMEOUT, self.name, stats=SearchStats(seconds=call.elapsed()))
        return self._solve(problem, call)

    def enumerate(
        self,
        problem: FillProblem,
        *,
        time_limit: float | None = None,
        deadline: Deadline = None,
        stop: StopSignal | None = None,
        progress: ProgressCallback | None = None,
    ) -> Enumeration:
        """Every fill of the problem, one at a time (backends that support ``enumerate``)."""
        if "enumerate" not in self.supports:
            raise NotImplementedError(f"backend {self.name} cannot enumerate fills")
        call = self._call(time_limit, deadline, stop, progress)
        if problem.unsatisfiable:
            return Enumeration.of_nothing()
        return self._enumerate(problem, call)

    @staticmethod
    def _call(
        time_limit: float | None, deadline: Deadline, stop: StopSignal | None, progress: ProgressCallback | None
    ) -> SolveCall:
        start = time.monotonic()
        return SolveCall(start, earliest(deadline, deadline_after(time_limit, start)), stop, progress)

    # ------------------------------------------------------------------ what subclasses write

    def _solve(self, problem: FillProblem, call: SolveCall) -> FillResult:
        raise NotImplementedError

    def _enumerate(self, problem: FillProblem, call: SolveCall) -> Enumeration:
        raise NotImplementedError(f"backend {self.name} cannot enumerate fills")


#: What an enumerating search yields (fills) and returns (True when every fill was produced).
FillGenerator = Generator[WordChoice, None, bool]


class Enumeration:
    """An iterator over fills (slot number -> word id), produced lazily.

    After iteration stops, ``complete`` tells whether every fill was produced (False when the
    time limit or the consumer cut it short) and ``stats`` holds the search effort.
    """

    def __init__(self, fills: FillGenerator | None, stats: SearchStats, start: float):
        self._fills = fills
        self.stats = stats
        self.start = start
        self.complete = False

    @classmethod
    def of_nothing(cls) -> Enumeration:
        empty = cls(None, SearchStats(), time.monotonic())
        empty.complete = True
        return empty

    def __iter__(self) -> Iterator[WordChoice]:
        if self._fills is None:
            return
        fills = self._fills
        try:
            while True:
                try:
                    fill = next(fills)
                except StopIteration as stop:
                    self.complete = bool(stop.value)
                    return
                yield fill
        finally:
            self.stats.seconds = time.monotonic() - self.start
            fills.close()


def unsatisfiable_result(problem: FillProblem, backend: str, start: float) -> FillResult:
    """The result for a problem that propagation alone proved unsatisfiable."""
    reason = problem.empty_reason()
    return FillResult(
        Status.UNSATISFIABLE,
        backend,
        stats=SearchStats(seconds=time.monotonic() - start),
        reason=reason,
        empty_slots=[slot_id for slot_id, _ in problem.empty if not slot_id.startswith(MISMATCH_PREFIX)],
    )


def fill_from_words(problem: FillProblem, words: WordChoice) -> tuple[Cells, list[Entry]]:
    """Cells and entries from slot number -> word id (slots not in ``words`` stay as they are)."""
    grid: Grid = problem.grid
    cells: list[list[Cell]] = [list(row) for row in grid.cells]
    entries: list[Entry] = []
    network = problem.network
    for s, slot in enumerate(problem.slots):
        if s not in words:
            continue
        index: WordIndex = network.indexes[s]
        word = index.words[words[s]]
        glyphs = [network.lexicon_glyphs[g] for g in index.code(words[s])]
        for (r, c), glyph in zip(slot.cells, glyphs, strict=True):
            cells[r][c] = glyph
        r0, c0 = slot.start
        entries.append(
            Entry(
                slot.id,
                slot.number,
                slot.direction,
                r0,
                c0,
                slot.length,
                word,
                index.scores[words[s]],
                problem.lexicon.clue(word),
            )
        )
    return tuple(tuple(row) for row in cells), entries


def singleton_words(domains: list[int] | tuple[int, ...]) -> WordChoice:
    """Slot number -> word id for every slot whose domain holds exactly one word."""
    return {s: domain.bit_length() - 1 for s, domain in enumerate(domains) if domain and domain & (domain - 1) == 0}


def result_from_domains(
    problem: FillProblem, backend: str, status: Status, domains: list[int] | None, stats: SearchStats
) -> FillResult:
    """A result whose fill is every slot with one word left (all slots when filled)."""
    if domains is None:
        return FillResult(status, backend, stats=stats)
    cells, entries = fill_from_words(problem, singleton_words(domains))
    return FillResult(status, backend, cells, entries, stats)
