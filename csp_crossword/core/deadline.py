"""One deadline per job: a point on the ``time.monotonic()`` clock, passed down every call.

A user's time limit becomes a deadline once, where the job starts (:func:`deadline_after`); every
step below (solve, core search, each counted region, each generated pattern) receives that
deadline and asks how much time is left, so the job as a whole keeps the limit. ``None`` means no
limit. Cancellation is a :class:`threading.Event` (``stop``) passed the same way.

>>> deadline_after(None) is None
True
>>> time_left(None)
inf
>>> time_left(deadline_after(10.0)) > 9.0
True
>>> expired(deadline_after(0.0))
True
"""

from __future__ import annotations

import math
import time
from typing import Protocol

#: A point in time on the monotonic clock, or None for "no limit".
Deadline = float | None


def deadline_after(time_limit: float | None, start: float | None = None) -> Deadline:
    """The deadline ``time_limit`` seconds after ``start`` (default now); None without a limit."""
    if time_limit is None:
        return None
    return (time.monotonic() if start is None else start) + time_limit


def time_left(deadline: Deadline) -> float:
    """Seconds until ``deadline`` (negative when past); infinite without a deadline."""
    if deadline is None:
        return math.inf
    return deadline - time.monotonic()


class StopSignal(Protocol):
    """What a ``stop`` argument must offer; :class:`threading.Event` is one."""

    def is_set(self) -> bool: ...


class StopAny:
    """A stop signal set as soon as any of several is (``None`` entries are ignored).

    >>> import threading
    >>> a, b = threading.Event(), threading.Event()
    >>> either = StopAny(a, None, b)
    >>> either.is_set()
    False
    >>> b.set(); either.is_set()
    True
    """

    def __init__(self, *signals: StopSignal | None):
        self.signals = [s for s in signals if s is not None]

    def is_set(self) -> bool:
        return any(s.is_set() for s in self.signals)


def expired(deadline: Deadline, stop: StopSignal | None = None) -> bool:
    """Whether the deadline has passed or ``stop`` is set."""
    if stop is not None and stop.is_set():
        return True
    return deadline is not None and time.monotonic() >= deadline


def earliest(*deadlines: Deadline) -> Deadline:
    """The earliest of several deadlines (None when none is set)."""
    set_ = [d for d in deadlines if d is not None]
    return min(set_) if set_ else None
