"""Progress on stderr: a plain line every few seconds when stderr is not a terminal (a pipe, a CI
log), naming the command and the phase; none with ``-q``; stdout holds only the result.

The delays are monkeypatched to nothing, so short jobs report as long ones would."""

from __future__ import annotations

import itertools
import re

import csp_crossword as cc
import pytest
from csp_crossword.backends import ac
from csp_crossword.cli import common, main
from csp_crossword.core.result import SearchStats

#: Every 4-letter string over ABC: a 4x4 open grid has more fills than any test can count.
ABC_WORDS = "\n".join("".join(p) for p in itertools.product("ABC", repeat=4)) + "\n"
OPEN_4X4 = "....\n....\n....\n....\n"
#: A plain progress line: the program, the command, the phase, the elapsed time, the effort.
PLAIN_LINE = re.compile(r"^csp-crossword: (\w+): ([a-z ]+)… \d+\.\d s, .+$")


@pytest.fixture
def progress_at_once(monkeypatch):
    """Progress from the first report on, a line at every report, and ``ac`` reporting at
    every node: what a job of minutes would show, in a fraction of a second."""
    monkeypatch.setattr(common, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(common, "PROGRESS_LINE_INTERVAL", 0.0)
    monkeypatch.setattr(ac, "PROGRESS_INTERVAL", 0.0)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def progress_lines(err: str) -> list[re.Match[str]]:
    return [m for m in map(PLAIN_LINE.match, err.splitlines()) if m]


# ----------------------------------------------------------------------------- the Reporter


def test_plain_lines_name_the_command_and_each_phase(capsys, progress_at_once):
    reporter = common.Reporter(False, "check")
    for phase in ("search", "core", "count", "layout"):
        reporter.progress(SearchStats(nodes=45210, backtracks=3100, restarts=12, phase=phase))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 2)[2].split("…")[0] for line in lines] == [
        "searching",
        "finding the clashing slots",
        "counting",
        "laying out",
    ]
    assert re.fullmatch(
        r"csp-crossword: check: searching… \d+\.\d s, 45,210 nodes, 3,100 backtracks, 12 restarts", lines[0]
    )
    assert lines[1].endswith(" s, 45,210 tests")  # the core search tests sets of slots
    assert lines[3].endswith(" s, 45,210 steps")  # a layout neither backtracks nor restarts


def test_the_time_shown_is_the_commands_not_the_backends(capsys, progress_at_once):
    reporter = common.Reporter(False, "fill")
    reporter.start -= 42  # the command started 42 s ago; the backend's own clock says 0.5 s
    reporter.progress(SearchStats(nodes=1, seconds=0.5))
    assert "searching… 42." in capsys.readouterr().err


def test_counts_show_the_fills_found_so_far(capsys, progress_at_once):
    reporter = common.Reporter(False, "count")
    reporter.progress(SearchStats(nodes=10, phase="count", count=1234))
    reporter.progress(SearchStats(nodes=10, phase="count", count=1))
    first, second = capsys.readouterr().err.splitlines()
    assert "1,234 fills so far, 10 nodes" in first and "1 fill so far" in second


def test_plain_lines_wait_for_the_interval(capsys, monkeypatch):
    monkeypatch.setattr(common, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(common, "PROGRESS_LINE_INTERVAL", 60.0)
    reporter = common.Reporter(False, "count")
    reporter.progress(SearchStats())  # the first interval has not passed since the start
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(common, "PROGRESS_LINE_INTERVAL", 0.0)
    reporter.progress(SearchStats())
    assert len(capsys.readouterr().err.splitlines()) == 1
    monkeypatch.setattr(common, "PROGRESS_LINE_INTERVAL", 60.0)
    for _ in range(5):
        reporter.progress(SearchStats())
    assert capsys.readouterr().err == ""  # none until 60 s after the last one


def test_nothing_before_the_delay_nor_when_quiet(capsys, monkeypatch):
    monkeypatch.setattr(common, "PROGRESS_LINE_INTERVAL", 0.0)
    common.Reporter(False, "fill").progress(SearchStats())  # under PROGRESS_DELAY (1 s) since the start
    monkeypatch.setattr(common, "PROGRESS_DELAY", 0.0)
    common.Reporter(True, "fill").progress(SearchStats())
    assert capsys.readouterr().err == ""


# ----------------------------------------------------------------------------- commands


def test_count_prints_progress_lines_and_only_the_result_on_stdout(capsys, write, progress_at_once):
    grid, words = write("g.txt", OPEN_4X4), write("w.txt", ABC_WORDS)
    code, out, err = run(capsys, "count", grid, "--words", words, "--allow-duplicates", "--time-limit", "0.5")
    assert code == 3
    assert re.fullmatch(r"at least \d+ fills \(stopped by the time limit\)\n", out)
    lines = progress_lines(err)
    assert lines and all(m[1] == "count" and m[2] == "counting" for m in lines)
    assert "fills so far" in lines[-1][0]


def test_quiet_prints_no_progress(capsys, write, progress_at_once):
    grid, words = write("g.txt", OPEN_4X4), write("w.txt", ABC_WORDS)
    code, out, err = run(capsys, "count", grid, "--words", words, "--allow-duplicates", "--time-limit", "0.3", "-q")
    assert code == 3 and out.startswith("at least ")
    assert "…" not in err and not progress_lines(err)


def test_enumerate_reports_fills_so_far_between_whole_fills(capsys, write, progress_at_once):
    grid, words = write("g.txt", OPEN_4X4), write("w.txt", ABC_WORDS)
    code, out, err = run(
        capsys, "enumerate", grid, "--words", words, "--allow-duplicates", "--limit", "300", "--format", "json"
    )
    assert code == 0 and len(out.splitlines()) == 300 and all(line.startswith("{") for line in out.splitlines())
    lines = progress_lines(err)
    assert lines and all(m[1] == "enumerate" and m[2] == "counting" for m in lines)


def test_check_reports_its_search(capsys, write, progress_at_once):
    grid, words = write("g.txt", OPEN_4X4), write("w.txt", ABC_WORDS)
    code, out, err = run(capsys, "check", grid, "--words", words, "--time-limit", "5")
    assert code == 0 and out.startswith("solvable")
    lines = progress_lines(err)
    assert lines and {m[1] for m in lines} == {"check"}
    assert {m[2] for m in lines} <= {"searching", "finding the clashing slots"}


def test_freeform_reports_boards_laid_out(capsys, write, progress_at_once):
    words = write("w.txt", "PUZZLE\nSOLVER\nGRID\nCLUE\nWORD\n")
    code, out, err = run(capsys, "freeform", words, "--time-limit", "0.3", "--show", "solution")
    assert code == 0 and out.startswith("Solution\n")
    lines = progress_lines(err)
    assert lines and all(m[1] == "freeform" and m[2] == "laying out" and m[0].endswith(" boards") for m in lines)


# ----------------------------------------------------------------------------- the library


def test_layouts_report_phase_layout_with_growing_nodes():
    seen: list[SearchStats] = []
    cc.freeform(["PUZZLE", "SOLVER", "GRID", "CLUE", "WORD"], time_limit=0.2, seed=1, progress=seen.append)
    assert seen and {s.phase for s in seen} == {"layout"} and seen[-1].nodes > seen[0].nodes
    seen.clear()
    words = ["".join(p) for p in itertools.product("AB", repeat=3)]
    cc.generate(5, 5, words, max_run=3, method="progressive", time_limit=0.3, progress=seen.append)
    assert seen and {s.phase for s in seen} == {"layout"} and seen[-1].nodes >= seen[0].nodes > 0


def test_count_reports_phase_count_with_the_fills_so_far(progress_at_once):
    seen: list[SearchStats] = []
    words = ["".join(p) for p in itertools.product("ABC", repeat=4)]
    cc.count(OPEN_4X4, words, allow_duplicates=True, time_limit=0.3, progress=seen.append)
    assert seen and seen[-1].phase == "count" and seen[-1].count is not None and seen[-1].count > 0
    assert "count" not in SearchStats().to_dict()  # only a count's statistics carry one


def test_a_first_load_of_the_built_in_list_is_announced_on_a_terminal(capsys, monkeypatch, tmp_path):
    import argparse

    from csp_crossword import api
    from csp_crossword.words import builtin
    from csp_crossword.words.lexicon import Lexicon

    monkeypatch.setattr(api, "load_words", lambda *args, **kwargs: Lexicon.from_words(["CAT"]))
    args = argparse.Namespace(words=[], lang="en", overrides=[], allow_offensive=False)
    reporter = common.Reporter(quiet=False, command="fill")
    monkeypatch.setattr(common.Reporter, "terminal", property(lambda self: True))
    monkeypatch.setattr(builtin, "cache_path", lambda lang, spelling="any": str(tmp_path / "not-built-yet.index"))
    common.load_words(args, reporter)
    assert "preparing the built-in word list" in capsys.readouterr().err
    (tmp_path / "not-built-yet.index").write_bytes(b"")  # built: nothing to say
    common.load_words(args, reporter)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(common.Reporter, "terminal", property(lambda self: False))  # a log: no note
    (tmp_path / "not-built-yet.index").unlink()
    common.load_words(args, reporter)
    assert capsys.readouterr().err == ""


def test_optimize_reports_each_step_and_names_what_proved_the_total(capsys, write, progress_at_once):
    ring = write("ring.txt", "...\n.#.\n...\n")
    words = write("r.txt", "CAT;50\nCOD;50\nTAN;60\nDEN;60\nPIT;99\nPOD;10\nTEN;20\nDIN;20\n")
    code, out, err = run(capsys, "fill", ring, "--words", words, "--backend", "cpsat", "--optimize")
    assert code == 0 and sorted(out.split()) == ["A#E", "COD", "TAN"]
    phases = {m.group(2) for m in progress_lines(err)}
    assert "proving the best total by branch and bound" in phases
    assert "proved optimal by the branch and bound in " in err and "optimal by ac" not in err
    assert "note: the branch and bound proved the total optimal before cpsat was needed" in err
