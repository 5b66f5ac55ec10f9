"""``batch`` gives the same results whatever the order its jobs run and finish in: a job's result
depends on its inputs and seed alone (not on the jobs its worker ran before, nor on how long its
word list took to load), and the manifest and the report list the jobs in the spec's order."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from csp_crossword.batch import read_spec, run_batch
from csp_crossword.batch import worker as batch_worker
from csp_crossword.batch.worker import run_job
from csp_crossword.engines import Done, Task

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "grids" / "demo" / "mini-5x5.txt"
# Eight words for freeform boards that stop at the first of six words (``target``): quick jobs.
FRUIT = "apple banana cherry grape lemon mango olive peach"

SPEC = f"""
[defaults]
time_limit = 20

[[fill]]
name = "mini"
grids = ["{MINI}"]
seeds = [0, 3]
format = "json"

[[generate]]
name = "gen"
size = "5x5"
count = 1
format = "json"

[[freeform]]
name = "fruit"
words = "fruit.txt"
count = 2
target = 6
time_limit = 5
format = "json"
"""


@pytest.fixture
def spec(tmp_path):
    (tmp_path / "fruit.txt").write_text("\n".join(FRUIT.split()) + "\n")
    path = tmp_path / "spec.toml"
    path.write_text(SPEC)
    return path


class Reversed:
    """An engine that runs every task in this process and hands them back last submitted first:
    jobs that finish in the opposite of the spec's order."""

    name = "reversed"

    def __init__(self) -> None:
        self.tasks: list[Task] = []

    def submit(self, task: Task) -> None:
        self.tasks.append(task)

    def wait(self, timeout: float) -> list[Done]:
        if not self.tasks:
            return []
        task = self.tasks.pop()
        task.attempts += 1
        return [Done(task, "ok", run_job(task.payload), worker="here")]

    def cancel(self, task_id: str) -> None:
        self.tasks = [task for task in self.tasks if task.id != task_id]

    def running(self) -> dict[str, str]:
        return {}

    def outstanding(self) -> int:
        return len(self.tasks)

    def size(self) -> int:
        return 1

    def shutdown(self) -> None:
        self.tasks = []


def test_a_jobs_result_does_not_depend_on_the_jobs_its_worker_ran_before(spec):
    jobs = read_spec(spec).jobs
    forward = {job.id: run_job(job) for job in jobs}
    backward = {job.id: run_job(job) for job in reversed(jobs)}
    assert all(outcome.status == "filled" for outcome in forward.values())
    for job in jobs:
        assert backward[job.id].data == forward[job.id].data, job.id


@pytest.mark.parametrize("call", ["fill", "freeform"])
def test_the_library_gets_the_whole_time_limit_however_long_the_words_took(spec, monkeypatch, call):
    # A budget counted from the time limit (freeform's steps) must not shrink when the word list
    # is slow to load: the library gets the job's limit itself, the deadline from the job's start.
    from csp_crossword import api

    jobs = [job for job in read_spec(spec).jobs if job.kind == call]
    cache = batch_worker.worker_cache()
    loaded = cache.lexicon
    monkeypatch.setattr(cache, "lexicon", lambda source: time.sleep(0.3) or loaded(source))
    seen: list[tuple[float, float]] = []
    real = getattr(api, call)

    def spy(*args, **kwargs):
        seen.append((kwargs["time_limit"], kwargs["deadline"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(api, call, spy)
    before = time.monotonic()
    outcome = run_job(jobs[0])
    assert outcome.status == "filled" and len(seen) == 1
    limit, deadline = seen[0]
    assert limit == jobs[0].time_limit and before <= deadline - limit <= before + 0.3


def test_the_manifest_and_the_report_follow_the_spec_not_the_finishing_order(spec, tmp_path):
    order = [job.id for job in read_spec(spec).jobs]
    report = run_batch(spec, tmp_path / "out", engine=Reversed())
    assert report.complete and [record["job"] for record in report.records] == order
    lines = (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()
    assert [json.loads(line)["job"] for line in lines] == order
    # the same spec run by a pool gives the same files
    pooled = run_batch(spec, tmp_path / "pooled", workers=2)
    assert pooled.complete
    for job_id in order:
        name = f"{job_id}.json"
        assert (tmp_path / "pooled" / name).read_bytes() == (tmp_path / "out" / name).read_bytes(), job_id
