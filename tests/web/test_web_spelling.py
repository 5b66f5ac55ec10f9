"""The page's fills keep to a spelling as the CLI's do: auto by the grid, the list's source by it."""

from csp_crossword.api import as_grid
from csp_crossword.web.models import WordSettings
from csp_crossword.web.wordlists import builtin_source, load_source

AMERICAN = as_grid("...\n...\n...")
BRITISH = as_grid(".....\n.#.#.\n.....")


def test_auto_is_us_on_an_american_grid_from_the_built_in_list_only():
    assert WordSettings().kept_spelling(AMERICAN) == "us"
    assert WordSettings().kept_spelling(BRITISH) == "any"
    assert WordSettings().kept_spelling(None) == "us"  # a generated grid is American-style
    assert WordSettings(words="upload:1").kept_spelling(AMERICAN) == "any"
    assert WordSettings(spelling="uk").kept_spelling(AMERICAN) == "uk"
    assert WordSettings(allow_shared_roots=True).fill_settings()["allow_shared_roots"] is True


def test_a_list_kept_to_a_spelling_is_cached_apart():
    from dataclasses import replace

    source = builtin_source("en", False)
    us = replace(source, spelling="us")
    assert us.cache_key != source.cache_key
    assert "COLOUR" not in load_source(us) and "COLOUR" in load_source(source)
