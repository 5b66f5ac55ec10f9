"""check's core is the same on every run: under another hash seed (a set of slot ids iterates in
another order in another process) and beside a busy core (the budgets are search nodes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

from conftest import GRIDS


def core_of(words, hash_seed: str) -> tuple[list[str], int]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    argv = [sys.executable, "-m", "csp_crossword", "check", str(GRIDS / "american" / "am15-03.txt")]
    argv += ["--words", str(words), "--time-limit", "120", "--format", "json"]
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    data = json.loads(proc.stdout)
    assert data["status"] == "unsolvable", proc.stderr
    return data["core"], data["core_tests"]


def test_the_core_is_the_same_under_another_hash_seed_and_beside_a_busy_loop(shared_dict):
    words = shared_dict("words.txt")
    first = core_of(words, "1")
    done = threading.Event()

    def busy() -> None:  # keeps a core busy while the second run works
        while not done.is_set():
            sum(range(10_000))

    spinner = threading.Thread(target=busy, daemon=True)
    spinner.start()
    try:
        started = time.monotonic()
        second = core_of(words, "2")
    finally:
        done.set()
    assert second == first, f"{first} then {second} ({time.monotonic() - started:.1f} s)"
