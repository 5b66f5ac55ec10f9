"""Near-twin clues (clues/twins.py) and the chain keeping them out of one puzzle."""

from __future__ import annotations

from csp_crossword.clues.chain import choose_clues
from csp_crossword.clues.sources import ClueSuggestion
from csp_crossword.clues.twins import twin_key


class TableSource:
    """A clue source from a table: entry -> its clues, best first."""

    name = "table"

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table

    def best(self, entries):
        return {entry: self.table[entry][0] for entry in entries if entry in self.table}

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        return [ClueSuggestion(clue, "table") for clue in self.table.get(entry, [])][:limit]


def test_an_inflection_of_the_same_words_is_a_twin():
    assert twin_key("Take in solid food") == twin_key("Took in solid food")
    assert twin_key("Time period") == twin_key("Periods of time")
    assert twin_key("Time period") != twin_key("Solid food")


def test_a_clue_of_one_content_word_has_no_twin_key():
    assert twin_key("Eats") is None
    assert twin_key("Of the sea") is None
    assert twin_key("") is None


def test_a_puzzle_does_not_get_two_twin_clues_when_another_clue_exists():
    source = TableSource({"EAT": ["Take in solid food", "Dine"], "ATE": ["Took in solid food", "Dined"]})
    chosen = choose_clues({"1A": "EAT", "5D": "ATE"}, [source])
    assert chosen == {"1A": ("Take in solid food", "table"), "5D": ("Dined", "table")}


def test_a_twin_is_still_used_when_the_entry_has_no_other_clue():
    source = TableSource({"EAT": ["Take in solid food"], "ATE": ["Took in solid food"]})
    chosen = choose_clues({"1A": "EAT", "5D": "ATE"}, [source])
    assert chosen["5D"] == ("Took in solid food", "table")


def test_a_clue_the_puzzle_already_has_counts_for_its_twins():
    source = TableSource({"ATE": ["Took in solid food", "Dined"]})
    chosen = choose_clues({"5D": "ATE"}, [source], used=["Take in solid food"])
    assert chosen == {"5D": ("Dined", "table")}
