"""The engine contract (csp_crossword.engines) on the local process pool: results handed
back once, a failed function is a result, a killed worker costs its task a retry, cancellation
and shutdown leave no worker running. tests/batch/test_batch_ray.py runs the Ray engine."""

from __future__ import annotations

import os
import signal

import pytest
from csp_crossword import engines
from csp_crossword.core.errors import InputError
from csp_crossword.engines import Task, make_engine
from tests.engine_tasks import double, fail, note_pid_then_sleep, pids_noted, wait_for


def _drain(engine, seconds: float = 60.0, finished=None):
    """Every task handed back until none is outstanding (added to ``finished``, returned)."""
    finished = [] if finished is None else finished
    wait_for(lambda: finished.extend(engine.wait(0.2)) or not engine.outstanding(), seconds)
    return finished


def _pump_until(engine, finished, condition):
    """Keep taking results (into ``finished``) until ``condition`` holds."""
    wait_for(lambda: finished.extend(engine.wait(0.05)) or condition())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is not running
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(params=["forkserver", "fork"])
def local(request):
    engine = make_engine("local", double, workers=2, start_method=request.param)
    yield engine
    engine.shutdown()


def test_every_task_comes_back_once_with_its_value(local):
    for n in range(7):
        local.submit(Task(f"t{n}", n))
    finished = _drain(local)
    assert sorted(d.task.id for d in finished) == [f"t{n}" for n in range(7)]
    assert all(d.kind == "ok" and d.value == 2 * d.task.payload for d in finished)
    assert all(d.task.attempts == 1 for d in finished)
    assert local.outstanding() == 0 and local.wait(0.1) == []


def test_a_function_that_raises_is_an_error_result_and_the_worker_goes_on():
    engine = make_engine("local", fail, workers=1)
    try:
        engine.submit(Task("a", "no good"))
        engine.submit(Task("b", "nor this"))
        finished = _drain(engine)
    finally:
        engine.shutdown()
    assert [(d.task.id, d.kind) for d in finished] == [("a", "error"), ("b", "error")]
    assert finished[0].reason == "ValueError: no good"


def test_a_worker_killed_mid_task_gives_a_retry_and_nothing_is_lost(tmp_path):
    engine = make_engine("local", note_pid_then_sleep, workers=2)
    try:
        engine.submit(Task("slow", (str(tmp_path), 1.5)))
        finished: list = []
        _pump_until(engine, finished, lambda: len(pids_noted(tmp_path)) >= 1)
        victim = pids_noted(tmp_path)[0]  # the slow task's worker: nothing else has started
        engine.submit(Task("other", (str(tmp_path), 0.1)))
        os.kill(victim, signal.SIGKILL)
        _drain(engine, finished=finished)
    finally:
        engine.shutdown()
    assert sorted(d.task.id for d in finished) == ["other", "slow"]
    assert all(d.kind == "ok" for d in finished)
    redone = next(d for d in finished if d.value != victim and d.task.attempts == 2)
    assert redone.value in pids_noted(tmp_path) and not _alive(victim)


def test_a_task_whose_worker_keeps_dying_ends_lost_after_max_attempts(tmp_path):
    engine = make_engine("local", note_pid_then_sleep, workers=1, max_attempts=2)
    try:
        engine.submit(Task("doomed", (str(tmp_path), 30.0)))
        finished: list = []
        for attempt in (1, 2):
            _pump_until(engine, finished, lambda attempt=attempt: len(pids_noted(tmp_path)) >= attempt)
            os.kill(pids_noted(tmp_path)[-1], signal.SIGKILL)
        _drain(engine, finished=finished)
    finally:
        engine.shutdown()
    assert [(d.task.id, d.kind) for d in finished] == [("doomed", "lost")]
    assert "lost 2 times" in finished[0].reason


def test_cancel_and_shutdown_leave_no_worker_running(tmp_path):
    engine = make_engine("local", note_pid_then_sleep, workers=2)
    engine.submit(Task("a", (str(tmp_path), 30.0)))
    engine.submit(Task("b", (str(tmp_path), 30.0)))
    engine.submit(Task("queued", (str(tmp_path), 30.0)))
    _pump_until(engine, [], lambda: len(pids_noted(tmp_path)) >= 2)
    first, second = pids_noted(tmp_path)
    running = engine.running()
    engine.cancel("a")
    engine.cancel("queued")
    wait_for(lambda: not _alive(first) or not _alive(second))
    assert set(running) == {"a", "b"} and set(engine.running()) == {"b"}
    pids = engine.worker_pids()
    engine.shutdown()
    assert not any(_alive(pid) for pid in pids + [first, second])
    assert engine.outstanding() == 0


def test_a_task_past_its_hard_limit_is_stopped_as_an_overrun(tmp_path, monkeypatch):
    monkeypatch.setattr(engines, "OVERRUN_GRACE", 0.3)
    engine = make_engine("local", note_pid_then_sleep, workers=1)
    try:
        engine.submit(Task("stuck", (str(tmp_path), 30.0), time_limit=0.2))
        finished = _drain(engine, 20.0)
    finally:
        engine.shutdown()
    assert [(d.task.id, d.kind) for d in finished] == [("stuck", "overrun")]
    wait_for(lambda: not _alive(pids_noted(tmp_path)[0]))


def test_unknown_engine_and_bad_worker_counts_are_input_errors():
    with pytest.raises(InputError, match="unknown engine 'spark'"):
        make_engine("spark", double)
    with pytest.raises(InputError, match="1 or more"):
        make_engine("local", double, workers=0)
