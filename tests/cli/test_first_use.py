"""The first use of a built-in list keeps the job's time limit: its ready index is built in a
process of its own, waited for until the deadline, and finished after it for the next run."""

from __future__ import annotations

import time

import pytest
from csp_crossword.cli import common, main, word_lists
from csp_crossword.core.errors import LoadTimeout
from csp_crossword.words import builtin, index_build

from conftest import GRIDS

#: A builder that is still working when the job's time is up (it ends by itself).
SLOW_BUILDER = "import time; time.sleep(3)"


class Heard:
    """A reporter that keeps what it is told."""

    terminal = False

    def __init__(self):
        self.warnings: list[str] = []
        self.phases: list[str] = []

    def info(self, text: str) -> None:
        pass

    def warn(self, text: str) -> None:
        self.warnings.append(text)

    def progress(self, stats) -> None:
        self.phases.append(stats.phase)


@pytest.fixture
def not_built(monkeypatch, tmp_path):
    """The built-in list as on a machine that never used it: no ready index in the cache."""
    monkeypatch.setattr(builtin, "cache_path", lambda lang, spelling="any": str(tmp_path / "not-built.index"))


def test_the_deadline_ends_the_wait_for_the_index_with_a_warning(monkeypatch, not_built):
    monkeypatch.setattr(index_build, "BUILD_PROGRAM", SLOW_BUILDER)
    heard = Heard()
    with pytest.raises(LoadTimeout):
        word_lists._prepare_builtin("en", "us", time.monotonic() + 0.3, heard)
    assert heard.phases and set(heard.phases) == {word_lists.PREPARE_PHASE}
    assert "finished in the background" in heard.warnings[0]
    assert "preparing the built-in word list's index (first use)… " in common.progress_text(
        common.SearchStats(phase=word_lists.PREPARE_PHASE), 1.0
    )


def test_a_first_fill_under_a_time_limit_does_not_build_the_index_itself(capsys, monkeypatch, not_built):
    monkeypatch.setattr(index_build, "BUILD_PROGRAM", SLOW_BUILDER)

    def built_here(*args, **kwargs):
        raise AssertionError("the index was built inside the job, past its time limit")

    monkeypatch.setattr(builtin, "builtin_lexicon", built_here)
    code = main(["fill", str(GRIDS / "demo" / "blocks-7x7.txt"), "--time-limit", "0.5"])
    err = capsys.readouterr().err
    assert code == 3 and "index was prepared (first use on this machine)" in err


def test_without_a_time_limit_the_list_is_loaded_in_the_job_as_before(monkeypatch):
    import argparse

    from csp_crossword import api
    from csp_crossword.words.lexicon import Lexicon

    def must_not_run(*args, **kwargs):
        raise AssertionError("no builder process without a time limit")

    monkeypatch.setattr(index_build.subprocess, "Popen", must_not_run)
    monkeypatch.setattr(word_lists, "_builtin_ready", lambda lang, spelling="any": False)
    monkeypatch.setattr(api, "load_words", lambda *args, **kwargs: Lexicon.from_words(["CAT"]))
    args = argparse.Namespace(words=[], lang="en", overrides=[], allow_offensive=False)
    assert list(word_lists.load_words(args, Heard()).scores) == ["CAT"]
