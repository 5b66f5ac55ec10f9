"""Bad input, failed writes and bugs: a clear message and a documented exit code, nothing lost."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import csp_crossword as cc
import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode, InputError
from csp_crossword.core.files import TEMP_PREFIX, write_atomically
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.word_index import MAX_SCORE
from csp_crossword.words.wordlists import load_word_list

GRID = "..\n..\n"
WORDS = "AB\nCD\nAC\nBD\n"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.parametrize(
    "name, content, needle",
    [
        ("nan.json", '{"AB": NaN, "CD": Infinity, "AC": 1, "BD": 2}', "score nan is not a number"),
        ("big.txt", "AB;99999999999999999999999\nCD\nAC\nBD\n", "is not a number within"),
        ("big.json", '{"AB": 99999999999999999999999, "CD": 1, "AC": 1, "BD": 1}', "is not a number within"),
    ],
)
def test_scores_that_are_not_whole_numbers_in_range_are_skipped_with_a_warning(write, name, content, needle):
    lexicon, report = load_word_list(write(name, content))
    assert "AB" not in lexicon and "AC" in lexicon and "BD" in lexicon
    assert needle in (report.warning() or "")


def test_deeply_nested_json_is_bad_input(write):
    with pytest.raises(InputError, match="nested too deeply"):
        load_word_list(write("deep.json", "[" * 100_000 + "]" * 100_000))


def test_a_csv_field_over_the_limit_is_bad_input_with_its_line(write):
    with pytest.raises(InputError, match="not a CSV word list") as caught:
        load_word_list(write("wide.csv", "word,score\nAB,1\nCD," + "9" * 200_000 + "\n"))
    assert caught.value.line == 3


def test_json_word_lists_load_in_linear_time_and_keep_their_places(write):
    words = {
        f"W{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}{chr(65 + i // 17576)}": i % 100
        for i in range(60_000)
    }
    words["BAD!"] = 5
    text = json.dumps(words, indent=1)
    lexicon, report = load_word_list(write("many.json", text))
    assert len(lexicon) == 60_000
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if "BAD!" in row)
    assert report.malformed and report.malformed[0][0] == line


def test_library_scores_are_bounded():
    with pytest.raises(ValueError, match="whole number"):
        Lexicon.from_words(["AB"], scores={"AB": MAX_SCORE + 1})
    with pytest.raises(ValueError, match="whole number"):
        Lexicon.from_words(["AB"], scores={"AB": float("nan")})  # type: ignore[dict-item]


@pytest.mark.parametrize("seed", [-1, 2**31, 10**30])
def test_seeds_out_of_range_are_bad_input(capsys, write, seed):
    code, _, err = run(capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "--seed", seed)
    assert code == ExitCode.BAD_INPUT and "--seed" in err
    with pytest.raises(InputError, match="seed"):
        cc.fill(GRID, WORDS.split(), seed=seed)


def test_an_unexpected_exception_is_exit_70_with_one_line(capsys, write, monkeypatch):
    import csp_crossword.api as api

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(api, "fill", broken)
    code, _, err = run(capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS))
    assert code == ExitCode.INTERNAL_ERROR == 70
    assert "internal error: ZeroDivisionError: boom" in err and len(err.strip().splitlines()) == 1


def test_check_exact_with_a_word_length_the_grid_lacks(capsys, write):
    code, out, _ = run(capsys, "check", write("g.txt", GRID), "--words", write("w.txt", "ABC\n"), "--exact")
    assert code == ExitCode.UNSATISFIABLE and out.startswith("unsolvable")
    # the mismatch is the whole length's, not one slot's (it said "no candidate for (none)")
    assert "cannot place every word of length 3: 0 slot(s) but 1 listed word(s)" in out
    assert "cannot place every word of length 2: 4 slot(s) but 0 listed word(s)" in out
    assert "(none)" not in out


# ----------------------------------------------------------------------------- writes


def test_output_may_not_be_a_directory_or_an_input(capsys, write, tmp_path):
    grid, words = write("g.txt", GRID), write("w.txt", WORDS)
    code, _, err = run(capsys, "fill", grid, "--words", words, "-o", tmp_path)
    assert code == ExitCode.BAD_INPUT and "is a directory" in err
    for victim in (grid, words):
        code, _, err = run(capsys, "fill", grid, "--words", words, "-o", victim)
        assert code == ExitCode.BAD_INPUT and "refusing to overwrite" in err
    assert Path(grid).read_text() == GRID and Path(words).read_text() == WORDS


@pytest.mark.skipif(os.name != "posix", reason="FIFOs")
def test_output_may_not_be_a_fifo(capsys, write, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "-o", fifo)
    assert code == ExitCode.BAD_INPUT and "not a regular file" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_an_output_in_no_folder_is_refused_before_any_work(capsys, write, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = run(
        capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "-o", blocker / "r.txt"
    )
    assert code == ExitCode.BAD_INPUT and "cannot write" in err and out == ""


def test_a_result_that_cannot_be_written_goes_to_stdout(capsys, write, tmp_path, monkeypatch):
    import csp_crossword.cli.common as common

    def full_disk(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(common, "write_atomically", full_disk)
    code, out, err = run(
        capsys, "fill", write("g.txt", GRID), "--words", write("w.txt", WORDS), "-o", tmp_path / "r.txt"
    )
    assert code == ExitCode.CANNOT_WRITE == 73
    assert out in ("AB\nCD\n", "AC\nBD\n") and "No space left on device" in err and "printed instead" in err


def test_a_grid_wider_than_a_puz_holds_is_bad_input_and_the_writer_still_refuses_one(capsys, write):
    from csp_crossword.core.grid import Grid
    from csp_crossword.formats import Puzzle
    from csp_crossword.formats.puzfile import dumps

    grid = write("wide.txt", ("." * 260 + "\n") * 2)
    words = write("w.txt", "\n".join(["A" * 200, "AB"]) + "\n")
    code, out, err = run(capsys, "fill", grid, "--words", words)
    assert code == ExitCode.BAD_INPUT and out == ""
    assert "wide.txt:1:256: the row has 260 cells; the most a grid may have is 255" in err
    wide = Grid((("",) * 260, ("",) * 260))  # a grid built in code is not bounded by the readers
    with pytest.raises(InputError, match="up to 255x255"):
        dumps(Puzzle(wide))


@pytest.mark.skipif(os.name != "posix", reason="symlinks and modes")
def test_writes_follow_symlinks_keep_modes_and_clean_stale_temps(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    os.chmod(real, 0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    stale = tmp_path / f"{TEMP_PREFIX}999999999-x.tmp"  # no such process
    stale.write_text("left by a killed writer")
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600
    assert not stale.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)] == []


# ----------------------------------------------------------------------------- CP-SAT model size and time


def test_cpsat_model_building_keeps_the_deadline(monkeypatch):
    import time

    from csp_crossword.backends import get_backend
    from csp_crossword.backends.cpsat_model import CpSatModel, ModelTimeout
    from csp_crossword.core.grid import parse_grid
    from csp_crossword.search.problem import build_problem

    if not get_backend("cpsat").available():
        pytest.skip("OR-Tools not installed")
    problem = build_problem(parse_grid(GRID), Lexicon.from_words(WORDS.split()))
    with pytest.raises(ModelTimeout):
        CpSatModel(problem, deadline=time.monotonic() - 1)
    import csp_crossword.backends.cpsat_model as cpsat_model

    monkeypatch.setattr(cpsat_model, "MAX_TABLE_VALUES", 3)
    with pytest.raises(InputError, match="table values"):
        CpSatModel(problem)
