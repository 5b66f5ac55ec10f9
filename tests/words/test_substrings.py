"""``--no-shared-substring N``: no two entries share a run of N letters, on every backend."""

from __future__ import annotations

import json

import pytest
from csp_crossword import api
from csp_crossword.backends import get_backend, names
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from bruteforce import share_run

BACKENDS = [name for name in names() if get_backend(name).available()]
ENUMERATORS = [name for name in BACKENDS if "enumerate" in get_backend(name).supports]

#: A ring of four 3-letter slots: fillable, but every fill has two entries sharing 2 letters.
RING = "...\n.#.\n...\n"
RING_WORDS = ["CAT", "TAR", "CAR", "RAT", "ART", "TAT", "ARC"]
#: Two unconnected 4-letter slots; the two best words share TAR.
PAIR = "....#....\n"
PAIR_WORDS = {"STAR": 90, "TARS": 80, "MOON": 10}


def run(capsys, *argv):
    from csp_crossword.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def entries_share(answers: list[str], n: int) -> bool:
    return any(share_run(a, b, n) for k, a in enumerate(answers) for b in answers[k + 1 :])


@pytest.mark.parametrize("backend", BACKENDS)
def test_only_violating_fills_means_unsatisfiable(backend, capsys, write):
    grid = write("ring.txt", RING)
    words = write("ring.dict", "\n".join(RING_WORDS) + "\n")
    code, out, _ = run(capsys, "fill", grid, "--words", words, "--backend", backend, "--format", "json", "-q")
    assert code == 0
    answers = [e["answer"] for e in json.loads(out)["entries"]]
    assert entries_share(answers, 2)  # the fill exists, but breaks the rule
    code, out, _ = run(
        capsys, "fill", grid, "--words", words, "--backend", backend, "--no-shared-substring", "2", "--format", "json"
    )
    assert code == 1 and json.loads(out)["status"] == "unsatisfiable"
    # a run of 3 is never shared by two different 3-letter words: the rule then changes nothing
    code, _, _ = run(capsys, "fill", grid, "--words", words, "--backend", backend, "--no-shared-substring", "3")
    assert code == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_rule_changes_the_fill(backend):
    plain = api.fill(PAIR, PAIR_WORDS, backend=backend)
    assert plain.status == Status.FILLED
    if backend in ("ac", "auto"):  # best scores first
        assert sorted(e.answer for e in plain.entries) == ["STAR", "TARS"]
    ruled = api.fill(PAIR, PAIR_WORDS, backend=backend, no_shared_substring=3)
    answers = sorted(e.answer for e in ruled.entries)
    assert ruled.status == Status.FILLED and "MOON" in answers and not entries_share(answers, 3)


def test_startle_and_restart_share_a_run_of_four():
    words = {"STARTLE": 90, "RESTART": 80, "CARTELS": 10}
    grid = ".......#.......\n"
    assert sorted(e.answer for e in api.fill(grid, words).entries) == ["RESTART", "STARTLE"]
    ruled = api.fill(grid, words, no_shared_substring=4)
    assert sorted(e.answer for e in ruled.entries) == ["CARTELS", "STARTLE"]
    assert sorted(e.answer for e in api.fill(grid, words, no_shared_substring=5).entries) == ["CARTELS", "STARTLE"]
    # they share START, but no run of 6
    assert sorted(e.answer for e in api.fill(grid, words, no_shared_substring=6).entries) == ["RESTART", "STARTLE"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_given_and_required_entries_count(backend):
    given = api.fill("STAR#....\n", PAIR_WORDS, backend=backend, no_shared_substring=3)
    assert [e.answer for e in given.entries] == ["STAR", "MOON"]
    required = api.fill(PAIR, PAIR_WORDS, backend=backend, require={"2A": "TARS"}, no_shared_substring=3)
    assert [e.answer for e in required.entries] == ["MOON", "TARS"]
    both = api.fill(PAIR, PAIR_WORDS, backend=backend, require={"1A": "STAR", "2A": "TARS"}, no_shared_substring=3)
    assert both.status == Status.UNSATISFIABLE


def test_given_entries_that_share_a_run_are_refuted_at_the_root_with_the_reason():
    problem = build_problem(
        parse_grid("STAR#TARS"), Lexicon.from_words(["STAR", "TARS"]), FillOptions(no_shared_substring=3)
    )
    assert problem.unsatisfiable
    (slot_id, why), *_ = problem.empty
    assert slot_id == "2A"
    assert "shares a run of 3 letters" in why


def test_verifier_rejects_entries_sharing_a_run():
    grid = parse_grid(PAIR)
    lexicon = Lexicon.from_words(list(PAIR_WORDS))
    cells = (tuple("STAR") + (None,) + tuple("TARS"),)
    assert verify_fill(grid, cells, lexicon) == []
    assert verify_fill(grid, cells, lexicon, no_shared_substring=4) == []
    problems = verify_fill(grid, cells, lexicon, no_shared_substring=3)
    assert problems == [
        "across entry at row 1, col 6: TARS shares the run TAR with STAR (across entry at row 1, col 1); "
        "no two entries may share a run of 3 glyphs"
    ]
    # across and down entries alike: AB and BA share no run of 2, AB across and AB down do
    square = parse_grid("..\n..")
    pairs = Lexicon.from_words(["AB", "BA", "BB"])
    assert verify_fill(square, (("A", "B"), ("B", "B")), pairs, no_shared_substring=2)[0].startswith("down entry")


@pytest.mark.parametrize("backend", ENUMERATORS)
def test_count_and_enumerate_respect_the_rule(backend, capsys, write):
    grid = write("pair.txt", PAIR)
    words = write("pair.dict", "STAR\nTARS\nMOON\n")
    code, out, _ = run(capsys, "count", grid, "--words", words, "--backend", backend)
    assert code == 0 and out == "6 fills\n"
    code, out, _ = run(capsys, "count", grid, "--words", words, "--backend", backend, "--no-shared-substring", "3")
    assert code == 0 and out == "4 fills\n"
    code, out, _ = run(capsys, "enumerate", grid, "--words", words, "--backend", backend, "--no-shared-substring", "3")
    fills = out.split("\n\n")
    assert code == 0 and len(fills) == 4 and all("MOON" in f for f in fills)


@pytest.mark.parametrize("value", ["1", "0", "-3"])
def test_bad_run_length_is_a_usage_error(capsys, write, value):
    code, _, err = run(
        capsys, "fill", write("g.txt", PAIR), "--words", write("w.dict", "STAR\nMOON\n"), "--no-shared-substring", value
    )
    assert code == 2 and "--no-shared-substring must be 2 or more" in err and "Traceback" not in err


def test_non_integer_run_length_is_a_usage_error(capsys, write):
    code, _, err = run(capsys, "count", write("g.txt", PAIR), "--no-shared-substring", "four")
    assert code == 2 and "--no-shared-substring" in err and "invalid int value" in err


def test_library_checks_the_run_length():
    with pytest.raises(InputError, match="no_shared_substring must be a whole number, 2 or more"):
        api.fill(PAIR, PAIR_WORDS, no_shared_substring=1)
    with pytest.raises(ValueError, match="2 or more"):
        FillOptions(no_shared_substring=1)
    with pytest.raises(InputError):
        api.generate(4, 4, PAIR_WORDS, no_shared_substring=0)


def test_check_and_candidates_take_the_rule(capsys, write):
    grid = write("ring.txt", RING)
    words = write("ring.dict", "\n".join(RING_WORDS) + "\n")
    code, out, _ = run(capsys, "check", grid, "--words", words, "--no-shared-substring", "2", "--format", "json")
    assert code == 1 and json.loads(out)["status"] == "unsolvable"
    given = write("given.txt", "STAR#....\n")
    code, out, _ = run(
        capsys,
        "candidates",
        given,
        "2A",
        "--words",
        write("p.dict", "STAR\nTARS\nMOON\n"),
        "--no-shared-substring",
        "3",
    )
    assert code == 0 and "MOON" in out and "TARS" not in out


def test_generate_keeps_the_rule(benchmark_words):
    words = api.load_words(benchmark_words)
    made = api.generate(5, 5, words, method="csp", time_limit=20, seed=1, no_shared_substring=3)
    assert made.result.status == Status.FILLED
    answers = [e.answer for e in made.result.entries]
    assert not entries_share(answers, 3)


@pytest.mark.parametrize(
    ("words", "n"),
    [
        (["STARTLE", "RESTART", "CARTELS", "TARTLET"], 3),
        (["ABCDEFGHIJKLMNOP", "XBCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOQ"], 16),
    ],
)
def test_words_by_run_groups_each_word_once_per_run(words, n):
    from csp_crossword.words.ngrams import run_sets, words_by_run

    index = Lexicon.from_words(words).index(len(words[0]))
    grouped = words_by_run(index, index.full, n)
    expected: dict[tuple[int, ...], list[int]] = {}
    for w, held in sorted(run_sets(index, index.full, n).items()):
        for run in held:
            expected.setdefault(run, []).append(w)
    assert sorted(sorted(ids) for ids in grouped.values()) == sorted(expected.values())
    assert all(len(ids) == len(set(ids)) for ids in grouped.values())
