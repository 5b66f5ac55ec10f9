"""api.american_pattern (a pattern without its fill) and api.generate's progressive options."""

from __future__ import annotations

import itertools

import pytest
from csp_crossword import api
from csp_crossword.core.errors import InputError
from csp_crossword.layout.progressive import ProgressiveOptions, ProgressiveSearch
from csp_crossword.verify.fill import pattern_problems, verify_fill
from csp_crossword.words.builtin import builtin_lexicon


def across(cells, rtl: bool = False) -> list[str]:
    """Every across run of two or more cells in reading order, empty cells as '.'."""
    found = []
    for row in cells:
        line = list(reversed(row)) if rtl else list(row)
        run: list[str] = []
        for value in [*line, None]:
            if value is None:
                if len(run) >= 2:
                    found.append("".join(run))
                run = []
            else:
                run.append(value or ".")
    return found


@pytest.mark.parametrize("symmetry", ["rotational", "mirror"])
def test_american_pattern_places_the_theme_and_keeps_the_rules(symmetry):
    made = api.american_pattern(
        15, 15, entries=["Crossword puzzle", "CONSTRAINTS"], symmetry=symmetry, max_words=78, seed=4
    )
    assert made.grid is not None and made.theme == ["CROSSWORDPUZZLE", "CONSTRAINTS"]
    cells = made.grid.cells
    words = across(cells)
    assert "CROSSWORDPUZZLE" in words and "CONSTRAINTS" in words
    assert pattern_problems(cells, symmetry=symmetry, max_words=78, max_run=15) == []
    assert sum(bool(v) for row in cells for v in row) == 15 + 11  # every other open cell is empty


def test_american_pattern_is_the_pattern_generate_fills_with_the_same_seed():
    words = builtin_lexicon("en")
    pattern = api.american_pattern(9, 9, words, entries=["PUZZLE"], seed=5).grid
    made = api.generate(9, 9, words, style="american", entries=["PUZZLE"], seed=5, time_limit=10)
    assert made.result.status.has_fill and made.repairs == 0
    blocks = [[v is None for v in row] for row in made.grid.cells]
    assert [[v is None for v in row] for row in pattern.cells] == blocks


def test_american_pattern_checks_the_theme_against_a_word_list_when_given():
    with pytest.raises(InputError, match="7 wide"):
        api.american_pattern(7, 7, entries=["ELEPHANTS"])
    with pytest.raises(InputError, match="no word of the list"):
        api.american_pattern(7, 7, ["CAT", "DOG", "HORSE"], entries=["ZEBRA"])
    # no list given: the theme is taken as it is
    assert api.american_pattern(7, 7, entries=["ZEBRA"], seed=1).grid is not None


def test_a_right_to_left_theme_entry_reads_right_to_left():
    words = builtin_lexicon("ar")
    entry = next(iter(words.by_length[5]))
    made = api.american_pattern(9, 9, words, lang="ar", entries=[entry], seed=2)
    assert made.grid is not None and made.grid.rtl
    assert entry in across(made.grid.cells, rtl=True)
    slot_words = ["".join(made.grid.cells[r][c] or "." for r, c in s.cells) for s in made.grid.slots]
    assert entry in slot_words  # the grid's own across slot reads it so


def test_generate_takes_the_progressive_options():
    words = builtin_lexicon("en")
    options = {"start": "fill2", "queue_size": 8, "neighbours": 4, "threshold": 0.5, "scrambled_weight": 1.0}
    made = api.generate(6, 6, words, method="progressive", max_run=4, progressive=options, time_limit=5)
    assert made.method == "progressive"
    if made.result.status.has_fill:
        assert verify_fill(made.grid, made.result.cells, words) == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"queue_size": 0}, "queue_size"),
        ({"neighbours": 5000}, "neighbours"),
        ({"threshold": -1}, "threshold"),
        ({"scrambled_weight": 2}, "scrambled_weight"),
        ({"start": "fill3"}, "start"),
        ({"depth": 1}, "unknown progressive option 'depth'"),
    ],
)
def test_progressive_options_out_of_bounds_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        api.generate(5, 5, ["ABC"], method="progressive", progressive=options, time_limit=1)


def test_progressive_options_are_the_open_styles():
    with pytest.raises(InputError, match="open style"):
        api.generate(5, 5, ["ABC"], style="american", progressive={"queue_size": 4}, time_limit=1)


def test_the_search_uses_its_options():
    words = builtin_lexicon("en")
    tight = ProgressiveSearch(5, 5, words, options=ProgressiveOptions(neighbours=1, queue_size=1), seed=1)
    steps_seen = []
    tight.run(time_limit=0.3, on_progress=lambda steps, _cost: steps_seen.append(steps))
    # one neighbour per dequeued solution: the step count grows by one between two reports
    assert steps_seen and all(b - a <= 1 for a, b in itertools.pairwise(steps_seen))
    layout = tight.describe([["C", "A", "T", None, None]] + [[None] * 5] * 4)
    assert layout.cost == 0
