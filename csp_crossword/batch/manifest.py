"""The manifest of a batch's output folder: one JSON line per finished job, and a lock.

``<out>/manifest.jsonl`` gets a line when a job is finished: its result file (if any) is already
in place, written atomically, so a line never names a missing or partial file. Each line is
written whole, flushed and fsynced; a line torn by a crash (the last one, without its newline) is
dropped when the manifest is opened again, and its job runs again. A job counts as finished when
its latest line has the job's current key (a spec changed since gets its jobs done again) and,
when it names a file, that file is still there. A job done again gets a new line; the latest counts.
At the end of a run the manifest is written again, atomically, in the spec's order: one line per
job, its latest (lines of jobs the spec no longer has follow, as they were). So the same spec
gives the same manifest whatever order its jobs finished in, save the lines' timings and workers.

Fields of a line: ``job`` (id), ``key``, ``kind``, ``status`` (``filled``, ``optimal``,
``unsatisfiable``, ``timeout``, ``interrupted``, ``failed``), ``seconds`` (the job's wall time in
its worker), ``file`` (relative to the folder, or null), ``verified`` (the file as written was
read back and passed the independent checks), ``attempts``, ``worker``, ``reason``, ``summary``
and ``finished`` (UTC time).

One batch writes to a folder at a time: :func:`lock_folder` takes an exclusive lock on
``<out>/.batch.lock`` for the run.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.errors import InputError
from ..core.files import write_atomically

MANIFEST = "manifest.jsonl"
LOCK = ".batch.lock"
#: Statuses a re-run does again when asked to retry (``--retry-failed``).
RETRYABLE = ("failed", "timeout", "interrupted")


class Manifest:
    """The records of a folder's manifest, the latest per job, and appending new ones."""

    def __init__(self, folder: str):
        self.folder = folder
        self.path = os.path.join(folder, MANIFEST)
        self.records: dict[str, dict[str, Any]] = {}
        self.torn = 0  # lines dropped because a crash cut them short
        self._read()

    def finished(self, job_id: str, key: str, *, retry_failed: bool = False) -> bool:
        """Whether the job's latest record is for this key (and, with ``retry_failed``, a success)."""
        record = self.records.get(job_id)
        if record is None or record.get("key") != key:
            return False
        if record.get("file") and not os.path.isfile(os.path.join(self.folder, record["file"])):
            return False  # its file was deleted or moved since: make it again
        return not (retry_failed and record.get("status") in RETRYABLE)

    def append(self, record: dict[str, Any]) -> None:
        """Add one record: a whole line, flushed and fsynced before this returns."""
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        self.records[record["job"]] = record

    def rewrite_in_order(self, job_ids: list[str]) -> None:
        """Write the manifest again, atomically: the latest record of each job of ``job_ids`` in
        that order, then those of the other jobs it holds, in the order they were first added."""
        listed = set(job_ids)
        ordered = [self.records[j] for j in job_ids if j in self.records]
        ordered += [record for job_id, record in self.records.items() if job_id not in listed]
        if not ordered and not os.path.exists(self.path):
            return
        text = "".join(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n" for record in ordered)
        write_atomically(self.path, text)

    def _read(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read the batch manifest: {error}", self.path) from None
        lines = text.split("\n")
        whole, tail = lines[:-1], lines[-1]  # text after the last newline was cut short
        kept: list[str] = []
        for number, line in enumerate(whole, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            problem = _record_problem(record)
            if problem is not None:
                raise InputError(f"not a manifest line of csp-crossword batch: {problem}", self.path, number)
            assert isinstance(record, dict)  # _record_problem said so
            self.records[record["job"]] = record
            kept.append(line)
        if tail.strip():
            self.torn += 1
            write_atomically(self.path, "".join(line + "\n" for line in kept))


#: The fields a manifest line must have, with the types each may hold.
_RECORD_FIELDS: dict[str, tuple[type, ...]] = {
    "job": (str,),
    "key": (str,),
    "status": (str,),
    "file": (str, type(None)),
}


def _record_problem(record: object) -> str | None:
    """What is wrong with a parsed manifest line (a hand edit, another program's file), or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for name, types in _RECORD_FIELDS.items():
        if name not in record:
            return f"no {name!r} field"
        if not isinstance(record[name], types):
            return f"{name!r} is not {' or '.join('null' if t is type(None) else 'text' for t in types)}"
    file = record["file"]
    if file is not None and (os.path.isabs(file) or os.pardir in file.replace("\\", "/").split("/")):
        return f"'file' {file!r} is outside the folder"
    return None


@contextmanager
def lock_folder(folder: str) -> Iterator[None]:
    """Hold the folder's batch lock for the ``with`` block (InputError if another run has it)."""
    path = os.path.join(folder, LOCK)
    try:
        os.makedirs(folder, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held open for the whole block)
    except FileExistsError:
        raise InputError("is a file, not a folder: give a folder for the results", folder) from None
    except NotADirectoryError:
        raise InputError("a part of this path is a file, not a folder", folder) from None
    except OSError as error:
        raise InputError(f"cannot make the output folder: {error.strerror}", folder) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            message = f"another batch ({holder}) is writing to this folder: wait for it or stop it"
            raise InputError(message, folder) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


__all__ = ["LOCK", "MANIFEST", "RETRYABLE", "Manifest", "lock_folder"]
