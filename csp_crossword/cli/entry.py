"""Running one command: stop signals, the handler, and the exit code of every outcome.

Imported by :func:`csp_crossword.cli.main` inside its Ctrl-C guard, so an interrupt while this and
the library load is a clean exit too.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..core.errors import CannotWrite, ExitCode, InputError, LoadTimeout

#: Set (to anything) to print the whole traceback of an internal error.
DEBUG_VARIABLE = "CSP_CROSSWORD_DEBUG"
#: Signals that stop a job the way Ctrl-C does, with their exit codes.
STOP_SIGNALS = {"SIGINT": ExitCode.INTERRUPTED, "SIGTERM": ExitCode.TERMINATED, "SIGHUP": ExitCode.HANGUP}


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C's KeyboardInterrupt would be, so every job stops the
    same way (the best result so far, then the signal's exit code)."""


@contextmanager
def stop_signals(received: list[int]) -> Iterator[None]:
    """While the job runs, SIGTERM and SIGHUP raise :class:`Stopped`; the signal numbers
    received are appended to ``received``."""

    def stop(signum: int, _frame: object) -> None:
        received.append(signum)
        raise Stopped()

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            try:
                previous[number] = signal.signal(number, stop)
            except ValueError:  # not the main thread (an embedding application): leave them
                pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _signal_code(received: list[int]) -> ExitCode:
    if not received:
        return ExitCode.INTERRUPTED
    return STOP_SIGNALS.get(signal.Signals(received[0]).name, ExitCode.INTERRUPTED)


def run(argv: list[str] | None, loaded: Callable[[], None] = lambda: None) -> int:
    """Parse ``argv`` and run its command; every outcome becomes an :class:`ExitCode`.
    ``loaded`` is called once the command's code is imported, just before it starts."""
    received: list[int] = []
    try:
        with stop_signals(received):
            return _run(argv, received, loaded)
    except KeyboardInterrupt:  # while starting up: parsing, before the job has a result
        print("csp-crossword: interrupted", file=sys.stderr)
        return _signal_code(received)


def _run(argv: list[str] | None, received: list[int], loaded: Callable[[], None]) -> int:
    from .common import Reporter, check_output
    from .parser import build_parser

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse exits 2 on usage errors, 0 on --help
        return int(stop.code or 0)
    reporter = Reporter(getattr(args, "quiet", False), getattr(args, "command", None) or "")
    try:
        check_output(args)
        module_name, _, function_name = args.handler.partition(":")
        handler = getattr(importlib.import_module(f"{__package__}.{module_name}"), function_name)
        _load_solver(args)
        loaded()
        code = int(handler(args, reporter))
        reporter.stop()  # the live line never outlives the command
        # a job stopped by SIGTERM or SIGHUP printed its best result and returned INTERRUPTED
        return _signal_code(received) if code == ExitCode.INTERRUPTED else code
    except InputError as error:
        reporter.stop()
        print(f"csp-crossword: error: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except LoadTimeout as error:  # commands without a partial result to give (fill has one)
        reporter.stop()
        print(f"csp-crossword: time limit reached: {error}", file=sys.stderr)
        return ExitCode.TIMEOUT
    except CannotWrite as error:
        reporter.stop()
        print(f"csp-crossword: error: {error}", file=sys.stderr)
        return ExitCode.CANNOT_WRITE
    except KeyboardInterrupt:  # outside the job's own handling: no result to give
        reporter.stop()
        if os.environ.get(DEBUG_VARIABLE):
            traceback.print_exc()
        print("csp-crossword: interrupted", file=sys.stderr)
        return _signal_code(received)
    except BrokenPipeError:
        return ExitCode.OK
    except OSError as error:  # the system refused a write (no space, no permission, read-only)
        reporter.stop()
        named = f"{error.filename}: " if error.filename else ""
        print(f"csp-crossword: error: cannot write: {named}{error.strerror or error}", file=sys.stderr)
        return ExitCode.CANNOT_WRITE
    except Exception as error:  # a bug: one line, the exit code that says so, and where to report it
        reporter.stop()
        if os.environ.get(DEBUG_VARIABLE):
            traceback.print_exc()
        where = traceback.extract_tb(error.__traceback__)[-1]
        print(
            f"csp-crossword: internal error: {type(error).__name__}: {error} "
            f"(at {os.path.basename(where.filename)}:{where.lineno}); this is a bug: please report it "
            f"with the command and its input files ({DEBUG_VARIABLE}=1 shows the traceback)",
            file=sys.stderr,
        )
        return ExitCode.INTERNAL_ERROR


def _load_solver(args: object) -> None:
    """Import the chosen backend and its solver library (OR-Tools, hundreds of modules) while
    Ctrl-C is still held (see :func:`csp_crossword.cli.main`): a Ctrl-C that lands in an import's
    callback during the job would be lost."""
    name = getattr(args, "backend", None)
    if isinstance(name, str):
        from ..backends import REGISTRY, get_backend

        if name in REGISTRY:
            get_backend(name).available()


__all__ = ["run", "stop_signals", "Stopped"]
