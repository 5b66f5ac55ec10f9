"""The chain of clue sources: which sources ``--clues`` names, and a puzzle's empty clues filled
from the first source with an acceptable clue."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from csp_crossword.api import import_clues
from csp_crossword.cli.arguments import CLUE_KINDS
from csp_crossword.clues.builtin import BuiltinClues
from csp_crossword.clues.chain import (
    KINDS,
    LISTED_EMPTY,
    ClueReport,
    ListClues,
    WordNetClues,
    as_clue,
    builtin_source,
    choose_clues,
    clue_sources,
    clued_lexicon,
    fill_clues,
    suggest,
)
from csp_crossword.clues.database import ClueDatabase
from csp_crossword.clues.rules import reveals
from csp_crossword.clues.sources import ClueSuggestion
from csp_crossword.clues.wordnet import wordnet_directory
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.formats import Puzzle
from csp_crossword.words.lexicon import Lexicon

# DOG / NO across, ON / GO down: four answered entries.
GRID = "...\n#.."
SOLUTION = (("D", "O", "G"), (None, "N", "O"))


class Table:
    """A ClueSource from a dict: entry -> clues, best first."""

    def __init__(self, name: str, clues: dict[str, list[str]]):
        self.name = name
        self.clues = clues
        self.asked: list[set[str]] = []

    def suggestions(self, entry: str, limit: int = 10) -> list[ClueSuggestion]:
        return [ClueSuggestion(c, f"table {self.name}", 2) for c in self.clues.get(entry, [])[:limit]]

    def best(self, entries: Iterable[str]) -> dict[str, str]:
        wanted = set(entries)
        self.asked.append(wanted)
        return {e: self.clues[e][0] for e in wanted if self.clues.get(e)}


def puzzle(clues: dict[str, str] | None = None) -> Puzzle:
    return Puzzle(parse_grid(GRID), solution=SOLUTION, clues=dict(clues or {}))


@pytest.fixture(autouse=True)
def no_user_database(monkeypatch, tmp_path):
    """The user's own database never takes part: the default is a file that is not there."""
    monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(tmp_path / "absent" / "clues.sqlite"))


def test_kinds_match_the_command_line():
    assert KINDS == CLUE_KINDS and KINDS[0] == "db"


def test_sources_of_each_kind(tmp_path):
    assert clue_sources("none") == []
    assert [type(s) for s in clue_sources("builtin")] == [BuiltinClues]
    assert [type(s) for s in clue_sources("wordnet")] == [WordNetClues]
    # no database imported into yet: not an error, the shipped clues alone
    assert [s.name for s in clue_sources("db")] == ["builtin"]
    with pytest.raises(InputError, match="unknown clue source 'list'"):
        clue_sources("list")
    with pytest.raises(InputError, match="no clue database") as raised:
        clue_sources("db", database=tmp_path / "missing.sqlite")
    assert raised.value.path == str(tmp_path / "missing.sqlite")


def xd_file(folder, name: str, dog: str) -> None:
    (folder / name).write_text(
        f"Title: {name}\nAuthor: Ann Setter\nDate: 2024-03-02\n\n\nDOG\n#NO\n\n\n"
        f"A1. {dog} ~ DOG\nA4. Negative ~ NO\n\nD2. Atop ~ ON\nD3. Leave ~ GO\n",
        encoding="utf-8",
    )


def test_database_first_then_the_shipped_clues(tmp_path, monkeypatch):
    folder = tmp_path / "files"
    folder.mkdir()
    xd_file(folder, "a.xd", "Loyal pet")
    db = tmp_path / "clues.sqlite"
    import_clues(folder, db)
    sources = clue_sources("db", database=db)
    assert [s.name for s in sources] == ["db", "builtin"] and isinstance(sources[0], ClueDatabase)
    # the default database, when it exists, is the one of $CSP_CROSSWORD_CLUE_DB
    monkeypatch.setenv("CSP_CROSSWORD_CLUE_DB", str(db))
    assert [s.name for s in clue_sources("db")] == ["db", "builtin"]

    board = puzzle({"4A": "Refusal"})
    report = fill_clues(board, sources)
    assert board.clues["1A"] == "Loyal pet" and board.clues["4A"] == "Refusal"
    assert report.kept == 1 and report.added["db"] == 3 and report.added["builtin"] == 0
    assert report.empty == []


def test_first_source_wins_and_kept_clues_stay():
    first = Table("first", {"DOG": ["Pup's parent"], "ON": ["Atop"]})
    second = Table("second", {"DOG": ["Hound"], "GO": ["Leave"], "NO": ["Veto"]})
    board = puzzle({"1A": "Kept as written"})
    report = fill_clues(board, [first, second])
    assert board.clues == {"1A": "Kept as written", "2D": "Atop", "3D": "Leave", "4A": "Veto"}
    assert report.kept == 1 and report.added == {"first": 1, "second": 2} and report.empty == []
    # the second source is asked only for what the first did not give
    assert second.asked == [{"GO", "NO"}]


def test_a_clue_giving_its_answer_away_is_never_used():
    # the best clue holds the answer; the next suggestion of the same source is taken instead,
    # and a source with nothing acceptable leaves the entry to the next source
    first = Table("first", {"DOG": ["Dog days", "Hot dog bun", "Canine"], "GO": ["Going away"]})
    second = Table("second", {"GO": ["Leave"]})
    board = puzzle()
    report = fill_clues(board, [first, second])
    assert board.clues["1A"] == "Canine" and board.clues["3D"] == "Leave"
    assert report.empty == ["4A", "2D"]
    for slot, answer, clue in board.entries():
        assert not (clue and reveals(answer, clue)), slot.id


def test_one_puzzle_uses_a_clue_once_while_an_entry_has_another():
    # DOG, NO and GO all have "Word" first; the puzzle's own "Refusal" is taken too
    table = Table("t", {"DOG": ["Word", "Canine"], "GO": ["Word", "Refusal", "Leave"], "NO": ["Word"], "ON": ["Word"]})
    board = puzzle({"2D": "refusal"})
    fill_clues(board, [table])
    assert board.clues == {"1A": "Word", "2D": "refusal", "3D": "Leave", "4A": "Word"}
    # NO has no other clue: it keeps the taken one rather than none


def test_a_clued_lexicon_keeps_the_entries_a_source_or_the_list_clues(tmp_path):
    words = Lexicon({"DOG": 50, "GO": 50, "NO": 50, "XQZV": 50}, clues={"NO": "Refusal"})
    kept = clued_lexicon(words, [Table("t", {"GO": ["Leave"]})])
    assert sorted(kept.scores) == ["GO", "NO"] and kept.clue("NO") == "Refusal"
    shipped = builtin_source()
    kept = clued_lexicon(words, [shipped])
    assert sorted(kept.scores) == ["DOG", "GO", "NO"]
    assert all(shipped.clues(entry) for entry in ("DOG", "GO")) and not shipped.clues("XQZV")
    assert clued_lexicon(words, []).scores == {"NO": 50}


def test_a_wordnet_gloss_as_a_clue():
    assert as_clue("(astronomy) a major planet whose orbit is outside") == "A major planet whose orbit is outside"
    assert as_clue("god of the winds") == "God of the winds"
    assert as_clue("(only a label)") == "(only a label)"


def test_report_messages():
    report = ClueReport(kept=4, added={"db": 4, "builtin": 70, "wordnet": 0}, empty=["12A", "40D", "51A"])
    assert report.describe() == "clues: 70 from the built-in source, 4 from your database, 4 from the word list"
    assert report.describe("the file") == "clues: 70 from the built-in source, 4 from your database, 4 from the file"
    assert report.describe_empty() == "3 clues empty: 12A, 40D, 51A"
    assert ClueReport(empty=["1A"]).describe_empty() == "1 clue empty: 1A"
    assert ClueReport().describe() == "" and ClueReport().describe_empty() == ""
    many = ClueReport(empty=[f"{n}A" for n in range(1, LISTED_EMPTY + 6)])
    assert many.describe_empty().endswith(f"{LISTED_EMPTY}A and 5 more")


def test_no_sources_leaves_every_clue_empty():
    board = puzzle({"4A": "Refusal"})
    report = fill_clues(board, clue_sources("none"))
    assert report.added == {} and report.kept == 1 and report.empty == ["1A", "2D", "3D"]
    # an entry with an empty cell has no answer: nothing to clue, nothing to report
    partial = Puzzle(parse_grid(GRID), solution=(("D", "O", ""), (None, "N", "O")))
    assert fill_clues(partial, []).empty == ["4A", "2D"]


def test_the_shipped_clues_fill_a_puzzle():
    board = puzzle()
    report = fill_clues(board, clue_sources("builtin"))
    assert report.added["builtin"] == 4 and report.empty == []
    for _, answer, clue in board.entries():
        assert clue and clue[0].isupper() and not reveals(answer, clue)


def test_choose_clues_names_the_source():
    words = Lexicon({"DOG": 50, "GO": 50}, clues={"DOG": "Dog's own clue from my list"})
    chosen = choose_clues({"1A": "DOG", "3D": "go"}, [ListClues(words), Table("t", {"GO": ["Leave"]})])
    # the user's list is theirs: its clue goes in as they wrote it, even one holding the answer
    assert chosen == {"1A": ("Dog's own clue from my list", "list"), "3D": ("Leave", "t")}


def test_a_source_that_cannot_be_read_is_skipped_with_its_reason():
    class Damaged(Table):
        def best(self, entries: Iterable[str]) -> dict[str, str]:
            raise InputError("the clue database is damaged", "clues.db")

    board = puzzle()
    report = fill_clues(board, [Damaged("db", {}), Table("t", {"DOG": ["Canine"], "NO": ["Refusal"]})])
    assert report.failed == {"db": "clues.db: the clue database is damaged"}
    assert report.added == {"db": 0, "t": 2} and board.clues  # the next source's clues, nothing lost
    with pytest.raises(InputError, match="damaged"):  # asked directly, the error goes up
        choose_clues({"1A": "DO"}, [Damaged("db", {})])


def test_no_clue_holds_another_answer_of_the_puzzle():
    table = Table("t", {"HIT": ["Strike", "Smash success"], "STRIKE": ["Walkout"], "ONE": ["Single"]})
    chosen = choose_clues({"1A": "HIT", "2D": "STRIKE"}, [table])
    assert chosen == {"1A": ("Smash success", "t"), "2D": ("Walkout", "t")}
    # with no other clue, the echoing one is kept; a short answer (ONE) is no echo
    alone = Table("t", {"HIT": ["Strike"], "STRIKE": ["Walkout"], "TON": ["One heavy weight"]})
    chosen = choose_clues({"1A": "HIT", "2D": "STRIKE", "3D": "TON", "4A": "ONE"}, [alone])
    assert chosen["1A"] == ("Strike", "t") and chosen["3D"] == ("One heavy weight", "t")
    # strikes, struck: the answer's stem in another form is an echo too
    plural = Table("t", {"HIT": ["Strikes", "Smash"], "STRIKE": ["Walkout"]})
    assert choose_clues({"1A": "HIT", "2D": "STRIKE"}, [plural])["1A"] == ("Smash", "t")


def test_suggest_each_clue_once_in_chain_order():
    first = Table("first", {"DOG": ["Canine", "Dog star", "Pet"]})
    second = Table("second", {"DOG": ["canine", "Hound", "Pooch"]})
    found = suggest("dog", [first, second], limit=3)
    assert [s.clue for s in found] == ["Canine", "Pet", "Hound"]
    assert [s.source for s in found] == ["table first", "table first", "table second"]
    assert suggest("dog", [first, second], limit=10)[-1].clue == "Pooch"
    assert suggest("dog", [], limit=3) == []


@pytest.mark.skipif(wordnet_directory() is None, reason="WordNet (Debian's wordnet-base) is not installed")
def test_wordnet_lists_its_entries_for_a_clued_fill():
    words = Lexicon({"DOG": 50, "ICEAGE": 50, "XQZV": 50})
    assert sorted(clued_lexicon(words, [WordNetClues()]).scores) == ["DOG", "ICEAGE"]


@pytest.mark.skipif(wordnet_directory() is None, reason="WordNet (Debian's wordnet-base) is not installed")
def test_wordnet_source():
    source = WordNetClues()
    assert source.available()
    clues = source.best(["dog", "XQZV"])
    assert set(clues) == {"dog"} and "canis" in clues["dog"].lower() and clues["dog"][0].isupper()
    assert source.suggestions("DOG")[0].source == "WordNet 3.0"
    assert source.suggestions("XQZV") == [] and source.suggestions("DOG", 0) == []
