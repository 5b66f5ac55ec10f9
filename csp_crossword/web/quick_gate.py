"""The line quick requests wait in (candidates, fillability, clue suggestions): at most so many
at once and so many waiting, a page's newer request taking its older one's place."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

T = TypeVar("T")


class Busy(Exception):
    """Too many quick requests at once."""


class Superseded(Exception):
    """A newer request of the same kind from the same page took this one's place in line."""


class QuickGate:
    """At most ``running`` quick requests at once and ``waiting`` more in line (:class:`Busy`
    beyond). Used from the event loop only.

    A request with a ``key`` (the asking page and the route: candidates, fillability) only
    matters until the page asks again: a newer request with the same key takes the older one's
    place in line, and the older one ends with :class:`Superseded` (the page has already
    dropped it). So a page that asks on every keystroke holds at most one place in line per
    route, however fast the typing, and never meets a 429 of its own making."""

    def __init__(self, running: int, waiting: int):
        self.slots = asyncio.Semaphore(running)
        self.waiting = waiting
        self.in_line = 0
        #: key -> the event that tells its request in line to give up its place
        self.queued: dict[str, asyncio.Event] = {}

    async def run(self, function: Callable[..., T], *args: Any, key: str | None = None) -> T:
        if self.slots.locked():
            await self.wait(key)
        else:
            await self.slots.acquire()
        try:
            return await run_in_threadpool(function, *args)
        finally:
            self.slots.release()

    async def wait(self, key: str | None) -> None:
        """Wait in line for a slot (acquired on return), or raise Busy or Superseded."""
        older = self.queued.pop(key, None) if key else None
        if older is not None:
            older.set()  # its place is this request's now
        elif self.in_line >= self.waiting:
            raise Busy("the server is busy: try again in a moment")
        else:
            self.in_line += 1
        replaced = asyncio.Event()
        if key:
            self.queued[key] = replaced
        acquire = asyncio.ensure_future(self.slots.acquire())
        given_up = asyncio.ensure_future(replaced.wait())
        try:
            await asyncio.wait({acquire, given_up}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the client went away while waiting
            self.leave(key, replaced, acquire)
            raise
        finally:
            given_up.cancel()
        if replaced.is_set():  # a newer request took the place (and counts it)
            if acquire.done() and not acquire.cancelled():
                self.slots.release()
            else:
                acquire.cancel()
            raise Superseded("a newer request from this page replaced this one")
        if key and self.queued.get(key) is replaced:
            del self.queued[key]
        self.in_line -= 1

    def leave(self, key: str | None, replaced: asyncio.Event, acquire: asyncio.Future[Any]) -> None:
        """A request cancelled in line: its place and any slot it got go back."""
        if acquire.done() and not acquire.cancelled():
            self.slots.release()
        else:
            acquire.cancel()
        if replaced.is_set():
            return
        if key and self.queued.get(key) is replaced:
            del self.queued[key]
        self.in_line -= 1
