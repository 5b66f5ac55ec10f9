"""Load test of the web constructor: many clients at once against `csp-crossword serve`.

Starts the server on localhost (its own process, ``--workers W``), then for ``--seconds`` keeps
``--candidate-clients`` threads asking for the candidates of random slots of American 15x15
patterns and ``--fill-clients`` threads submitting autofill jobs and following them to the end.
Every request must get an answer: a result, or a refusal with 429 (quick requests) or 503 (jobs)
and a Retry-After; anything else, or a request with no answer, is counted as lost. The server's
and its workers' memory (RSS from /proc) is sampled every half second.

    python benchmarks/web_load.py                      # 20 + 8 clients, 60 s, 2 workers
    python benchmarks/web_load.py --seconds 20 --json results.json

Every filled grid is re-checked with the independent verifier against the built-in list.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx
from csp_crossword.core.grid import Grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon

PATTERNS = sorted((REPO / "grids" / "american").glob("*.txt"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pattern_cells(path: Path) -> list[list[str | None]]:
    return [[None if ch == "#" else "" for ch in row] for row in path.read_text().split()]


def rss_mb(pid: int) -> float:
    """The RSS of a process and its children, in MB."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.codes: Counter[str] = Counter()
        self.candidate_ms: list[float] = []
        self.fill_seconds: list[float] = []
        self.fill_status: Counter[str] = Counter()
        self.lost: list[str] = []
        self.wrong: list[str] = []

    def add(self, kind: str, code: int) -> None:
        with self.lock:
            self.codes[f"{kind} {code}"] += 1


def candidate_client(base: str, stop: threading.Event, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    slots_of: dict[Path, list[str]] = {}  # a page numbers its grid itself: one analysis per pattern
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            path = rng.choice(PATTERNS)
            cells = pattern_cells(path)
            if path in slots_of:
                slot = rng.choice(slots_of[path])
                started = time.monotonic()
                try:
                    answer = client.post("/api/candidates", json={"grid": {"cells": cells}, "slot": slot, "limit": 50})
                except httpx.HTTPError as error:
                    with tally.lock:
                        tally.lost.append(f"candidates: {error!r}")
                    continue
                record_candidates(tally, answer, started)
                continue
            analysed = client.post("/api/analyse", json={"grid": {"cells": cells}})
            tally.add("analyse", analysed.status_code)
            if analysed.status_code != 200:
                if analysed.status_code != 429:
                    with tally.lock:
                        tally.lost.append(f"analyse answered {analysed.status_code}: {analysed.text[:100]}")
                time.sleep(0.1)
                continue
            slots_of[path] = [slot["id"] for slot in analysed.json()["slots"]]


def record_candidates(tally: Tally, answer: httpx.Response, started: float) -> None:
    tally.add("candidates", answer.status_code)
    if answer.status_code == 200:
        with tally.lock:
            tally.candidate_ms.append(1000 * (time.monotonic() - started))
    elif answer.status_code == 429:
        time.sleep(float(answer.headers.get("retry-after", "1")) / 10)
    else:
        with tally.lock:
            tally.lost.append(f"candidates answered {answer.status_code}: {answer.text[:100]}")


def fill_client(base: str, stop: threading.Event, tally: Tally, seed: int, lexicon) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as client:
        while not stop.is_set():
            path = rng.choice(PATTERNS)
            cells = pattern_cells(path)
            body = {"kind": "fill", "grid": {"cells": cells}, "time_limit": 10, "seed": rng.randrange(1000)}
            started = time.monotonic()
            try:
                answer = client.post("/api/jobs", json=body)
            except httpx.HTTPError as error:
                with tally.lock:
                    tally.lost.append(f"job: {error!r}")
                continue
            tally.add("jobs", answer.status_code)
            if answer.status_code == 503:
                time.sleep(float(answer.headers.get("retry-after", "1")) / 4)
                continue
            if answer.status_code != 202:
                with tally.lock:
                    tally.lost.append(f"job answered {answer.status_code}: {answer.text[:100]}")
                continue
            job_id = answer.json()["id"]
            job = answer.json()
            while job["state"] in ("queued", "running"):
                time.sleep(0.1)
                job = client.get(f"/api/jobs/{job_id}").json()
            with tally.lock:
                tally.fill_seconds.append(time.monotonic() - started)
                tally.fill_status[job["state"] + ":" + (job["result"] or {}).get("status", job.get("error") or "")] += 1
            result = job.get("result") or {}
            if result.get("status") == "filled":
                grid = Grid(tuple(tuple(row) for row in cells))
                problems = verify_fill(grid, tuple(tuple(r) for r in result["cells"]), lexicon)
                if problems:
                    with tally.lock:
                        tally.wrong.append(f"{path.name}: {problems[0]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--candidate-clients", type=int, default=20)
    parser.add_argument("--fill-clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "csp_crossword", "serve", "--port", str(port), "--workers", str(args.workers), "-q"],
        cwd=REPO,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        lexicon = builtin_lexicon("en")
        tally = Tally()
        stop = threading.Event()
        threads = [
            threading.Thread(target=candidate_client, args=(base, stop, tally, n))
            for n in range(args.candidate_clients)
        ] + [
            threading.Thread(target=fill_client, args=(base, stop, tally, n, lexicon)) for n in range(args.fill_clients)
        ]
        memory: list[float] = []
        for thread in threads:
            thread.start()
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            memory.append(rss_mb(server.pid))
            time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join(timeout=90)
        memory.append(rss_mb(server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)

    ms = sorted(tally.candidate_ms)
    figures = {
        "seconds": args.seconds,
        "clients": {"candidates": args.candidate_clients, "fills": args.fill_clients},
        "workers": args.workers,
        "answers": dict(sorted(tally.codes.items())),
        "candidates_ms": {
            "count": len(ms),
            "median": round(statistics.median(ms), 1) if ms else None,
            "p90": round(ms[int(0.9 * (len(ms) - 1))], 1) if ms else None,
            "max": round(ms[-1], 1) if ms else None,
        },
        "fills": {
            "finished": len(tally.fill_seconds),
            "median_s": round(statistics.median(tally.fill_seconds), 2) if tally.fill_seconds else None,
            "states": dict(tally.fill_status),
        },
        "lost": tally.lost[:10],
        "lost_count": len(tally.lost),
        "wrong": tally.wrong,
        "rss_mb": {"first": round(memory[0], 1), "max": round(max(memory), 1), "last": round(memory[-1], 1)},
        "cpus": os.cpu_count(),
    }
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0 if not tally.lost and not tally.wrong else 1


if __name__ == "__main__":
    sys.exit(main())
