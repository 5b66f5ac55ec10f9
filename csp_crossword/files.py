"""Reading and writing files: every read failure is an InputError, every write is atomic."""

from __future__ import annotations

import os
import tempfile

from .errors import InputError


def read_text_file(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file; every failure is an :class:`InputError` naming the file."""
    name = os.fspath(path)
    if os.path.isdir(name):
        raise InputError("is a directory, not a file", name)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", name) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        line_start = data.rfind(b"\n", 0, error.start) + 1
        col = len(data[line_start : error.start].decode("utf-8", errors="replace")) + 1
        raise InputError("not valid UTF-8 text", name, line, col) from None


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so a
    crash or Ctrl-C never leaves a half-written file. Missing folders are created."""
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".csp-crossword-", suffix=".tmp")
    try:
        if isinstance(data, str):
            data = data.encode("utf-8")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        umask = os.umask(0)  # mkstemp makes the file private; give it the usual mode instead
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
