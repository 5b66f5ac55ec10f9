"""Property tests: generated and mutated inputs through every reader and the command line end in
a documented exit code with a message, never exit 70 or a traceback; and every case the fuzz
campaign (benchmarks/fuzz.py) saved in tests/data/fuzz-regressions is replayed.

Few examples each (the campaign runs thousands): together these take a few seconds.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzzcases import KINDS, REGRESSIONS, mutate, mutate_puz, regression_kind, run_case, seeds

FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities too: json.dumps writes them as NaN and Infinity
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: Glyphs that matter to the text readers, and any character.
TEXT = st.text(alphabet=st.sampled_from(list('#.AB é;:~,\t\r\n"-+_01\x00ক্ষ')) | st.characters(), max_size=120)


@cache
def _seeds() -> dict[str, list[bytes]]:
    return seeds()


def check(kind: str, data: bytes) -> None:
    """Run one case; fail with what went wrong when it did not end as documented."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / ("case" + KINDS[kind]))
        Path(path).write_bytes(data)
        outcome = run_case(kind, path, folder)
    assert outcome.failure is None, f"{outcome.failure}: {outcome.detail}"
    assert outcome.codes, "the case ran no command"


def _seed(kind: str, index: int) -> bytes:
    options = _seeds()[kind]
    return options[index % len(options)]


@FEW
@given(text=TEXT)
def test_grid_text(text):
    check("grid", text.encode("utf-8", "surrogatepass"))


@FEW
@given(index=st.integers(0, 99), key=st.sampled_from(["cells", "entries", "title", "rtl", "kind", "notes"]), value=JSON)
def test_json_result_with_a_field_replaced(index, key, value):
    document = json.loads(_seed("json", index))
    document[key] = value
    check("json", json.dumps(document).encode())


@FEW
@given(
    index=st.integers(0, 99),
    where=st.sampled_from(["dimensions", "puzzle", "solution", "clues", "block", "empty", "number", "clue"]),
    value=JSON,
)
def test_ipuz_with_a_field_replaced(index, where, value):
    document = json.loads(_seed("ipuz", index))
    if where in ("number", "clue"):
        document["clues"] = {"Across": [{"number": value, "clue": "x"} if where == "number" else [1, value]]}
    else:
        document[where] = value
    check("ipuz", json.dumps(document).encode())


@FEW
@given(index=st.integers(0, 99), line=TEXT, digits=st.text(alphabet="0123456789", min_size=1, max_size=5000))
def test_xd_with_a_line_and_a_clue_number_added(index, line, digits):
    text = _seed("xd", index).decode("utf-8", "replace")
    check("xd", (text + f"\n{line}\nA{digits}. Clue ~ AB\n").encode("utf-8", "surrogatepass"))


@FEW
@given(index=st.integers(0, 99), rng=st.randoms(use_true_random=False), raw=st.booleans())
def test_puz_mutated_with_and_without_valid_checksums(index, rng, raw):
    data = _seed("puz", index)
    check("puz", mutate("puz", data, rng) if raw else mutate_puz(data, rng))


@settings(max_examples=10, deadline=None)
@given(
    kind=st.sampled_from(["words-txt", "words-tsv", "words-csv"]),
    lines=st.lists(st.tuples(TEXT, TEXT | st.integers().map(str) | st.floats().map(str)), max_size=6),
)
def test_word_lists_of_generated_lines(kind, lines):
    separator = {"words-txt": ";", "words-tsv": "\t", "words-csv": ","}[kind]
    text = "\n".join(f"{word}{separator}{score}" for word, score in lines) + "\nABC\n"
    check(kind, text.encode("utf-8", "surrogatepass"))


@settings(max_examples=10, deadline=None)
@given(value=JSON)
def test_json_word_lists_of_any_shape(value):
    check("words-json", json.dumps(value).encode())


@FEW
@given(kind=st.sampled_from(sorted(KINDS)), index=st.integers(0, 99), seed=st.integers(0, 2**32))
def test_every_kind_mutated_as_the_campaign_does(kind, index, seed):
    check(kind, mutate(kind, _seed(kind, index), random.Random(seed)))


SAVED = sorted(REGRESSIONS.glob("*")) if REGRESSIONS.is_dir() else []


@pytest.mark.parametrize("path", [p for p in SAVED if p.name != "README.md"], ids=lambda p: p.name)
def test_saved_fuzz_regressions_end_as_documented(path):
    check(regression_kind(path.name), path.read_bytes())


def test_the_runner_reports_reader_exceptions_and_internal_errors(monkeypatch):
    import csp_crossword.cli.analyse as analyse
    import csp_crossword.formats.xd as xd

    data = _seed("xd", 0)
    original = xd.read
    monkeypatch.setattr(xd, "read", lambda path: {}["missing"])
    with pytest.raises(AssertionError, match="reader KeyError"):
        check("xd", data)
    monkeypatch.setattr(xd, "read", original)

    def broken(args, reporter):
        raise IndexError("a bug")

    monkeypatch.setattr(analyse, "cmd_slots", broken)
    with pytest.raises(AssertionError, match=r"exit 70: slots: .*IndexError: a bug"):
        check("xd", data)


def test_the_campaign_runs_and_tallies_every_kind(tmp_path):
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz.py"
    argv = [sys.executable, str(script), "--cases", "9", "--db-cases", "2", "--subprocess-every", "0"]
    argv += ["--out", str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failures: 0" in done.stdout
    assert all(f"\n{kind:<12}      1  " in done.stdout for kind in KINDS), done.stdout
    assert not any(tmp_path.iterdir())
