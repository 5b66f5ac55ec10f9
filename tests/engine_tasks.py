"""Task functions for the engine contract tests (a module of its own: workers import it by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def double(value: int) -> int:
    return value * 2


def fail(message: str) -> None:
    raise ValueError(message)


def note_pid_then_sleep(payload: tuple[str, float]) -> int:
    """Append this worker's pid to a file, sleep, return the pid (a task to kill mid-run)."""
    folder, seconds = payload
    with open(Path(folder) / "pids", "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")
    time.sleep(seconds)
    return os.getpid()


def pids_noted(folder: str | Path) -> list[int]:
    path = Path(folder) / "pids"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def wait_for(condition, seconds: float = 30.0) -> None:
    """Poll ``condition`` until it holds (AssertionError after ``seconds``)."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)
