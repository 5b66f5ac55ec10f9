"""Holding Ctrl-C back while native code loads.

Python runs a signal handler between two bytecodes, wherever they are: a KeyboardInterrupt raised
inside a callback (an import lock's weakref callback, llvmlite's object-cache callback while numba
loads machine code) is printed as "Exception ignored" and dropped, and the program carries on as
if Ctrl-C never came. Around such code the interrupt is noted instead, then raised when the code
is done.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Run the block with SIGINT noted, not raised; a SIGINT that came meanwhile is raised as
    KeyboardInterrupt when the block ends. Outside the main thread, or when SIGINT does not raise
    KeyboardInterrupt (ignored, or another handler), the block runs as it is."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:  # the user's Ctrl-C wins over an error the block may be raising
            raise KeyboardInterrupt


__all__ = ["interrupts_held"]
