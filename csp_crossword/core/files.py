"""Reading and writing files: every read failure is an InputError, every write is atomic."""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from typing import Any

from .errors import InputError


def checked_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string; InputError when no file can have it (a NUL character, an empty name)."""
    name = os.fspath(path)
    if "\x00" in name:
        raise InputError("a file name cannot hold a NUL character", repr(name))
    if not name.strip():
        raise InputError("an empty file name", repr(name))
    return name


def read_input_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of an input file; InputError naming it when it is missing, unreadable, not a
    regular file (a directory, a pipe, a device: reading one could block or never end) or larger
    than :data:`~csp_crossword.core.limits.MAX_INPUT_BYTES`."""
    from .limits import MAX_INPUT_BYTES

    name = checked_path(path)
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise InputError("no such file", name) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", name) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a directory, not a file", name)
    if not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file (a pipe or a device): save the input to a file first", name)
    if info.st_size > MAX_INPUT_BYTES:
        raise InputError(f"{info.st_size:,} bytes: the most an input file may have is {MAX_INPUT_BYTES:,}", name)
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", name) from None
    if len(data) > MAX_INPUT_BYTES:  # it grew while we read it
        raise InputError(f"more than {MAX_INPUT_BYTES:,} bytes: the most an input file may have", name)
    return data


def read_text_file(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file; every failure is an :class:`InputError` naming the file."""
    name = os.fspath(path)
    return decode_text(read_input_bytes(name), name)


def decode_text(data: bytes, name: str) -> str:
    """The UTF-8 text of a file's bytes; :class:`InputError` naming the file, line and column of
    the first byte that is not UTF-8 (what :func:`read_text_file` reports)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        line_start = data.rfind(b"\n", 0, error.start) + 1
        col = len(data[line_start : error.start].decode("utf-8", errors="replace")) + 1
        raise InputError("not valid UTF-8 text", name, line, col) from None


def parse_json(text: str, path: str, what: str) -> Any:
    """The value of a JSON text; every failure is an :class:`InputError` naming ``path``: a syntax
    error (with its line and column), nesting deeper than Python's parser allows, or an integer of
    more digits than Python converts (4,300). ``what`` names the document (``an ipuz file``)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not valid JSON: {error.msg}", path, error.lineno, error.colno) from None
    except RecursionError:
        raise InputError(f"not {what}: nested too deeply", path) from None
    except ValueError as error:  # int() of a number with too many digits
        raise InputError(f"not {what}: {error}", path) from None
    lone = _lone_surrogate(text) if "\\u" in text else None
    if lone is not None:  # no character: nothing could print or write it (UTF-8 has no form for it)
        line = text.count("\n", 0, lone) + 1
        column = lone - (text.rfind("\n", 0, lone) + 1) + 1
        escape = text[lone : lone + 6]
        raise InputError(f"not {what}: {escape} is half of a surrogate pair, not a character", path, line, column)
    return value


#: A JSON escape of a UTF-16 surrogate; a high one followed by a low one is one character.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD]([89abAB]|[c-fC-F])[0-9a-fA-F]{2}")


def _lone_surrogate(text: str) -> int | None:
    """The offset of the first escape of a lone surrogate in a JSON text (one without its other
    half), or None. An escaped backslash before ``u`` is not an escape: counted by backslashes."""
    skip_until = -1
    for match in _SURROGATE_ESCAPE.finditer(text):
        start = match.start()
        if start < skip_until:
            continue
        backslashes = len(text[:start]) - len(text[:start].rstrip("\\"))
        if backslashes % 2:  # "\\ud800" is a backslash and text, not an escape
            continue
        high = match.group(1) in "89abAB"
        following = _SURROGATE_ESCAPE.match(text, match.end())
        if high and following is not None and following.group(1) not in "89abAB":
            skip_until = following.end()
            continue
        return start
    return None


#: Temporary files of an atomic write: ``.csp-crossword-<pid>-<random>.tmp`` next to the target.
TEMP_PREFIX = ".csp-crossword-"
TEMP_SUFFIX = ".tmp"


def output_target(path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()) -> str:
    """The file a write to ``path`` replaces: a symlink is followed (the link stays, its target
    gets the new contents). InputError when that is not a regular file (a directory, FIFO, device
    or socket) or when it is one of ``inputs`` (a result must never overwrite its own input)."""
    name = checked_path(path)
    target = os.path.realpath(name)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", name) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a directory: give a file name to write", name)
    if not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file (a FIFO, device or socket): refusing to replace it", name)
    for source in inputs:
        try:
            if os.path.samefile(target, os.fspath(source)):
                raise InputError(f"is the input file {os.fspath(source)}: refusing to overwrite it", name)
        except (OSError, ValueError):  # an input that is no file (missing, or a NUL in its name)
            continue
    return target


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync and a rename,
    so a crash, kill or Ctrl-C never leaves a half-written file. Missing folders are created; an
    existing file keeps its permissions; a symlink keeps pointing at the file written (see
    :func:`output_target`). Temporary files left by killed writers are removed.

    Raises:
        InputError: the target is not a regular file.
        OSError: the file could not be written (the target is then unchanged).
    """
    target = output_target(path)
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    _remove_stale_temps(folder)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # mkstemp makes the file private; give a new file the usual mode
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX)
    try:
        if isinstance(data, str):
            data = data.encode("utf-8")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        _fsync_folder(folder)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _fsync_folder(folder: str) -> None:
    """Make the rename durable (where the platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_stale_temps(folder: str) -> None:
    """Remove this program's temporary files whose writer process no longer runs."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            continue
        pid_text = name[len(TEMP_PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit() or _running(int(pid_text)):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process, or not a pid at all: leave the file alone
    return True
