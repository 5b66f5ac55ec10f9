"""American-style generation: the pattern rules, theme entries, repair, the CLI.

Patterns are checked by the independent verifier (``verify.pattern_problems``, which reads the
cells alone), not by the drawing code's own rule checks.
"""

from __future__ import annotations

import json
import random

import pytest
from csp_crossword import api
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import Grid
from csp_crossword.layout.american import _repair
from csp_crossword.layout.american_patterns import LayoutRuleError, Pattern, PatternRules, draw_pattern
from csp_crossword.verify.fill import pattern_problems, verify_fill
from csp_crossword.words.builtin import builtin_lexicon


def _grid(pattern: Pattern) -> Grid:
    return Grid(tuple(tuple("" if v else None for v in row) for row in pattern.open))


def _rule_problems(grid: Grid, rules: PatternRules) -> list[str]:
    """Every American rule the grid breaks, by the independent pattern verifier."""
    return pattern_problems(grid.cells, symmetry=rules.symmetry, max_words=rules.max_words, max_run=rules.max_run)


@pytest.mark.parametrize("size", [5, 9, 15, 21])
@pytest.mark.parametrize("symmetry", ["rotational", "mirror"])
def test_drawn_patterns_keep_every_rule(size, symmetry):
    rules = PatternRules.for_size(size, size, symmetry=symmetry)
    for seed in range(3):
        pattern = draw_pattern(rules, random.Random(seed))
        assert pattern is not None
        grid = _grid(pattern)
        assert _rule_problems(grid, rules) == []
        blocks = sum(v is None for row in grid.cells for v in row)
        assert rules.blocks <= blocks <= rules.blocks + 2 * size  # the target, plus pairs for long runs


def test_the_newspaper_defaults_for_a_15x15():
    rules = PatternRules.for_size(15, 15)
    assert (rules.blocks, rules.max_words, rules.max_run, rules.symmetry) == (36, 78, 15, "rotational")
    pattern = draw_pattern(rules, random.Random(0))
    assert pattern is not None and 70 <= len(_grid(pattern).slots) <= 78  # near what newspapers print


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rows": 2, "cols": 9}, "at least 3x3"),
        ({"rows": 40, "cols": 40}, "at most 31x31"),
        ({"rows": 15, "cols": 15, "blocks": 100}, "blocks must be between"),
        ({"rows": 15, "cols": 15, "max_words": 20}, "at least 30 entries"),
        ({"rows": 15, "cols": 15, "max_run": 2}, "longest entry must be at least 3"),
        ({"rows": 15, "cols": 15, "symmetry": "diagonal"}, "symmetry must be one of"),
    ],
)
def test_impossible_rules_are_refused_with_the_reason(kwargs, message):
    rows, cols = kwargs.pop("rows"), kwargs.pop("cols")
    with pytest.raises(LayoutRuleError, match=message):
        PatternRules.for_size(rows, cols, **kwargs)


def test_a_repair_splits_the_trouble_slot_and_keeps_the_block_count():
    rules = PatternRules.for_size(15, 15)
    pattern = draw_pattern(rules, random.Random(1))
    assert pattern is not None
    grid = _grid(pattern)
    longest = max(grid.slots, key=lambda slot: slot.length)
    blocks = pattern.block_count()
    assert _repair(pattern, [longest], random.Random(0), blocks)
    repaired = _grid(pattern)
    assert any(repaired.cells[r][c] is None for r, c in longest.cells)  # a block moved into it
    assert blocks - 2 <= pattern.block_count() <= blocks + 4
    assert _rule_problems(repaired, rules) == []


def test_generate_american_fills_a_verified_newspaper_grid():
    words = builtin_lexicon("en")
    made = api.generate(11, 11, words, style="american", time_limit=30, seed=2)
    assert made.method == "american" and made.result.status.value == "filled"
    rules = PatternRules.for_size(11, 11)
    assert _rule_problems(made.grid, rules) == []
    assert verify_fill(made.grid, made.result.cells, words) == []


def test_theme_entries_are_placed_across_and_kept():
    words = builtin_lexicon("en")
    made = api.generate(15, 15, words, style="american", entries=["moonlight", "sunflower"], time_limit=60, seed=1)
    assert made.result.status.value == "filled"
    answers = {entry.answer: entry for entry in made.result.entries}
    assert answers["MOONLIGHT"].direction == "across" and answers["SUNFLOWER"].direction == "across"
    first, second = answers["MOONLIGHT"], answers["SUNFLOWER"]
    # equal lengths: the two are symmetric partners
    assert (first.row + second.row, first.col + second.col) == (14, 15 - 9)
    assert made.theme == ["MOONLIGHT", "SUNFLOWER"]
    assert verify_fill(made.grid, made.result.cells, words, extra_words=made.theme) == []


def test_a_theme_entry_wider_than_the_grid_is_an_input_error():
    with pytest.raises(InputError, match="16 letters; the grid is 15 wide"):
        api.generate(15, 15, None, style="american", entries=["A" * 16], time_limit=5)


def test_cli_generate_is_american_by_default(tmp_path):
    out = tmp_path / "g.json"
    code = main(["generate", "--size", "9x9", "--seed", "1", "--time-limit", "30", "-o", str(out), "-q"])
    data = json.loads(out.read_text())
    assert code == 0 and data["status"] == "filled" and data["method"] == "american"
    assert data["repairs"] >= 0 and data["theme"] == []
    grid = Grid(tuple(tuple(None if v is None else "" for v in row) for row in data["grid"]))
    assert _rule_problems(grid, PatternRules.for_size(9, 9)) == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--method", "csp"], "--method applies to --style open only"),
        (["--symmetric", "--method", "csp"], "--method and --symmetric apply to --style open only"),
        (["--style", "open", "--blocks", "10"], "--blocks applies to --style american only"),
        (["--style", "open", "--symmetry", "mirror"], "--symmetry applies to --style american only"),
        (["--entry", "AB"], "theme entry AB has 2 letters; entries have at least 3"),
        (["--entry", "SPACESHIPEARTH", "--entry", "spaceship earth"], "is given twice"),
        (["--entry", "CAFÉAULAIT"], "no word of the list has 'É'"),
        (["--entry", "TELEPHONEPOLE", "--max-run", "10"], "more than the longest entry allowed (10)"),
        (["--entry", "ABCDEFGHIJKLMNOP"], "16 letters; the grid is 15 wide"),
        (["--blocks", "200"], "blocks must be between 0 and 75"),
    ],
)
def test_cli_generate_refuses_options_of_the_other_style(args, message, capsys):
    assert main(["generate", "--size", "15x15", *args]) == 2
    assert message in capsys.readouterr().err


def test_the_pattern_verifier_names_each_broken_rule():
    ok = ["...", "...", "..."]
    assert pattern_problems([["" for _ in row] for row in ok]) == []
    cells = [[None if ch == "#" else "" for ch in row] for row in ["#....", ".....", ".....", ".....", "....."]]
    assert pattern_problems(cells) == ["blocks not rotational-symmetric at row 1, col 1"]
    assert pattern_problems(cells, symmetry="mirror") == ["blocks not mirror-symmetric at row 1, col 1"]
    assert "row 1 has a run of 5 open cells" in pattern_problems([[""] * 5] * 5, max_run=4)
    assert pattern_problems([[""] * 5] * 5, max_words=9) == ["10 entries, more than 9"]
    walled = [[None if c == 3 else "" for c in range(7)] for _ in range(7)]
    assert "the open cells are not connected" in pattern_problems(walled)
    squared = [[None if 3 <= r <= 5 and 3 <= c <= 5 else "" for c in range(9)] for r in range(9)]
    assert pattern_problems(squared) == ["a 3x3 square of blocks at row 4, col 4"]


def test_open_style_symmetric_blocks_stay_symmetric():
    with pytest.raises(InputError, match="progressive search does not keep symmetric blocks"):
        api.generate(9, 9, None, style="open", symmetric=True, method="progressive", time_limit=5)
    made = api.generate(9, 9, None, style="open", symmetric=True, time_limit=20, seed=1)
    assert made.method == "csp" and made.result.status.value == "filled"
    assert made.grid.stats().symmetric_180


def test_a_theme_entry_that_leaves_a_short_piece_gets_blocks_beside_it():
    # 12 of 15 columns: the 2 cells left beside the entry's end block become blocks too
    made = api.generate(15, 15, None, style="american", entries=["peanut butter"], time_limit=60, seed=0)
    assert made.result.status.value == "filled"
    entry = next(e for e in made.result.entries if e.answer == "PEANUTBUTTER")
    assert entry.direction == "across" and entry.col in (0, 3)
    assert _rule_problems(made.grid, PatternRules.for_size(15, 15)) == []
