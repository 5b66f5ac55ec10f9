"""Freeform layouts, checked from the cells alone by rules written here, not by the engine.

The rules: every run of two or more letters is a listed word, used at most as often as
listed; letters touch only at crossings (which is the same as "every run is a word" once each
placed word is a run); every word crosses another; one connected piece unless islands are allowed.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import csp_crossword.layout.freeform as freeform_module
import pytest
from csp_crossword.cli import main
from csp_crossword.layout.freeform import Freeform, freeform
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.word_index import entry_glyphs

from bruteforce import runs

#: Seconds of the clock's cap where a test gives the search a budget (``budget_seconds``): far
#: beyond what the budget needs, so that only the budget decides the board, at any load.
CAP_SECONDS = 60.0


def runs_of(cells, rtl=False):
    """(direction, [cells]) of every maximal run of >= 2 letter cells, read in entry order
    (the run finder of the test brute-force solver, on rows with ``#`` where no letter is)."""
    rows = [["#" if v is None else v for v in row] for row in cells]
    found = []
    for run in runs(rows):
        across = len(run) > 1 and run[0][0] == run[1][0]
        found.append(("across", run[::-1] if rtl else run) if across else ("down", run))
    return found


def check_layout(result, words, *, islands=False, rtl=False):
    """Every rule of a freeform board, read from ``result.cells``; returns the runs' words."""
    cells = result.cells
    runs = runs_of(cells, rtl)
    read = ["".join(cells[r][c] for r, c in run) for _, run in runs]
    listed = Counter(words)
    used = Counter(read)
    assert all(used[w] <= listed[w] for w in used), f"unlisted or over-used: {used - listed}"
    assert sorted(read) == sorted(result.placed)
    assert sorted(result.placed + result.failed) == sorted(words)
    covered = Counter(cell for _, run in runs for cell in run)
    letters = {(r, c) for r, row in enumerate(cells) for c, v in enumerate(row) if v is not None}
    assert set(covered) == letters, "a letter outside every word"
    lonely = ["".join(cells[r][c] for r, c in run) for _, run in runs if all(covered[cell] == 1 for cell in run)]
    if len(runs) == 1:
        lonely = []  # a lone word is the whole board, not an island
    assert sorted(lonely) == sorted(result.isolated)
    if not islands and letters:
        assert lonely == []
        seen, stack = set(), [next(iter(letters))]
        while stack:
            r, c = stack.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            stack += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in letters]
        assert seen == letters, "the board is in more than one piece"
    crossings = sum(1 for n in covered.values() if n == 2)
    assert result.crossings == crossings
    return read


@pytest.fixture(scope="module")
def fifty(benchmark_words):
    words = sorted({w.upper() for w in benchmark_words.read_text().split() if 3 <= len(w) <= 10 and w.isalpha()})
    return random.Random(50).sample(words, 50)


def test_bounded_board_follows_every_rule(fifty):
    result = Freeform(fifty, rows=15, cols=15).run(time_limit=CAP_SECONDS, budget_seconds=0.5, seed=1)
    assert (result.grid.rows, result.grid.cols) == (15, 15)
    check_layout(result, fifty)
    assert len(result.placed) >= 18  # genxword's level on such lists (benchmarks/freeform.py)


def test_unbounded_board_places_a_small_list_and_seeds_with_a_long_word():
    words = ["CROSSWORD", "PUZZLE", "SOLVER", "GRID", "CLUE", "ACROSS", "DOWN", "LETTER", "ANSWER", "WORD"]
    result = Freeform(words).run(time_limit=CAP_SECONDS, budget_seconds=0.3, seed=4)
    check_layout(result, words)
    assert result.failed == []
    assert len(entry_glyphs(result.placed[0])) >= 6  # one of the SEED_CHOICES longest


def test_symmetric_boards_turn_into_themselves_at_180_degrees(fifty):
    for size in (None, 15):
        result = Freeform(fifty[:30], rows=size, cols=size, symmetric=True).run(
            time_limit=CAP_SECONDS, budget_seconds=0.4, seed=3
        )
        check_layout(result, fifty[:30])
        cells = result.cells
        height, width = len(cells), len(cells[0])
        assert all(
            (cells[r][c] is None) == (cells[height - 1 - r][width - 1 - c] is None)
            for r in range(height)
            for c in range(width)
        )
        assert len(result.placed) >= 5
        assert result.symmetric


def test_islands_only_when_allowed():
    words = ["ABC", "DEF", "GHI"]  # no shared letter: nothing can cross
    alone = Freeform(words).run(time_limit=CAP_SECONDS, budget_seconds=0.1)
    check_layout(alone, words)
    assert len(alone.placed) == 1 and len(alone.failed) == 2
    apart = Freeform(words, allow_islands=True).run(time_limit=CAP_SECONDS, budget_seconds=0.1)
    check_layout(apart, words, islands=True)
    assert sorted(apart.placed) == words and sorted(apart.isolated) == words


def test_unplaceable_words_are_reported_as_failed():
    words = ["A", "TOOLONGWORD", "CAT", "TAB", "CAT"]  # one glyph; longer than the board; listed twice
    result = Freeform(words, rows=6, cols=6).run(time_limit=CAP_SECONDS, budget_seconds=0.2, seed=2)
    check_layout(result, words)
    assert "A" in result.failed and "TOOLONGWORD" in result.failed
    assert Counter(result.placed)["CAT"] <= 2


def test_bangla_words_cross_on_grapheme_clusters():
    words = ["ক্ষমা", "মাটি", "টিকা", "কাজ"]
    result = Freeform(words).run(time_limit=CAP_SECONDS, budget_seconds=0.3, seed=2)
    check_layout(result, words)
    assert len(result.placed) >= 3
    assert any(cell == "ক্ষ" for row in result.cells for cell in row)


def test_arabic_across_words_read_right_to_left():
    words = ["كتاب", "مكتبة", "بيت", "تفاح", "حديقة", "قلم"]
    result = Freeform(words, rtl=True).run(time_limit=CAP_SECONDS, budget_seconds=0.3, seed=0)
    read = check_layout(result, words, rtl=True)
    assert len(read) >= 4
    assert result.grid.rtl
    first = min(result.grid.slots, key=lambda s: s.number)
    assert first.number == 1 and all(first.start[0] <= s.start[0] for s in result.grid.slots)


def test_ctrl_c_returns_the_best_board_so_far(monkeypatch):
    words = ["CROSSWORD", "PUZZLE", "SOLVER", "GRID", "CLUE", "ACROSS", "DOWN"]
    calls = []

    def interrupt(self, board, rng):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(freeform_module.Freeform, "_neighbour", interrupt)
    result = Freeform(words).run(time_limit=CAP_SECONDS, budget_seconds=5, seed=1)
    assert result.interrupted and len(calls) == 1  # the first improvement step stopped the search
    check_layout(result, words)


def test_library_helper_uses_the_lexicon_multiplicity():
    lexicon = Lexicon.from_words(["TEN", "NET", "TEN"])
    result = freeform(lexicon, time_limit=0.2)
    check_layout(result, ["TEN", "TEN", "NET"])


# ----------------------------------------------------------------------------- command line


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


CLUES = {
    "python": "A snake, or a language",
    "crossword": "This puzzle",
    "solver": "It fills grids",
    "grid": "Squares in rows",
    "clue": "A hint",
    "letter": "A glyph",
    "answer": "The solution",
    "puzzle": "A problem",
}


def test_cli_json_has_grid_entries_with_clues_and_a_word_search(capsys, write):
    path = write("w.json", json.dumps(CLUES))
    code, out, _ = run(capsys, "freeform", path, "--size", "13x13", "--time-limit", "0.3", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "freeform" and (data["rows"], data["cols"]) == (13, 13)
    cells = [[None if v is None else v for v in row] for row in data["cells"]]
    assert data["grid"] == ["".join("#" if v is None else v for v in row) for row in cells]
    assert data["stats"]["words_placed"] == len(data["placed"]) == len(data["entries"])
    assert sorted(data["placed"] + data["failed"]) == sorted(CLUES)
    for entry in data["entries"]:
        r, c = entry["row"], entry["col"]
        answer = "".join(
            cells[r + (k if entry["direction"] == "down" else 0)][c + (k if entry["direction"] == "across" else 0)]
            for k in range(entry["length"])
        )
        assert answer == entry["answer"]
        assert entry["clue"] == CLUES[entry["answer"].lower()]
    numbers = sorted({e["number"] for e in data["entries"]})
    assert numbers == list(range(1, len(numbers) + 1))
    search = data["wordsearch"]
    alphabet = {ch for w in CLUES for ch in w.upper()}
    for row, srow in zip(cells, search):
        for v, s in zip(row, srow):
            assert s == v if v is not None else s in alphabet


def test_cli_text_sections_from_csv_with_pick(capsys, write):
    path = write("w.csv", "word,clue\n" + "".join(f"{w},{c.replace(',', '')}\n" for w, c in CLUES.items()))
    code, out, err = run(capsys, "freeform", path, "--pick", "5", "--seed", "3", "--time-limit", "0.2")
    assert code == 0
    for heading in ("Solution", "Puzzle", "Across", "Down", "Word search", "Placed ("):
        assert heading in out
    placed = int(out.split("Placed (")[1].split(")")[0])
    assert (
        f"{5 - placed} word{'' if placed == 4 else 's'} not placed" in out if placed < 5 else "Every word placed" in out
    )
    assert "placed" in err


def test_cli_plain_list_and_output_file(capsys, write, tmp_path):
    path = write("w.txt", "alpha\nbeta\ngamma\ndelta\n")
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "freeform", path, "--output", target, "--time-limit", "0.2", "-q")
    assert code == 0 and out == ""
    data = json.loads(target.read_text())
    assert data["stats"]["words_listed"] == 4


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--size", "0x3"], "--size"),
        (["--show", "solution,nonsense"], "--show"),
        (["--pick", "0"], "--pick"),
        (["--time-limit", "-1"], "--time-limit"),
    ],
)
def test_cli_bad_options_exit_2(capsys, write, argv, message):
    code, _, err = run(capsys, "freeform", write("w.txt", "alpha\nbeta\n"), *argv)
    assert code == 2 and message in err


def test_cli_bad_word_list_names_the_file(capsys, write):
    path = write("bad.json", '{"alpha": "first",\n "beta" "second"}')
    code, _, err = run(capsys, "freeform", path)
    assert code == 2 and "bad.json:2:" in err


def test_taking_a_word_off_never_leaves_letters_side_by_side():
    # ABC lies across the ends of three down words; without it, A B C would stand side by side
    engine = Freeform(["XA", "ABC", "BY", "ZC"])
    placements = [
        freeform_module.Placement("XA", -1, 0, freeform_module.Direction.DOWN),
        freeform_module.Placement("ABC", 0, 0, freeform_module.Direction.ACROSS),
        freeform_module.Placement("BY", 0, 1, freeform_module.Direction.DOWN),
        freeform_module.Placement("ZC", -1, 2, freeform_module.Direction.DOWN),
    ]
    whole, _ = engine._rebuilt(placements)
    assert len(whole.placements) == 4
    board, remaining = engine._rebuilt([p for p in placements if p.word != "ABC"])
    cells = {cell for cell in board.cells}
    for r, c in cells:  # no two letters of different words side by side
        if (r, c + 1) in cells:
            assert board.owner[(r, c)] & 1 and board.owner[(r, c + 1)] & 1
    assert sum(remaining.values()) == 4 - len(board.placements)


def test_long_improvement_run_stays_valid(fifty, benchmark_words):
    words = sorted({w.upper() for w in benchmark_words.read_text().split() if 3 <= len(w) <= 10 and w.isalpha()})
    hundred = random.Random("15-100-0").sample(words, 100)  # broke the rules before _rebuilt re-checked
    result = Freeform(hundred, rows=15, cols=15).run(time_limit=CAP_SECONDS, budget_seconds=1.0, seed=0)
    check_layout(result, hundred)
