"""Following the web API's jobs in tests (FastAPI's TestClient): start one, wait for its end."""

from __future__ import annotations

import time

#: The states a job ends in.
FINAL_STATES = ("done", "failed", "cancelled")


def wait_job(client, job_id: str, timeout: float = 60.0) -> dict:
    """The job once it has ended (AssertionError after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] in FINAL_STATES:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")


def run_job(client, body: dict, headers: dict | None = None, timeout: float = 60.0) -> dict:
    """Submit a job (it must be taken: 202) and answer it once it has ended."""
    answer = client.post("/api/jobs", json=body, headers=headers)
    assert answer.status_code == 202, answer.text
    return wait_job(client, answer.json()["id"], timeout)
