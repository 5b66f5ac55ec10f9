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
    INTERRUPTED = 130


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
