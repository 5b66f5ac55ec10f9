"""The first use of a built-in list keeps the job's time limit in the library too: with an empty
cache folder and a limit far shorter than the build, the call returns a timeout that says why,
and the process it started finishes the ready index for the next call."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from csp_crossword import api
from csp_crossword.core.result import Status
from csp_crossword.words import builtin, index_build
from csp_crossword.words.index_build import STILL_BUILDING, IndexTimeout

#: A limit far shorter than building the index takes (about 1.5 s on an idle core).
TINY_LIMIT = 0.05
#: Seconds within which the calls below must return or the background build end: a loose guard
#: against a hang, far from any timing, so that a busy machine passes too.
HANG_GUARD_SECONDS = 120.0


@pytest.fixture
def empty_cache(monkeypatch, tmp_path):
    """A cache folder without any ready index, for this process and the builders it starts."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def wait_for(path: str) -> None:
    """Wait for the background builder to write ``path`` (within HANG_GUARD_SECONDS)."""
    started = time.monotonic()
    while not os.path.exists(path):
        assert time.monotonic() - started < HANG_GUARD_SECONDS, "the background build never finished"
        time.sleep(0.1)


def test_the_first_load_under_a_deadline_times_out_and_the_index_is_finished_after(empty_cache, monkeypatch):
    path = builtin.cache_path("en", "us")
    started = time.monotonic()
    with pytest.raises(IndexTimeout, match=STILL_BUILDING):
        builtin.builtin_lexicon("en", spelling="us", deadline=time.monotonic() + TINY_LIMIT)
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    wait_for(path)

    def must_not_run(*args, **kwargs):
        raise AssertionError("the index was ready: no builder process was needed")

    monkeypatch.setattr(index_build.subprocess, "Popen", must_not_run)
    lexicon = builtin.builtin_lexicon("en", spelling="us", deadline=time.monotonic() + HANG_GUARD_SECONDS)
    assert "CAT" in lexicon and "COLOUR" not in lexicon


def test_generate_returns_a_timeout_that_says_the_index_was_being_built(empty_cache):
    started = time.monotonic()
    made = api.generate(5, 5, style="open", seed=1, time_limit=TINY_LIMIT)
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    assert made.result.status is Status.TIMEOUT and made.result.cells is None
    assert STILL_BUILDING in (made.result.reason or "")
    wait_for(builtin.cache_path("en", "us"))  # no builder left running into the other tests


def test_without_a_deadline_the_list_is_built_in_the_call(empty_cache, monkeypatch):
    def must_not_run(*args, **kwargs):
        raise AssertionError("no builder process without a deadline")

    monkeypatch.setattr(index_build.subprocess, "Popen", must_not_run)
    builtin.prepare_builtin("en", "uk", None)  # nothing to wait for
    lexicon = builtin.builtin_lexicon("en", spelling="uk")
    assert "COLOUR" in lexicon and "COLOR" not in lexicon
    assert os.path.exists(builtin.cache_path("en", "uk"))


def test_fill_returns_a_timeout_that_says_the_index_was_being_built(empty_cache):
    started = time.monotonic()
    grid = Path(__file__).resolve().parents[2] / "grids" / "demo" / "blocks-7x7.txt"
    result = api.fill(grid, time_limit=TINY_LIMIT)
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    assert result.status is Status.TIMEOUT and result.cells is None
    assert STILL_BUILDING in (result.reason or "")
    wait_for(builtin.cache_path("en", "us"))  # no builder left running into the other tests
