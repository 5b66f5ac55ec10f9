"""The arc-consistency loop of :mod:`csp_crossword.search.propagation`, compiled.

:meth:`Network.propagate` spends almost all of a search's time in a short loop over crossings and
glyphs. Here the same loop runs as machine code (``_kernel.c``, a C extension the package's build
compiles; ``setup.py``) over flat ``uint64`` arrays:

* every slot's domain is a row of 64-bit words in one array (``State.packed``), kept in step with
  the Python-int domains the rest of the search reads: a row is rewritten only when the int in
  ``State.domains`` is no longer the very object the row was made from (identity, not equality:
  any write through ``state.domains[s] = ...`` replaces the object), and only the slots the
  kernel changed are turned back into ints;
* per word length, position and glyph, the bitset of the words with that glyph there (the
  :class:`~csp_crossword.words.word_index.WordIndex` columns), and the words' glyph codes, for
  domains of a few words;
* crossing-cell glyph masks as one ``uint64`` each, so the kernel serves alphabets of up to
  :data:`MAX_GLYPHS` glyphs (English, Arabic, digits); larger ones (Bangla's clusters) and the
  rules the kernel does not know (per-word use limits of fill-in puzzles, no shared runs) keep
  the pure-Python loop.

The kernel computes the same fixpoint as the Python loop, which stays the reference and the
fallback: when the extension was not built (no C compiler at install time) or with
``CSP_CROSSWORD_JIT=0``. The kernel releases the interpreter lock while it runs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..words.word_index import WordIndex
    from .constraints import Constraints
    from .state import State

#: Glyphs a crossing cell's mask can hold in one 64-bit word.
MAX_GLYPHS = 64
#: Environment variable that turns the compiled loop off ("0").
JIT_VARIABLE = "CSP_CROSSWORD_JIT"


def jit_enabled() -> bool:
    """False when ``CSP_CROSSWORD_JIT=0`` (or ``false``/``no``/``off``) asks for the Python loop."""
    return os.environ.get(JIT_VARIABLE, "1").strip().lower() not in {"0", "false", "no", "off"}


#: Seconds the process spends in the Python loop before it packs its networks for the compiled
#: one: a problem decided sooner (a small grid, most sub-problems of a core search) never imports
#: numpy for the packing. Once used, every network of the process uses the compiled loop.
WARMUP_SECONDS = 0.1


class _KernelCache:
    """The process's compiled kernel (None: not tried yet; False: unavailable), whether a
    network was packed for it yet, and the seconds its networks spent in the Python loop before
    that."""

    kernel: Any = None
    packed = False
    python_seconds = 0.0


def note_python_seconds(seconds: float) -> None:
    """Count time spent in the Python loop towards WARMUP_SECONDS."""
    _KernelCache.python_seconds += seconds


def kernel_wanted() -> bool:
    """Whether the compiled loop should be used now: a network was packed for it already, or
    the Python loop has had its WARMUP_SECONDS (importing the extension is not enough: a small
    search in Python imports no numpy)."""
    return _KernelCache.packed or _KernelCache.python_seconds >= WARMUP_SECONDS


def kernel_module() -> Any:
    """The compiled extension (``propagate`` and ``Search``), or None when it was not built or
    is turned off."""
    if not jit_enabled():
        return None
    if _KernelCache.kernel is None:
        try:
            from . import _kernel  # type: ignore[attr-defined]
        except ImportError:
            _KernelCache.kernel = False
        else:
            _KernelCache.kernel = _kernel
    return _KernelCache.kernel or None


def kernel() -> Any:
    """The compiled kernel's ``propagate``, or None when the extension was not built or the
    kernel is turned off."""
    module = kernel_module()
    return None if module is None else module.propagate


class CompiledNetwork:
    """A problem's :class:`~csp_crossword.search.constraints.Constraints` as the kernel's flat arrays."""

    def __init__(self, net: Constraints, function: Any):
        import numpy as np  # imported with the loop: a small problem never needs it

        _KernelCache.packed = True
        self.function = function
        n = len(net.slots)
        self.widths = np.array([(len(index) + 63) // 64 for index in net.indexes], dtype=np.int64)
        self.offsets = np.zeros(n, dtype=np.int64)
        if n:
            self.offsets[1:] = np.cumsum(self.widths)[:-1]
        self.total = int(self.widths.sum())
        self.lengths = np.array([slot.length for slot in net.slots], dtype=np.int64)
        kind_of: dict[int, int] = {}
        kind_indexes: list[WordIndex] = []
        for index in net.indexes:
            if id(index) not in kind_of:
                kind_of[id(index)] = len(kind_indexes)
                kind_indexes.append(index)
        self.kinds = np.array([kind_of[id(index)] for index in net.indexes], dtype=np.int64)
        glyphs = max(1, len(net.lexicon.alphabet))
        longest = max((index.length for index in kind_indexes), default=1)
        self.column_offsets = np.full((len(kind_indexes), longest, glyphs), -1, dtype=np.int64)
        column_pieces: list[Any] = []
        code_pieces: list[Any] = []
        self.code_offsets = np.zeros(len(kind_indexes), dtype=np.int64)
        at = 0
        code_at = 0
        for k, index in enumerate(kind_indexes):
            starts, words = index.packed_columns
            self.column_offsets[k, : index.length] = np.where(starts >= 0, starts + at, -1)
            column_pieces.append(words)
            at += words.shape[0]
            self.code_offsets[k] = code_at
            matrix = np.ascontiguousarray(index.matrix, dtype=np.uint8).reshape(-1)
            code_pieces.append(matrix)
            code_at += matrix.shape[0]
        self.columns = np.concatenate(column_pieces) if at else np.zeros(1, np.uint64)
        self.codes = np.concatenate(code_pieces) if code_pieces else np.zeros(1, np.uint8)
        starts = [0]
        rows: list[tuple[int, int, int, int]] = []
        for row in net.neighbours:
            rows.extend(row)
            starts.append(len(rows))
        self.nb_start = np.array(starts, dtype=np.int64)
        table = np.array(rows, dtype=np.int64).reshape(-1, 4)
        self.nb_other, self.nb_pos, self.nb_other_pos, self.nb_cell = (
            np.ascontiguousarray(table[:, k]) for k in range(4)
        )
        same = [0]
        same_rows: list[int] = []
        for s, group in enumerate(net.same_length):
            same_rows.extend(u for u in group if u != s)
            same.append(len(same_rows))
        self.same_start = np.array(same, dtype=np.int64)
        self.same_slots = np.array(same_rows, dtype=np.int64)
        self.check_repeats = not net.allow_duplicates
        self.nbytes = [int(w) * 8 for w in self.widths]
        self.row_starts: list[int] = self.offsets.tolist()
        self.score_offsets = np.zeros(len(kind_indexes), dtype=np.int64)
        score_pieces: list[Any] = []
        at = 0
        for k, index in enumerate(kind_indexes):
            self.score_offsets[k] = at
            score_pieces.append(index.score_array)
            at += len(index)
        self.scores = np.concatenate(score_pieces) if at else np.zeros(1, np.int64)

    @property
    def structure(self) -> tuple[Any, ...]:
        """The arrays both kernel entry points take after the state, in their order."""
        return (
            self.offsets,
            self.widths,
            self.kinds,
            self.column_offsets,
            self.columns,
            self.code_offsets,
            self.codes,
            self.lengths,
            self.nb_start,
            self.nb_other,
            self.nb_pos,
            self.nb_other_pos,
            self.nb_cell,
            self.same_start,
            self.same_slots,
        )

    def search(
        self,
        state: State,
        *,
        value_order: int = 0,
        luby: bool = True,
        restart_base: float = 128.0,
        restart_growth: float = 1.5,
        nogoods: bool = True,
        nogood_literals: int | None = None,
        weight_decay: float = 1.0,
        value_noise: float = 1.0,
        seed: int = 0,
        enumerate: bool = False,
    ) -> Any:
        """The compiled core's ``Search`` from ``state`` (``kernel/search.h`` for the settings;
        ``nogood_literals`` None: no limit on the no-goods kept)."""
        import numpy as np

        module = kernel_module()
        assert module is not None  # a CompiledNetwork exists only when the extension does
        return module.Search(
            self.sync(state),
            np.array(state.masks, dtype=np.uint64),
            np.array(state.settled, dtype=np.uint8),
            *self.structure,
            self.scores,
            self.score_offsets,
            self.longest,
            self.glyph_count,
            self.check_repeats,
            value_order,
            luby,
            restart_base,
            restart_growth,
            nogoods,
            -1 if nogood_literals is None else nogood_literals,
            weight_decay,
            value_noise,
            seed,
            enumerate,
        )

    @property
    def longest(self) -> int:
        return int(self.column_offsets.shape[1])

    @property
    def glyph_count(self) -> int:
        return int(self.column_offsets.shape[2])

    def unpack(self, packed: bytes) -> list[int]:
        """Python-int domains from packed rows (``bytes`` of the uint64 array)."""
        return [
            int.from_bytes(packed[8 * int(start) : 8 * int(start + width)], "little")
            for start, width in zip(self.offsets.tolist(), self.widths.tolist(), strict=True)
        ]

    def rows_of(self, domains: list[int]) -> Any:
        """Packed rows (one uint64 array) holding ``domains``."""
        import numpy as np

        rows = np.zeros(self.total, dtype=np.uint64)
        for s, domain in enumerate(domains):
            self.write_row(rows, s, domain)
        return rows

    def write_row(self, rows: Any, s: int, domain: int) -> None:
        """Set slot s's row of ``rows`` (packed, as :meth:`rows_of` makes them) to ``domain``."""
        import numpy as np

        start = self.row_starts[s]
        rows[start : start + self.nbytes[s] // 8] = np.frombuffer(domain.to_bytes(self.nbytes[s], "little"), np.uint64)

    def sync(self, state: State) -> Any:
        """``state.packed``, its rows brought up to date with ``state.domains``."""
        import numpy as np

        domains = state.domains
        packed = state.packed
        made_from = state.packed_from
        if packed is None or made_from is None:
            packed = state.packed = np.zeros(self.total, dtype=np.uint64)
            made_from = state.packed_from = [None] * len(domains)
        for s, domain in enumerate(domains):
            if domain is not made_from[s]:
                self.write_row(packed, s, domain)
                made_from[s] = domain
        return packed

    def propagate(self, state: State, changed: list[int]) -> tuple[int, int]:
        """Run the kernel on ``state`` (updated in place); (failed slot, cause); either is -1 for none
        (``_kernel.c``'s ``NO_FAILURE``, ``NO_CAUSE``)."""
        import numpy as np

        packed = self.sync(state)
        n = len(state.domains)
        masks = np.array(state.masks, dtype=np.uint64)
        settled = np.array(state.settled, dtype=np.uint8)
        touched = np.zeros(n, dtype=np.uint8)
        slot, cause = self.function(
            packed,
            masks,
            settled,
            touched,
            np.array(changed, dtype=np.int64),
            *self.structure,
            self.longest,
            self.glyph_count,
            self.check_repeats,
        )
        domains = state.domains
        made_from = state.packed_from
        assert made_from is not None  # made by sync
        offsets, widths = self.offsets, self.widths
        for s in np.flatnonzero(touched).tolist():
            start = offsets[s]
            value = int.from_bytes(packed[start : start + widths[s]].tobytes(), "little")
            domains[s] = value
            made_from[s] = value
        state.masks[:] = masks.tolist()
        state.settled[:] = [bool(flag) for flag in settled.tolist()]
        return int(slot), int(cause)
