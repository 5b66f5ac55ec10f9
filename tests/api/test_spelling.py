"""A fill keeps to one spelling: the built-in list's tags, the auto choice, lists of one's own."""

import csp_crossword as cc
import pytest
from csp_crossword.api import as_grid, resolve_spelling
from csp_crossword.core.errors import InputError

AMERICAN = "...\n...\n..."  # every letter in an across and a down entry
BRITISH = ".....\n.#.#.\n....."  # unchecked cells, as in a British blocked grid


def test_auto_is_us_for_the_built_in_list_on_an_american_style_grid():
    assert resolve_spelling("auto", as_grid(AMERICAN)) == "us"
    assert resolve_spelling("auto", as_grid(BRITISH)) == "any"
    assert resolve_spelling("auto", as_grid(AMERICAN), own_list=True) == "any"
    assert resolve_spelling("auto", as_grid(AMERICAN), "ar") == "any"
    assert resolve_spelling("uk", as_grid(AMERICAN)) == "uk"
    with pytest.raises(InputError, match="spelling"):
        resolve_spelling("australian", None)


def test_the_built_in_list_keeps_to_a_spelling():
    us, uk, both = (cc.load_words(spelling=s) for s in ("us", "uk", "any"))
    assert "COLOR" in us and "COLOUR" not in us and "GREYED" not in us
    assert "COLOUR" in uk and "COLOR" not in uk
    assert "COLOR" in both and "COLOUR" in both


def test_a_list_of_ones_own_keeps_to_a_spelling_only_when_asked(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("colour;60\ncolor;60\ncat;50\n")
    assert "COLOUR" in cc.load_words(str(path))
    kept = cc.load_words(str(path), spelling="us")
    assert "COLOUR" not in kept and "COLOR" in kept and "CAT" in kept


def test_a_fill_keeps_to_the_spelling_asked_for():
    # one 6-letter slot starting COLO: COLOUR (British), COLORS (American) or a word of both
    american = cc.fill("COLO..", seed=0, spelling="us")
    british = cc.fill("COLO..", seed=0, spelling="uk")
    assert american.status.value == british.status.value == "filled"
    assert american.entries[0].answer != "COLOUR"
    assert british.entries[0].answer != "COLORS"
    # a grid of a single row has unchecked cells: auto keeps both spellings
    assert cc.fill("COLO..", seed=0).entries[0].answer in {american.entries[0].answer, british.entries[0].answer}
