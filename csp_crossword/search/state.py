"""The search state that propagation narrows, and why propagation failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: ``State.seen`` of a slot never revised: its crossings are revised in full.
NEVER_REVISED = -1


@dataclass
class Failure:
    """Why propagation failed: ``slot`` lost its last word, because of ``cause``.

    ``cause`` is the slot whose change emptied it (a crossing neighbour), the slot itself for a
    repeat conflict, or None when it was empty from the start. ``shared_run`` is True when the
    last words were removed because they share a run of glyphs with ``cause``'s entry.
    """

    slot: int
    cause: int | None
    shared_run: bool = False


class State:
    """Mutable search state: slot domains, crossing-cell glyph masks, settled (singleton) flags,
    and per slot the domain its crossings were last revised against (``seen``: every glyph of a
    crossing mask is supported by it, so a later revision only has to look at the words lost
    since)."""

    __slots__ = ("domains", "masks", "packed", "packed_from", "seen", "settled")

    def __init__(self, domains: list[int], masks: list[int], settled: list[bool], seen: list[int] | None = None):
        self.domains = domains
        self.masks = masks
        self.settled = settled
        self.seen = [NEVER_REVISED] * len(domains) if seen is None else seen
        # The compiled loop's copy of the domains (propagation_kernel.CompiledNetwork.sync) and,
        # per slot, the int object its row was made from.
        self.packed: Any = None
        self.packed_from: list[int | None] | None = None

    def copy(self) -> State:
        state = State(self.domains[:], self.masks[:], self.settled[:], self.seen[:])
        if self.packed is not None and self.packed_from is not None:
            state.packed = self.packed.copy()
            state.packed_from = self.packed_from[:]
        return state
