"""The Ray engine (csp_crossword.engines.ray_engine) on a private local Ray instance: the
same batch spec as tests/batch/test_batch.py, a Ray worker killed mid-job (its task retried by Ray),
and a portfolio whose members run as Ray tasks. Skipped when Ray is not installed (the optional
extra ``csp-crossword[distributed]``; .ci/run installs it)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'csp-crossword[distributed]')")

from csp_crossword import api  # noqa: E402
from csp_crossword.batch import run_batch  # noqa: E402
from csp_crossword.core.result import Status  # noqa: E402
from csp_crossword.engines import Task, make_engine  # noqa: E402
from csp_crossword.verify.fill import verify_fill  # noqa: E402
from test_batch import check_folder, manifest_lines, write_spec  # noqa: E402
from tests.engine_tasks import wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One private Ray instance for the module (starting one takes seconds)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture
def spec(tmp_path):
    return write_spec(tmp_path)


def _task_pids(name: str) -> list[int]:
    """Ray worker processes running a task called ``name`` (Ray titles them ``ray::name``)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    title = handle.read().split(b"\0")[0]
            except OSError:
                continue
            if title.startswith(f"ray::{name}".encode()):
                found.append(int(entry))
    return found


def test_the_same_spec_runs_on_ray_with_every_result_verified(spec, tmp_path):
    out = tmp_path / "out"
    report = run_batch(spec, out, engine="ray")
    assert report.engine == "ray" and report.complete and report.progress.done == 5
    assert all(r["verified"] for r in manifest_lines(out))
    assert check_folder(out, api.load_words()) == 5


def test_a_ray_worker_killed_mid_job_is_retried_and_nothing_is_lost(spec, tmp_path):
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_one(progress):
        if not killed:
            pids = _task_pids("batch_task")
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

    report = run_batch(spec, out, engine="ray", progress=kill_one)
    assert killed and report.complete and report.progress.done == 5
    assert all(r["status"] == "filled" and r["verified"] for r in manifest_lines(out))
    assert check_folder(out, api.load_words()) == 5


def test_cancel_on_ray_stops_the_task():
    engine = make_engine("ray", time.sleep, address="auto")  # a function every Ray worker can import
    engine.submit(Task("long", 60.0))
    wait_for(lambda: _task_pids("batch_task"), 30)
    engine.cancel("long")
    wait_for(lambda: not _task_pids("batch_task"), 30)
    assert engine.outstanding() == 0
    engine.shutdown()


def test_a_portfolio_on_ray_returns_a_verified_fill_naming_its_member():
    grid = ROOT / "grids" / "american" / "am15-01.txt"
    result = api.fill(grid, portfolio=2, engine="ray", time_limit=60)
    assert result.status == Status.FILLED and result.member and " of 2: " in result.member
    assert verify_fill(api.read_grid(grid), result.cells, api.load_words()) == []
