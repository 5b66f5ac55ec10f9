"""The interface every backend implements, and helpers to turn domains into a result."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from importlib import metadata

from ..grid import Grid
from ..lexicon import WordIndex
from ..problem import FillProblem
from ..result import Entry, FillResult, SearchStats, Status

#: Called now and then during a long search with the statistics so far (for a progress line).
ProgressCallback = Callable[[SearchStats], None]


class Backend:
    """Base class of the solvers. Subclasses set ``name``, ``description`` and ``supports``.

    ``supports`` names the jobs a backend can do: ``fill``, ``prove`` (prove unsatisfiability),
    ``optimize``, ``enumerate``.
    """

    name = "base"
    description = ""
    supports: frozenset[str] = frozenset()
    #: The module the solver needs (imported lazily by ``available``), and its distribution name
    #: on PyPI (for ``version``); None for backends written here.
    solver_module: str | None = None
    solver_distribution: str | None = None

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        seed: int = 0,
        on_progress: ProgressCallback | None = None,
    ):
        self.time_limit = time_limit
        self.seed = seed
        self.on_progress = on_progress

    @classmethod
    def available(cls) -> bool:
        """Whether the solver this backend needs can be imported."""
        if cls.solver_module is None:
            return True
        try:
            importlib.import_module(cls.solver_module)
        except ImportError:
            return False
        return True

    @classmethod
    def version(cls) -> str:
        """The solver's version (the package's own for backends written here)."""
        if cls.solver_distribution is None:
            from .. import __version__

            return __version__
        return metadata.version(cls.solver_distribution)

    def solve(self, problem: FillProblem) -> FillResult:
        """Fill the problem's grid. Never raises for unsatisfiable or timed-out problems."""
        raise NotImplementedError

    def enumerate(self, problem: FillProblem) -> Enumeration:
        """Every fill of the problem, one at a time (backends that support ``enumerate``)."""
        raise NotImplementedError(f"backend {self.name} cannot enumerate fills")

    def deadline(self, start: float) -> float:
        return start + self.time_limit if self.time_limit is not None else float("inf")


class Enumeration:
    """An iterator over fills (slot number -> word id), produced lazily.

    After iteration stops, ``complete`` tells whether every fill was produced (False when the
    time limit or the consumer cut it short) and ``stats`` holds the search effort.
    """

    def __init__(self, fills, stats: SearchStats, start: float):
        self._fills = fills
        self.stats = stats
        self.start = start
        self.complete = False

    @classmethod
    def of_nothing(cls) -> Enumeration:
        empty = cls(iter(()), SearchStats(), time.monotonic())
        empty.complete = True
        empty._fills = None
        return empty

    def __iter__(self):
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
            close = getattr(fills, "close", None)
            if close is not None:
                close()


def unsatisfiable_result(problem: FillProblem, backend: str, start: float) -> FillResult:
    """The result for a problem that propagation alone proved unsatisfiable."""
    reason = "; ".join(f"{slot_id}: {why}" for slot_id, why in problem.empty)
    return FillResult(
        Status.UNSATISFIABLE,
        backend,
        stats=SearchStats(seconds=time.monotonic() - start),
        reason=reason,
        empty_slots=[slot_id for slot_id, _ in problem.empty],
    )


def fill_from_words(problem: FillProblem, words: dict[int, int]) -> tuple[tuple, list[Entry]]:
    """Cells and entries from slot number -> word id (slots not in ``words`` stay as they are)."""
    grid: Grid = problem.grid
    cells = [list(row) for row in grid.cells]
    entries: list[Entry] = []
    network = problem.network
    for s, slot in enumerate(problem.slots):
        if s not in words:
            continue
        index: WordIndex = network.indexes[s]
        word = index.words[words[s]]
        glyphs = [network.lexicon_glyphs[g] for g in index.code(words[s])]
        for (r, c), glyph in zip(slot.cells, glyphs):
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


def singleton_words(domains) -> dict[int, int]:
    """Slot number -> word id for every slot whose domain holds exactly one word."""
    return {
        s: domain.bit_length() - 1
        for s, domain in enumerate(domains)
        if domain and domain & (domain - 1) == 0
    }


def result_from_domains(
    problem: FillProblem, backend: str, status: Status, domains, stats: SearchStats
) -> FillResult:
    """A result whose fill is every slot with one word left (all slots when filled)."""
    if domains is None:
        return FillResult(status, backend, stats=stats)
    cells, entries = fill_from_words(problem, singleton_words(domains))
    return FillResult(status, backend, cells, entries, stats)
