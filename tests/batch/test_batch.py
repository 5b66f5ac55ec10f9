"""``batch`` with the local engine: result files written atomically and checked, the manifest,
resuming after a stop without duplicates or partial files, a killed worker's job retried, specs
with mistakes refused with the field named. Every file is read back here by another program's
reader (puzpy, the ipuz package) and checked with verify_fill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import ipuz
import puz
import pytest
from csp_crossword.api import load_words, read_grid
from csp_crossword.batch import read_spec, run_batch
from csp_crossword.batch.worker import run_job
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.engines import make_engine
from csp_crossword.verify.fill import pattern_problems, verify_fill
from tests.engine_tasks import wait_for

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "grids" / "demo" / "mini-5x5.txt"
FRUIT = "apple banana cherry grape lemon mango olive peach pear plum melon lime kiwi date fig"

SPEC = f"""
[defaults]
time_limit = 20

[[fill]]
name = "mini"
grids = ["{MINI}"]
seeds = 2
format = "puz"

[[generate]]
name = "gen"
size = "5x5"
count = 2

[[freeform]]
name = "fruit"
words = "fruit.txt"
time_limit = 1
format = "json"
"""


def write_spec(folder: Path) -> Path:
    """SPEC and its word list in ``folder``: five jobs, one of each kind and format."""
    (folder / "fruit.txt").write_text("\n".join(FRUIT.split()) + "\n")
    path = folder / "spec.toml"
    path.write_text(SPEC)
    return path


@pytest.fixture
def spec(tmp_path):
    return write_spec(tmp_path)


def manifest_lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]


def cells_of_puz(path: Path):
    theirs = puz.read(str(path))
    flat = [None if ch == "." else ch for ch in theirs.solution]
    return tuple(tuple(flat[r * theirs.width : (r + 1) * theirs.width]) for r in range(theirs.height))


def cells_of_ipuz(path: Path):
    data = ipuz.read(path.read_text())
    block = data.get("block", "#")

    def cell(value):
        value = value.get("value") if isinstance(value, dict) else value
        return None if value in (block, None) else value

    return tuple(tuple(cell(v) for v in row) for row in data["solution"])


def check_folder(out: Path, builtin) -> int:
    """Read every result file with another program's reader and verify it; the number checked."""
    checked = 0
    for record in manifest_lines(out):
        if not record["file"]:
            continue
        path = out / record["file"]
        if path.suffix == ".puz":
            cells = cells_of_puz(path)
            assert verify_fill(read_grid(MINI), cells, builtin) == []
        elif path.suffix == ".ipuz":
            cells = cells_of_ipuz(path)
            grid = parse_grid("\n".join("".join("#" if c is None else "." for c in row) for row in cells))
            assert verify_fill(grid, cells, builtin) == [] and pattern_problems(cells) == []
        else:
            document = json.loads(path.read_text())
            answers = [entry["answer"] for entry in document["entries"]]
            assert answers and set(answers) <= set(FRUIT.upper().split())
        checked += 1
    return checked


def test_a_batch_writes_one_verified_file_per_job_and_a_manifest(spec, tmp_path):
    out = tmp_path / "out"
    report = run_batch(spec, out, workers=2)
    assert report.complete and report.progress.done == 5 and report.progress.failed == 0
    records = manifest_lines(out)
    assert sorted(r["job"] for r in records) == [
        "fruit/fruit-s0",
        "gen/5x5-s0",
        "gen/5x5-s1",
        "mini/mini-5x5-s0",
        "mini/mini-5x5-s1",
    ]
    assert all(r["verified"] and r["status"] == "filled" and r["attempts"] == 1 for r in records)
    assert len({r["worker"] for r in records}) <= 2  # long-lived workers, not a process per job
    assert check_folder(out, load_words()) == 5
    again = run_batch(spec, out, workers=2)  # a re-run finds everything done
    assert again.progress.skipped == 5 and again.records == [] and len(manifest_lines(out)) == 5


def test_a_stopped_batch_resumes_without_redoing_or_duplicating(spec, tmp_path):
    out = tmp_path / "out"
    stop = threading.Event()
    first = run_batch(spec, out, workers=1, stop=stop, progress=lambda p: p.done and stop.set())
    assert first.interrupted and 1 <= first.progress.done < 5
    done_before = {r["job"] for r in manifest_lines(out)}
    second = run_batch(spec, out, workers=2)
    assert second.complete and second.progress.skipped == len(done_before)
    assert not done_before & {r["job"] for r in second.records}  # nothing finished was done again
    jobs = [r["job"] for r in manifest_lines(out)]
    assert len(jobs) == len(set(jobs)) == 5
    leftovers = [p.name for p in out.rglob("*") if p.name.startswith(".csp-crossword-")]
    assert leftovers == []
    assert check_folder(out, load_words()) == 5


def test_a_torn_last_manifest_line_is_dropped_and_its_job_done_again(spec, tmp_path):
    out = tmp_path / "out"
    run_batch(spec, out, workers=2)
    lines = (out / "manifest.jsonl").read_text().splitlines(keepends=True)
    torn = json.loads(lines[-1])["job"]
    (out / "manifest.jsonl").write_text("".join(lines[:-1]) + lines[-1][:25])  # a crash mid-write
    again = run_batch(spec, out, workers=2)
    assert [r["job"] for r in again.records] == [torn]
    assert len(manifest_lines(out)) == 5


def test_a_worker_killed_mid_job_costs_a_retry_and_nothing_is_lost(spec, tmp_path):
    out = tmp_path / "out"
    engine = make_engine("local", run_job, workers=2)
    killed = []

    def kill_one(progress):
        # job id -> "host:pid" of the worker running it now; the victim is the freeform job, which
        # always runs its whole second: a fill may end between this look and the kill on a busy
        # machine, and a job already done is not done again
        running = {job: worker for job, worker in engine.running().items() if job.startswith("fruit/")}
        if not killed and running:
            job, worker = next(iter(running.items()))
            pid = int(worker.rpartition(":")[2])
            os.kill(pid, signal.SIGKILL)
            killed.append((job, pid))

    report = run_batch(spec, out, engine=engine, progress=kill_one)
    assert killed and report.complete and report.progress.done == 5
    victim, pid = killed[0]
    (record,) = [r for r in manifest_lines(out) if r["job"] == victim]
    assert record["attempts"] == 2 and not record["worker"].endswith(f":{pid}")  # redone elsewhere
    assert check_folder(out, load_words()) == 5


def test_a_changed_job_is_done_again_and_a_job_without_a_fill_is_recorded(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text(".....\n")
    (tmp_path / "short.txt").write_text("cat\ndog\n")
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"fill": [{"name": "f", "grids": "g.txt", "words": "short.txt"}]}))
    out = tmp_path / "out"
    report = run_batch(spec, out, workers=1)
    (record,) = report.records
    assert record["status"] == "unsatisfiable" and record["file"] is None and record["reason"]
    assert report.complete and report.progress.failed == 1
    (tmp_path / "short.txt").write_text("cat\ndog\nhorse\n")  # the list changed, not the spec
    spec.write_text(json.dumps({"fill": [{"name": "f", "grids": "g.txt", "words": "short.txt", "time_limit": 9}]}))
    (record,) = run_batch(spec, out, workers=1).records  # a changed spec: the job runs again
    assert record["status"] == "filled" and (out / "f" / "g-s0.ipuz").exists()


def test_an_edited_word_list_or_a_deleted_file_redoes_its_job_and_exit_codes_count_every_job(tmp_path):
    (tmp_path / "g.txt").write_text(".....\n")
    (tmp_path / "w.txt").write_text("cat\n")
    spec = tmp_path / "spec.toml"
    spec.write_text("[[fill]]\nname = 'f'\ngrids = 'g.txt'\nwords = 'w.txt'\nseeds = 2\n")
    out = tmp_path / "out"
    first = run_batch(spec, out, workers=1)
    assert sorted(first.without_file) == ["f/g-s0", "f/g-s1"]
    assert sorted(run_batch(spec, out, workers=1).without_file) == ["f/g-s0", "f/g-s1"]  # still missing
    run = _cli("batch", spec, "--out", out)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 1 and "2 of them without a result file" in err
    (tmp_path / "w.txt").write_text("cat\nhorse\n")  # same path, new contents: the jobs run again
    again = run_batch(spec, out, workers=1)
    assert len(again.records) == 2 and again.without_file == []
    (out / "f" / "g-s0.ipuz").unlink()
    assert [r["job"] for r in run_batch(spec, out, workers=1).records] == ["f/g-s0"]


def test_an_output_folder_that_is_a_file_is_an_input_error(spec, tmp_path):
    (tmp_path / "taken").write_text("x")
    with pytest.raises(InputError, match="is a file, not a folder"):
        run_batch(spec, tmp_path / "taken")


def test_a_worker_loads_each_word_list_once(tmp_path):
    from csp_crossword.api.word_sources import WordCache, WordSource

    (tmp_path / "w.txt").write_text("cat\ndog\n")
    cache = WordCache()
    source = WordSource(files=(str(tmp_path / "w.txt"),))
    first = cache.lexicon(source)
    (tmp_path / "w.txt").write_text("cow\n")  # not read again: the worker keeps what it loaded
    assert cache.lexicon(source) is first and "CAT" in first.scores and len(cache) == 1
    assert cache.lexicon(WordSource(lang="en")) is not first and len(cache) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[fill]]\ngrids = 'g.txt'\nseed = 3\n", "fill[1]: unknown field 'seed'"),
        ("[[fill]]\ngrids = 'nowhere/*.txt'\n", "fill[1].grids: 'nowhere/*.txt' names no grid file"),
        ("[[fill]]\ngrids = 'g.txt'\nseeds = [1, 1]\n", "fill[1].seeds: a seed is listed twice"),
        ("[[generate]]\ncount = 2\n", "generate[1].size: give the grid size"),
        ("[[generate]]\nsize = '15x15'\ncount = 'many'\n", "generate[1].count: 'many' is not a whole number"),
        ("[[freeform]]\ncount = 2\n", "freeform[1].words: a freeform block needs its word list file"),
        ("[[fill]]\nname='a'\ngrids='g.txt'\n[[generate]]\nname='a'\nsize=5\n", "name: 'a' is the name of an"),
        ("[fill\n", "not valid TOML"),
        ("[defaults]\nformat = 'pdf'\n[[generate]]\nsize = 5\n", "generate[1].format: 'pdf'"),
        ("", "the spec lists no jobs"),
        ("[[generate]]\nsize = 5\ncount = 1000000000\n", "generate[1].count: 1000000000; a whole number from 1"),
        ("[[fill]]\ngrids = 'g.txt'\nseeds = 3000000000\n", "fill[1].seeds: 3000000000; at most"),
        ("[[generate]]\nsize = 5\n", "generate[1].count: missing"),
        ("[[fill]]\ngrids = 'g.txt'\nbackend = 'nosuch'\n", "fill[1]: unknown backend 'nosuch'"),
        ("[[fill]]\ngrids = 'g.txt'\nstrategy = 'fast'\n", "fill[1].strategy: 'fast'; choose from"),
        ("[[generate]]\nsize = 5\ncount = 1\nstyle = 'british'\n", "generate[1].style: 'british'"),
        ("[[generate]]\nsize = 5\ncount = 1\nlang = 'fr'\n", "generate[1].lang: 'fr'; choose from"),
        ("[[generate]]\nsize = 5\ncount = 1\nlang = 'ar'\nformat = 'puz'\n", "puz holds Latin letters only"),
        ("[[fill]]\ngrids = 'g.txt'\nno_shared_substring = 1\n", "no_shared_substring: 1; must be 2 or more"),
        ("[[generate]]\nname = 'manifest.jsonl'\nsize = 5\ncount = 1\n", "is the name of the batch's own file"),
        ("[[generate]]\nname = 'Daily'\nsize = 5\ncount = 1\n[[generate]]\nname = 'daily'\nsize = 5\n", "earlier"),
        ("[[generate]]\nsize = '15x15'\ncount = 1\nblocks = 500\n", "generate[1]: blocks must be between 0 and 75"),
        ("[[generate]]\nsize = '15x15'\ncount = 1\nmax_words = 20\n", "has at least 30 entries"),
        ("[[generate]]\nsize = '3x\u00b3'\ncount = 1\n", "generate[1].size .3x\u00b3.: write ROWSxCOLS"),
        ("[[generate]]\nsize = 500\ncount = 1\n", "generate[1].size 500: write ROWSxCOLS"),
        (
            "[[generate]]\nname='a'\nsize=5\ncount=60000\n[[generate]]\nname='b'\nsize=5\ncount=60000\n",
            "generate[2]: the spec comes to 120,000 jobs; at most 100,000",
        ),
    ],
)
def test_spec_mistakes_name_the_field(tmp_path, text, message):
    (tmp_path / "g.txt").write_text("...\n")
    path = tmp_path / "spec.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("*", r"\*")) as error:
        read_spec(path)
    assert error.value.path == str(path)
    if text.startswith("[fill\n"):
        assert (error.value.line, error.value.column) == (1, 6)


def _cli(*args, **kwargs):
    command = [sys.executable, "-m", "csp_crossword", *map(str, args)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


#: Generated grids in the Ctrl-C case: enough jobs that one worker is still busy when the signal
#: comes after the first result, however fast or busy the machine.
CTRL_C_GENERATED = 12
#: Runs tried until Ctrl-C lands while jobs remain (a batch that finished first tests nothing).
CTRL_C_ATTEMPTS = 3


def test_cli_ctrl_c_keeps_what_is_done_and_the_same_command_finishes(spec, tmp_path):
    spec.write_text(SPEC.replace("count = 2", f"count = {CTRL_C_GENERATED}"))
    jobs = 2 + CTRL_C_GENERATED + 1
    for attempt in range(CTRL_C_ATTEMPTS):
        out = tmp_path / f"out-{attempt}"
        run = _cli("batch", spec, "--out", out, "--jobs", "1")
        wait_for(lambda out=out: (out / "manifest.jsonl").exists() and (out / "manifest.jsonl").read_text().strip(), 60)
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
        if not (run.returncode == 0 and "0 remaining" in err):
            break  # the signal came while jobs remained, as a user's Ctrl-C mid-batch does
        # on a busy machine this process may get no processor until the batch has finished
    assert run.returncode == 130, err
    assert "run the same command again" in err and "Traceback" not in err
    kept = len(manifest_lines(out))
    again = _cli("batch", spec, "--out", out, "--jobs", "2")
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert f"{kept} done before" in err and "0 remaining" in err
    assert len(manifest_lines(out)) == jobs and check_folder(out, load_words()) == jobs


def test_cli_bad_spec_exits_2_naming_the_field(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text("[[generate]]\nsize = '15x15'\ncolour = 'red'\n")
    run = _cli("batch", path, "--out", tmp_path / "out")
    _, err = run.communicate(timeout=60)
    assert run.returncode == 2
    assert err.startswith(f"csp-crossword: error: {path}: generate[1]: unknown field 'colour'")


def test_an_output_folder_holding_the_inputs_is_refused_and_nothing_is_touched(tmp_path):
    """A block whose grids sit where its results would go: refused before any work, every input
    as it was (a result would have replaced one, and the clean-up of another format deleted one)."""
    (tmp_path / "mini").mkdir()
    (tmp_path / "g.txt").write_text(MINI.read_text())
    # job mini/g-s0 writes mini/g-s0.ipuz: the grid of a second block
    (tmp_path / "mini" / "g-s0.ipuz").write_text(json.dumps({"version": "http://ipuz.org/v2"}))
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(
        "[[fill]]\nname = 'mini'\ngrids = ['g.txt']\n[[fill]]\nname = 'other'\ngrids = ['mini/g-s0.ipuz']\n"
    )
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    with pytest.raises(InputError, match=r"job mini/g-s0's result would be written over .*mini/g-s0.ipuz"):
        run_batch(spec_path, tmp_path)
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == before


def test_the_clean_up_removes_only_files_the_manifest_says_the_batch_wrote(tmp_path):
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(f"[[fill]]\nname = 'mini'\ngrids = ['{MINI}']\nformat = 'json'\n")
    out = tmp_path / "out"
    first = run_batch(spec_path, out, workers=1)
    assert first.progress.done == 1 and (out / "mini" / "mini-5x5-s0.json").is_file()
    mine = out / "mini" / "mini-5x5-s0.puz"  # a file of the user's where another format would go
    mine.write_bytes(b"keep me")
    spec_path.write_text(f"[[fill]]\nname = 'mini'\ngrids = ['{MINI}']\nformat = 'ipuz'\n")
    second = run_batch(spec_path, out, workers=1)
    assert second.progress.done == 1
    assert (out / "mini" / "mini-5x5-s0.ipuz").is_file()
    assert not (out / "mini" / "mini-5x5-s0.json").exists()  # ours, recorded: replaced by the new format
    assert mine.read_bytes() == b"keep me"  # never written by the batch: left alone


def test_grids_that_differ_only_in_their_extension_get_their_own_jobs(tmp_path):
    (tmp_path / "g.txt").write_text("...\n")
    (tmp_path / "g.json").write_text("{}")
    path = tmp_path / "spec.toml"
    path.write_text("[[fill]]\nname = 'b'\ngrids = ['g.txt', 'g.json']\n")
    ids = [job.id for job in read_spec(path).jobs]
    assert len(set(ids)) == 2 and ids == ["b/g.txt-s0", "b/g.json-s0"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('["a", "b"]', "not a JSON object"),
        ('{"job": ["x"], "key": "k", "status": "filled", "file": null}', "'job' is not text"),
        ('{"job": "x", "key": "k", "status": "filled"}', "no 'file' field"),
        ('{"job": "x", "key": "k", "status": "filled", "file": "../../etc/passwd"}', "outside the folder"),
    ],
)
def test_a_hand_edited_manifest_line_of_the_wrong_shape_is_named(spec, tmp_path, line, problem):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.jsonl").write_text(line + "\n")
    with pytest.raises(InputError, match=problem) as error:
        run_batch(spec, out)
    assert error.value.line == 1


def test_a_manifest_that_cannot_be_written_exits_73(spec, tmp_path, monkeypatch, capsys):
    import errno

    from csp_crossword.batch.manifest import Manifest
    from csp_crossword.cli import main

    def full(self, record):
        raise OSError(errno.ENOSPC, "No space left on device", self.path)

    monkeypatch.setattr(Manifest, "append", full)
    assert main(["batch", str(spec), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 73
    err = capsys.readouterr().err
    assert "cannot write" in err and "manifest.jsonl: No space left on device" in err and "internal" not in err
