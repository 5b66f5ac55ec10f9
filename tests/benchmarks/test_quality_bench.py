"""The quality benchmark's pattern set and metric helpers (benchmarks/quality.py; not the benchmark itself)."""

from __future__ import annotations

import sys

import pytest
from csp_crossword.core.grid import read_grid

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import quality
from peers import qxw_cells, qxw_deck


def test_pattern_set_loads_and_follows_the_rules():
    found = quality.patterns()
    names = [name for name, _ in found]
    assert sum(n.startswith("am15-") for n in names) == 6
    assert len(found) >= 16 and len(set(names)) == len(names)
    shapes = set()
    for name, path in found:
        rows = quality.pattern_rows(path.read_text())
        assert len(rows) == 15 and all(len(r) == 15 for r in rows), name
        assert quality.pattern_problems(rows) == [], name
        shapes.add(tuple(rows))
        # the same rules, as the library counts them
        stats = read_grid(path).stats()
        assert stats.symmetric_180 and stats.connected, name
        assert stats.unchecked_cells == 0 and min(stats.length_histogram) >= 3, name
    assert len(shapes) == len(found)  # no pattern twice


def test_pattern_rules_catch_bad_patterns():
    assert quality.pattern_problems(["....", "....", "....", "...."]) == []
    assert "not 180-degree symmetric" in quality.pattern_problems(["#...", "....", "....", "...."])
    assert "an entry under 3 letters" in quality.pattern_problems(["..#..", ".....", ".....", ".....", "..#.."])
    # a block in the middle of a 3x3: the middle cell of each side is in one entry only
    problems = quality.pattern_problems(["...", ".#.", "..."])
    assert "an entry under 3 letters" not in problems
    assert "an unchecked cell" in problems
    split = ["...#...", "...#...", "...#...", "...#...", "...#...", "...#...", "...#..."]
    assert "white cells not connected" in quality.pattern_problems(split)


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_patterns_follow_the_rules(seed):
    rows = quality.generated_pattern(seed)
    assert rows == quality.generated_pattern(seed)  # deterministic
    assert quality.pattern_problems(rows) == []
    blocks = sum(r.count("#") for r in rows)
    assert 0.14 * 225 <= blocks <= 0.18 * 225 + 1


def test_normalise():
    assert quality.normalise("ice_age") == "ICEAGE"
    assert quality.normalise("rock 'n' roll") == "ROCKNROLL"
    assert quality.normalise("well-to-do") == "WELLTODO"
    assert quality.normalise("café") == "CAFE"


def test_metrics_on_a_hand_made_fill():
    rows = ["...", "...", "..."]
    cells = [list("CAB"), list("ORE"), list("WET")]
    found = quality.answers(rows, cells)
    assert found == ["CAB", "ORE", "WET", "COW", "ARE", "BET"]
    scores = {"CAB": 60, "ORE": 40, "WET": 50, "COW": 70, "ARE": 80}  # BET not listed: counts 0
    dictionary = {"CAB", "ORE", "WET", "COW", "ARE"}
    metrics = quality.fill_metrics([a for a in found if a], scores, dictionary, {"BET"})
    assert metrics["entries"] == 6
    assert metrics["mean_score"] == pytest.approx(50.0)
    assert (metrics["weakest"], metrics["weakest_score"]) == ("BET", 0)
    assert metrics["dict_share"] == pytest.approx(5 / 6, abs=1e-4)
    assert (metrics["offensive"], metrics["offensive_entries"]) == (1, "BET")
    assert quality.fill_rate(rows, cells) == 1.0
    partial = [list("CAB"), ["O", "", "E"], list("WET")]
    assert quality.fill_rate(rows, partial) == pytest.approx(8 / 9)
    assert quality.answers(rows, partial) == ["CAB", None, "WET", "COW", None, "BET"]


def test_dictionary_readers(tmp_path):
    ukacd = tmp_path / "ukacd.txt"
    ukacd.write_bytes("Copyright notice\nall rights\n\na\naardvark\nice age\ncafé\n".encode("latin-1"))
    assert quality.ukacd_words(ukacd) == {"A", "AARDVARK", "ICEAGE", "CAFE"}
    wordnet = tmp_path / "wn"
    wordnet.mkdir()
    (wordnet / "index.noun").write_text("  1 licence line\nice_age n 1 0\nrock_'n'_roll n 1 0\n")
    assert quality.wordnet_words(wordnet) == {"ICEAGE", "ROCKNROLL"}
    (tmp_path / "english-words.10").write_bytes("cat\ncat's\n".encode("latin-1"))
    assert quality.scowl_words(tmp_path, [10, 20]) == {"CAT", "CATS"}


def test_qxw_deck_and_output():
    rows = ["...", "...", "..."]
    deck = qxw_deck(rows, random=1)
    assert deck.splitlines()[:3] == [".RANDOM 1", "0000 0001 0002", "0100 0101 0102"]
    output = "W0 CAB\n# CAB\nW1 ORE\n# ORE\nW2 WET\n# WET\nW3 COW\n# COW\nW4 ARE\n# ARE\nW5 BET\n# BET\n"
    assert qxw_cells(rows, output) == [list("CAB"), list("ORE"), list("WET")]


def test_the_offensive_word_check_reads_the_shipped_blocklist():
    # the benchmark skips the blocklist when the file is missing: it must be where the package keeps it
    assert quality.BLOCKLIST.exists()
