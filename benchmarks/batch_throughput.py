"""Batch throughput: puzzles per minute of ``csp-crossword batch`` on 1 and 2 local workers and on
a local Ray cluster, for the same spec (docs/scaling.md).

Each run is the command a user types, in a fresh output folder, timed from start to exit
(start-up, word lists and the engine's workers included). The Ray run starts a cluster the way a
user would (``ray start --head`` on 127.0.0.1, its workers separate processes), runs the batch
with ``--ray auto``, and stops the cluster; the cluster's start is timed apart. Every
result file was read back and checked by the batch itself (``verified`` in the manifest); this
script counts them and reads the manifest for the per-kind job times.

Usage::

    python benchmarks/batch_throughput.py                       # 1 and 2 workers, then Ray
    python benchmarks/batch_throughput.py --workers 2 --no-ray --spec my.toml
    python benchmarks/batch_throughput.py --out benchmarks/results/batch-throughput.md
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "benchmarks" / "specs" / "two-hundred.toml"
RAY_PORT = 6391


def run_batch(spec: Path, out: Path, extra: list[str]) -> dict:
    """One ``batch`` run in a fresh folder: wall seconds, exit code and the manifest's counts."""
    command = [sys.executable, "-m", "csp_crossword", "batch", str(spec), "--out", str(out), *extra]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for record in records:
        if record["verified"]:
            by_kind[record["job"].split("/")[0]].append(record["seconds"])
    verified = sum(1 for r in records if r["verified"])
    return {
        "command": " ".join(["csp-crossword", "batch", spec.name, "--out", "DIR", *extra]),
        "exit": run.returncode,
        "wall": wall,
        "jobs": len(records),
        "verified": verified,
        "without_result": sum(1 for r in records if not r["file"]),
        "per_minute": 60.0 * verified / wall,
        "median_job": {kind: statistics.median(times) for kind, times in sorted(by_kind.items())},
        "stderr_tail": run.stderr.strip().splitlines()[-3:],
    }


def start_ray_cluster(workers: int) -> float:
    """``ray start --head`` on 127.0.0.1 with ``workers`` CPUs; seconds it took."""
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or "ray"
    start = time.perf_counter()
    subprocess.run(
        [
            ray,
            "start",
            "--head",
            "--node-ip-address=127.0.0.1",
            f"--port={RAY_PORT}",
            f"--num-cpus={workers}",
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def stop_ray_cluster() -> None:
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or "ray"
    subprocess.run([ray, "stop", "--force"], capture_output=True)


def table(rows: list[tuple[str, dict]]) -> str:
    lines = [
        "| engine | jobs | verified | without a file | wall s | puzzles/min | median job s (by block) |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, r in rows:
        medians = ", ".join(f"{k} {v:.2f}" for k, v in r["median_job"].items())
        lines.append(
            f"| {label} | {r['jobs']} | {r['verified']} | {r['without_result']} | {r['wall']:.1f} | "
            f"{r['per_minute']:.1f} | {medians} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", type=Path, default=SPEC)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="local pool sizes to run")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray cluster run")
    parser.add_argument("--ray-workers", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument("--out", type=Path, help="also append the table (markdown) to this file")
    args = parser.parse_args()
    rows: list[tuple[str, dict]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.workers:
            result = run_batch(args.spec, Path(scratch) / f"local-{n}", ["--jobs", str(n), "-q"])
            rows.append((f"local, {n} worker{'s' if n > 1 else ''}", result))
            print(f"local {n}: {json.dumps(result)}", flush=True)
        if not args.no_ray:
            stop_ray_cluster()
            started = start_ray_cluster(args.ray_workers)
            notes.append(
                f"`ray start --head` (this machine, {args.ray_workers} CPUs) took {started:.1f} s, not counted"
            )
            try:
                # auto: the cluster this machine's `ray start` made (Ray 2.60's token authentication
                # is set up for it; a bare HOST:PORT needs the token passed by hand)
                result = run_batch(args.spec, Path(scratch) / "ray", ["--ray", "auto", "-q"])
            finally:
                stop_ray_cluster()
            rows.append((f"Ray cluster on this machine (`ray start --head`), {args.ray_workers} CPUs", result))
            print(f"ray: {json.dumps(result)}", flush=True)
    text = table(rows) + "".join(f"\n\n{note}" for note in notes) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as handle:
            handle.write(f"\n{args.spec.name}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores\n\n{text}")
    return 0 if all(r["exit"] == 0 for _, r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
