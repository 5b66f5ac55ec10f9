"""The ``csp-crossword`` command line: the entry point.

Results go to stdout; progress, statistics, warnings and errors to stderr. The parser is in
``parser.py``, one module per command family holds the handlers (``fill``, ``analyse``:
check/slots/candidates, ``count``: count/enumerate, ``layout``: generate/freeform, ``files``:
convert/render/export, ``backends``), and ``common.py`` what they share. Handlers turn the
arguments into keyword calls of the library API (``csp_crossword.api``). Exit codes:
``errors.ExitCode`` and docs/cli.md.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

#: numpy's BLAS would start a thread per core at import and keep them spinning a while: we do no
#: linear algebra, and on a small machine those threads take start-up time and the search's
#: cores. A user's own setting wins.
_BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def main(argv: list[str] | None = None) -> int:
    """The ``csp-crossword`` command: run ``argv`` (default ``sys.argv[1:]``), return the exit code.

    Ctrl-C while the program loads (about 0.2 s: numpy, networkx, the solvers) ends with the
    message and exit code of any interrupt, never a traceback: this module imports nothing at load
    time, and while the rest loads a Ctrl-C is only noted (:class:`_HeldInterrupt`), then acted
    on once the command is about to start. Raised in the middle of an import, it could land in an
    import lock's callback, where Python prints it and carries on as if it never came.
    """
    for name, value in _BLAS_THREADS.items():
        os.environ.setdefault(name, value)
    try:
        held = _HeldInterrupt()
        try:
            from .entry import run

            return run(argv, loaded=held.release)
        finally:
            held.release()
    except KeyboardInterrupt:
        print("csp-crossword: interrupted", file=sys.stderr)
        from ..core.errors import ExitCode

        return ExitCode.INTERRUPTED


class _HeldInterrupt:
    """Holds Ctrl-C back until :meth:`release` (which then raises it), when Python's own handler
    is the one in place (not where SIGINT is ignored, or outside the main thread)."""

    def __init__(self) -> None:
        import signal

        self.received = False
        self.previous: Callable[..., object] | int | None = None
        self._signal = signal
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            try:
                self.previous = signal.signal(signal.SIGINT, self._note)
            except ValueError:  # not the main thread
                self.previous = None

    def _note(self, _signum: int, _frame: object) -> None:
        self.received = True

    def release(self) -> None:
        if self.previous is None:
            return
        self._signal.signal(self._signal.SIGINT, self.previous)
        self.previous = None
        if self.received:
            raise KeyboardInterrupt


__all__ = ["main"]
