"""Freeform layouts of large lists: words drawn per span from the (length, position,
glyph) index, ``target``, and summaries that count the words not placed instead of listing them.

Every board is checked from its cells by the rules of ``test_freeform.check_layout``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import csp_crossword as cc
import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.layout.freeform import SPAN_WORDS, Board, BoardRules, Freeform, Placement, SpanFrontier, SpanIndex
from csp_crossword.layout.freeform.board import ACROSS, DOWN
from test_freeform import CAP_SECONDS, check_layout

#: Seconds within which a search ended by its target must return: a loose guard against a hang.
HANG_GUARD_SECONDS = 60.0


@pytest.fixture(scope="module")
def many(benchmark_words):
    """Twice SPAN_WORDS words of 3 to 8 letters: enough for the span engine, small enough to be fast."""
    words = sorted({w.upper() for w in benchmark_words.read_text().split() if 3 <= len(w) <= 8 and w.isalpha()})
    return random.Random(17).sample(words, 2 * SPAN_WORDS)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_large_list_uses_spans_and_follows_every_rule(many):
    engine = Freeform(many, rows=15, cols=15)
    assert engine.spans is not None and not engine.by_glyph  # no (word, position) list of every word
    result = engine.run(time_limit=CAP_SECONDS, budget_seconds=0.5, seed=2)
    check_layout(result, many)
    # a dense board: the exact frontier placed about 29 words at fill 0.52 on such lists
    assert len(result.placed) >= 25 and result.fill >= 0.45
    assert not result.timed_out


def test_small_lists_keep_the_exact_frontier(many):
    engine = Freeform(many[: SPAN_WORDS - 1], rows=15, cols=15)
    assert engine.spans is None and engine.by_glyph


def test_symmetric_and_island_boards_of_a_large_list(many):
    result = Freeform(many, rows=15, cols=15, symmetric=True).run(time_limit=CAP_SECONDS, budget_seconds=0.4, seed=1)
    check_layout(result, many)
    cells = result.cells
    assert all((cells[r][c] is None) == (cells[14 - r][14 - c] is None) for r in range(15) for c in range(15))
    assert len(result.placed) >= 10
    apart = Freeform(many, rows=12, cols=12, allow_islands=True).run(time_limit=CAP_SECONDS, budget_seconds=0.3, seed=1)
    check_layout(apart, many, islands=True)


def test_a_word_listed_twice_may_be_placed_twice_but_no_more(many):
    words = many + ["ERA"] * 2
    result = Freeform(words, rows=15, cols=15).run(time_limit=CAP_SECONDS, budget_seconds=0.4, seed=3)
    check_layout(result, words)  # checks every word's uses against the list
    assert Counter(result.placed)["ERA"] <= 2


def test_spans_give_only_words_that_fit_the_crossing():
    words = ["CAT", "CUT", "COT", "ACT", "TAR", "ATE", "OAT"] + [f"Q{k:03d}Z" for k in range(300)]
    engine = Freeform(words, rows=9, cols=9)
    assert engine.spans is not None
    rules = engine.rules
    board = Board()
    rules.place(board, Placement("CAT", 0, 0, ACROSS))
    remaining = Counter(engine.uses)
    remaining["CAT"] -= 1
    frontier = SpanFrontier(rules, engine.spans, random.Random(0))
    frontier.add(board, list(board.cells), remaining)
    seen = set()
    for _ in range(40):  # each call draws a random word for the best span
        for crossings, _grow, _tie, (word, row, col, direction) in frontier.ranked(
            board, remaining, random.Random(), 5
        ):
            assert direction is DOWN and crossings == 1
            assert rules.check(board, word, row, col, direction) == 1
            seen.add(word)
    assert "CAT" not in seen and seen <= {"CUT", "COT", "ACT", "TAR", "ATE", "OAT"}


def test_the_span_index_groups_words_by_length():
    glyphs = {w: tuple(w) for w in ("AB", "ABC", "XYZ")}
    index = SpanIndex(glyphs, glyphs)
    assert sorted(index.indexes) == [2, 3] and index.longest == 3
    three = index.indexes[3]
    assert sorted(three.words[i] for i in three.iter_ids(three.match([None, "Y", None]))) == ["XYZ"]


def test_target_stops_at_that_many_words(many):
    # a limit whose budget would take minutes: only the target can end the search within the guard
    result = cc.freeform(many, rows=15, cols=15, target=12, time_limit=HANG_GUARD_SECONDS * 10, seed=4)
    assert len(result.placed) == 12
    assert result.seconds < HANG_GUARD_SECONDS  # stopped at the first board of 12 words
    check_layout(result, many)
    small = ["CROSSWORD", "PUZZLE", "SOLVER", "GRID", "CLUE", "ACROSS", "DOWN", "LETTER", "ANSWER", "WORD"]
    assert len(cc.freeform(small, target=4, time_limit=1).placed) == 4
    with pytest.raises(InputError, match="target"):
        cc.freeform(small, target=0)


def test_rules_check_agrees_with_the_span_of_a_word_ending_at_a_letter():
    # a span may not stop just before a letter: the word would run into it
    glyphs = {w: tuple(w) for w in ("AB", "BC")}
    rules = BoardRules(glyphs, 5, 5, symmetric=False)
    board = Board()
    rules.place(board, Placement("AB", 0, 0, ACROSS))
    assert rules.check(board, "BC", -1, 1, DOWN) is None  # C would touch B from above


def test_cli_counts_the_words_not_placed_and_lists_them_on_request(capsys, write, many):
    path = write("many.txt", "\n".join(many) + "\n")
    # a limit that leaves a busy machine time for the first greedy board (else exit 3)
    args = ["freeform", path, "--size", "11x11", "--time-limit", "2", "--seed", "1"]
    code, out, err = run(capsys, *args)
    assert code == 0
    placed = int(out.split("Placed (")[1].split(")")[0])
    assert f"{len(many) - placed:,} words not placed" in out
    assert "Not placed (" not in out
    assert f"{len(many) - placed:,} words not placed" in err and "--show failed" in err
    code, out, _ = run(capsys, *args, "--show", "failed")  # another board: the search is timed
    assert code == 0 and out.startswith("Not placed (")
    count = int(out.split("(")[1].split(")")[0])
    listed = out.split("): ")[1].strip().split(", ")
    assert len(listed) == count and set(listed) < set(many)
    code, out, _ = run(capsys, *args, "--format", "json")
    data = json.loads(out)
    assert sorted(data["placed"] + data["failed"]) == sorted(many)  # JSON keeps the full list


def test_cli_target(capsys, write, many):
    path = write("many.txt", "\n".join(many) + "\n")
    code, out, _ = run(capsys, "freeform", path, "--target", "9", "--format", "json", "--time-limit", "2")
    assert code == 0 and len(json.loads(out)["placed"]) == 9
    code, _, err = run(capsys, "freeform", path, "--target", "0")
    assert code == 2 and "--target" in err
