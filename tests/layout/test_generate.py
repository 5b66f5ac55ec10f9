"""Unconstrained layouts: the pattern generator, progressive search, the CSP path, products."""

import json
import random

import pytest
from csp_crossword.cli import main
from csp_crossword.core.result import Status
from csp_crossword.layout.generate import generate
from csp_crossword.layout.patterns import random_pattern
from csp_crossword.layout.progressive import SCRAMBLED_WEIGHT, ProgressiveSearch
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.numeric import products_lexicon


def _longest_run(cells) -> int:
    best = 0
    for line in [list(row) for row in cells] + [list(col) for col in zip(*cells)]:
        run = 0
        for v in line:
            run = run + 1 if v is not None else 0
            best = max(best, run)
    return best


@pytest.mark.parametrize("seed", range(5))
def test_random_pattern_rules(seed):
    grid = random_pattern(11, 11, random.Random(seed), max_run=5, symmetric=True)
    assert grid is not None
    stats = grid.stats()
    assert _longest_run(grid.cells) <= 5
    assert stats.connected and stats.isolated_cells == 0 and stats.symmetric_180


def test_cost_counts_unknown_and_scrambled_runs():
    lexicon = Lexicon.from_words(["AB", "CD", "AC", "BD"])
    search = ProgressiveSearch(2, 2, lexicon, seed=0)
    assert search.cost([["A", "B"], ["C", "D"]]) == 0
    # down runs AD and BC are neither words nor anagrams of words: 2 + 2
    assert search.cost([["A", "B"], ["D", "C"]]) == 4
    # down runs CA (an anagram of AC) and DB (an anagram of BD): 0.2 x (2 + 2)
    layout = search.describe([["C", "D"], ["A", "B"]])
    assert layout.cost == pytest.approx(SCRAMBLED_WEIGHT * 4)
    assert sorted(layout.scrambled) == ["CA", "DB"] and layout.unknown == []


def test_repeated_entries_cost_unless_allowed():
    lexicon = Lexicon.from_words(["AA"])
    assert ProgressiveSearch(2, 2, lexicon).cost([["A", "A"], ["A", "A"]]) == 6  # AA four times
    assert ProgressiveSearch(2, 2, lexicon, allow_duplicates=True).cost([["A", "A"], ["A", "A"]]) == 0


@pytest.mark.parametrize("fill", ["fill1", "fill2"])
def test_initial_solutions_hold_words_and_respect_max_run(fill):
    lexicon = builtin_lexicon("en")
    search = ProgressiveSearch(9, 9, lexicon, max_run=4, fill=fill, seed=5)
    cells = search._fill1() if fill == "fill1" else search._fill2()
    assert _longest_run(cells) <= 4
    for row in cells:
        for word in "".join(v or " " for v in row).split():
            assert len(word) == 1 or word in lexicon


def test_progressive_search_reaches_a_verified_fill():
    lexicon = builtin_lexicon("en")
    made = generate(6, 6, lexicon, method="progressive", time_limit=60, seed=1)
    assert made.method == "progressive" and made.result.status == Status.FILLED
    assert verify_fill(made.grid, made.result.cells, lexicon) == []
    assert made.unknown == [] and made.scrambled == []


def test_csp_path_fills_symmetric_layout():
    lexicon = builtin_lexicon("en")
    made = generate(9, 9, lexicon, symmetric=True, time_limit=60, seed=4, method="csp")
    assert made.method == "csp" and made.result.status == Status.FILLED
    assert made.grid.stats().symmetric_180
    assert verify_fill(made.grid, made.result.cells, lexicon) == []


def test_products_crossword():
    lexicon = products_lexicon()
    assert lexicon.clue("144").startswith("12×12")
    made = generate(10, 10, lexicon, max_run=4, time_limit=60, seed=3)
    assert made.result.status == Status.FILLED
    assert verify_fill(made.grid, made.result.cells, lexicon) == []
    assert 30 <= len(made.result.entries) <= 60
    for entry in made.result.entries:
        x, y = entry.clue.split(" or ")[0].split("×")
        assert int(x) * int(y) == int(entry.answer)


def test_generate_cli(capsys, tmp_path):
    out = tmp_path / "g.json"
    code = main(["generate", "--size", "8x8", "--style", "open", "--seed", "2", "-o", str(out), "-q"])
    data = json.loads(out.read_text())
    assert code == 0 and data["status"] == "filled" and data["method"] in ("csp", "progressive")
    assert len(data["grid"]) == 8 and all(len(row) == 8 for row in data["grid"])
    assert main(["generate", "--size", "8by8"]) == 2
    assert "ROWSxCOLS" in capsys.readouterr().err


def test_generate_arabic_reads_right_to_left():
    lexicon = builtin_lexicon("ar")
    made = generate(6, 6, lexicon, time_limit=60, seed=1, rtl=True)
    assert made.result.status == Status.FILLED and made.grid.rtl
    assert verify_fill(made.grid, made.result.cells, lexicon) == []


#: Seconds within which a job cut short by its time limit or its stop must return: a loose guard
#: against a hang, far from the limits and budgets below, so that a busy machine passes too.
HANG_GUARD_SECONDS = 60.0
#: A budget no case here could spend: an hour of an idle core's work.
ENDLESS_BUDGET = 3600.0


def test_generate_keeps_its_time_limit_when_nothing_fills():
    import itertools
    import time

    # Two-glyph words of every length cannot fill a 12x12 with long runs, and the budget is an
    # hour's work: only the time limit can end the CSP path and progressive search.
    words = ["".join(p) for n in (5, 6, 7) for p in itertools.product("QZ", repeat=n)][:60]
    start = time.monotonic()
    made = generate(12, 12, Lexicon.from_words(words), max_run=7, time_limit=1.5, seed=3, budget_seconds=ENDLESS_BUDGET)
    assert time.monotonic() - start < HANG_GUARD_SECONDS
    assert made.result.status == Status.TIMEOUT and made.method == "progressive"


def test_generate_and_freeform_stop_when_asked():
    import threading
    import time

    from csp_crossword.layout.freeform import Freeform

    # Limits and budgets of an hour: only the stop set after 0.3 s can end them.
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    start = time.monotonic()
    made = generate(
        12, 12, Lexicon.from_words(["QZQZQ", "ZQZQZ", "QQZZQ"]), max_run=5, time_limit=ENDLESS_BUDGET, stop=stop
    )
    assert time.monotonic() - start < HANG_GUARD_SECONDS and made.result.status == Status.TIMEOUT
    words = ["".join(random.Random(k).choice("ABCDEFGH") for _ in range(7)) for k in range(3000)]
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    start = time.monotonic()
    result = Freeform(words, rows=21, cols=21).run(time_limit=ENDLESS_BUDGET, seed=1, stop=stop)
    assert time.monotonic() - start < HANG_GUARD_SECONDS and result.placed


def test_freeform_keeps_its_time_limit_with_a_long_list():
    import time

    from csp_crossword.layout.freeform import Freeform

    words = ["".join(random.Random(k).choice("ABCDEFGHIJ") for _ in range(3 + k % 6)) for k in range(5000)]
    engine = Freeform(words, rows=21, cols=21)
    start = time.monotonic()
    result = engine.run(time_limit=1.0, seed=2, budget_seconds=ENDLESS_BUDGET)
    assert time.monotonic() - start < HANG_GUARD_SECONDS and len(result.placed) > 10
    assert engine.steps < engine._step_budget(ENDLESS_BUDGET)  # the clock ended it, not the budget


def test_progressive_search_stops_at_its_step_limit_whatever_the_clock():
    import itertools

    # two-glyph words cannot make every down run a word: only the step limit ends the search
    words = ["".join(p) for n in (4, 5) for p in itertools.product("QZ", repeat=n)]
    runs = []
    for _ in range(2):
        search = ProgressiveSearch(8, 8, Lexicon.from_words(words), max_run=5, seed=7)
        runs.append(search.run(time_limit=ENDLESS_BUDGET, step_limit=37))
    (first, steps), (again, steps_again) = runs
    assert steps == steps_again == 37 and first.cost > 0
    assert first.cells == again.cells
