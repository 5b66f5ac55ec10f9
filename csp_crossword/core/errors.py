"""Error types and the CLI's exit codes.

Every problem with the user's input is an :class:`InputError` that names the file and, where it
makes sense, the line and column (both 1-based), so the CLI can print one clear line instead of a
traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of the ``csp-crossword`` command (documented in ``docs/cli.md``)."""

    OK = 0
    UNSATISFIABLE = 1
    BAD_INPUT = 2
    TIMEOUT = 3
    #: A bug: an exception the program did not expect (sysexits' EX_SOFTWARE).
    INTERNAL_ERROR = 70
    #: The result could not be written to ``--output`` (it went to stdout instead; EX_CANTCREAT).
    CANNOT_WRITE = 73
    #: Stopped by a signal: the best result so far was printed. 128 + the signal's number.
    HANGUP = 129
    INTERRUPTED = 130
    TERMINATED = 143


@dataclass
class InputError(Exception):
    """Malformed or unusable input.

    Attributes:
        message: What is wrong, in words a user understands.
        path: The file concerned, if any.
        line: 1-based line number, if known.
        column: 1-based column number (in glyphs), if known.
    """

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        return where + self.message


class CannotWrite(Exception):
    """The result could not be written where the user asked (it was printed to stdout instead,
    when it is text). The CLI exits with :attr:`ExitCode.CANNOT_WRITE`."""


class LoadTimeout(Exception):
    """The job's time limit passed while an input (a word list) was being read: a timeout with
    nothing computed yet (exit 3), not an error in the input.

    Attributes:
        path: The file being read.
    """

    def __init__(self, path: str):
        super().__init__(f"{path}: the time limit passed while reading this file")
        self.path = path


class BuildTimeout(LoadTimeout):
    """The job's time limit passed while its problem was built (arc consistency over a large
    grid in the Python search): a timeout with nothing computed yet (exit 3)."""

    def __init__(self, slots: int):
        Exception.__init__(self, f"the time limit passed while the problem of {slots:,} slots was built")
        self.path = ""
