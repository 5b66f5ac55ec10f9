import json
import random

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.word_index import DEFAULT_SCORE, WordIndex
from csp_crossword.words.wordlists import load_word_list, load_word_lists


def test_plain_list_normalises_and_keeps_display(write):
    lex, report = load_word_list(write("w.txt", "ice age\nRock-n-roll\nO'Hare\nSt. Louis\ncafé\n"))
    assert set(lex.scores) == {"ICEAGE", "ROCKNROLL", "OHARE", "STLOUIS", "CAFÉ"}
    assert lex.display_form("ICEAGE") == "ice age"
    assert all(score == DEFAULT_SCORE for score in lex.scores.values())
    assert report.warning() is None


@pytest.mark.parametrize(
    "content",
    ["cat;70\ndog;20\n", "cat\t70\ndog\t20\n", "cat 70\ndog 20\n"],
)
def test_scored_formats(write, content):
    lex, _ = load_word_list(write("w.txt", content))
    assert lex.scores == {"CAT": 70, "DOG": 20}


def test_phrase_with_number_suffix_and_plain_phrase(write):
    lex, _ = load_word_list(write("w.txt", "ice age 60\nhot dog\n"))
    assert lex.scores == {"ICEAGE": 60, "HOTDOG": DEFAULT_SCORE}


def test_csv_with_clues_and_scores(write):
    lex, _ = load_word_list(write("w.csv", 'word,clue\ncat,A pet\n"hot dog","Frank, in a bun"\nowl,80\n'))
    assert lex.clue("CAT") == "A pet"
    assert lex.clue("HOTDOG") == "Frank, in a bun"
    assert lex.scores["OWL"] == 80


def test_json_object_list_and_records(write):
    lex, _ = load_word_list(write("a.json", json.dumps({"cat": "A pet", "dog": "Another pet"})))
    assert lex.clue("DOG") == "Another pet"
    lex, _ = load_word_list(write("b.json", json.dumps(["cat", "dog"])))
    assert set(lex.scores) == {"CAT", "DOG"}
    lex, _ = load_word_list(
        write("c.json", json.dumps([{"word": "cat", "score": 90, "clue": "Mouser"}, {"word": "dog"}]))
    )
    assert lex.scores == {"CAT": 90, "DOG": DEFAULT_SCORE}
    assert lex.clue("CAT") == "Mouser"


def test_bad_json_is_located(write):
    with pytest.raises(InputError) as caught:
        load_word_list(write("bad.json", '{"cat": "x",\n "dog" "y"}'))
    assert caught.value.line == 2


def test_malformed_lines_are_collected(write):
    lex, report = load_word_list(write("w.txt", "cat;70\ndog;lots\nAT&T\n;5\nowl\n"))
    assert set(lex.scores) == {"CAT", "OWL"}
    assert [n for n, _ in report.malformed] == [2, 3, 4]
    warning = report.warning()
    assert "w.txt: skipped 3 entries: " in warning and "line 2" in warning
    assert "2 malformed" in warning and "1 with characters other than letters, marks and digits" in warning


def test_no_usable_entry_is_an_error(write):
    with pytest.raises(InputError, match="no usable entry"):
        load_word_list(write("w.txt", "AT&T\n#comment\n"))


def test_duplicates_merge_highest_and_later_file_overrides(write):
    first = write("a.txt", "cat;30\ncat;70\ndog;40\n")
    second = write("b.txt", "cat;10\n")
    lex, _ = load_word_lists([first])
    assert lex.scores["CAT"] == 70
    lex, _ = load_word_lists([first, second])
    assert lex.scores == {"CAT": 10, "DOG": 40}


def test_filtered_by_score_and_ban():
    lex = Lexicon({"CAT": 70, "DOG": 20, "OWL": 90})
    assert set(lex.filtered(min_score=50).scores) == {"CAT", "OWL"}
    assert set(lex.filtered(banned=["owl"]).scores) == {"CAT", "DOG"}


def test_index_sorted_best_first():
    lex = Lexicon({"CAT": 10, "COT": 90, "CUT": 50, "DOGS": 50})
    index = lex.index(3)
    assert index.words == ("COT", "CUT", "CAT")
    assert index.scores == (90, 50, 10)
    assert len(lex.index(5)) == 0 and lex.index(5).full == 0


def test_pattern_bitsets_match_brute_force():
    rng = random.Random(7)
    words = {"".join(rng.choice("ABCD") for _ in range(4)) for _ in range(120)}
    lex = Lexicon.from_words(words)
    index = lex.index(4)
    for _ in range(200):
        pattern = [rng.choice(["", "A", "B", "C", "D", "Z"]) for _ in range(4)]
        expected = {w for w in words if all(not p or p == g for p, g in zip(pattern, w))}
        got = {index.words[i] for i in WordIndex.iter_ids(index.match(pattern))}
        assert got == expected


def test_multi_codepoint_glyphs_are_one_position():
    lex = Lexicon.from_words(["ক্ষমা", "মামা"])
    index = lex.index(2)
    assert set(index.words) == {"ক্ষমা", "মামা"}
    assert {index.words[i] for i in WordIndex.iter_ids(index.match(["ক্ষ", ""]))} == {"ক্ষমা"}


def test_two_spellings_of_one_entry_in_a_dict_keep_the_higher_score():
    from csp_crossword.api.inputs import as_lexicon

    lexicon = as_lexicon({"ice age": 60, "ICEAGE": 40, "Cat": 10, "cat": 70, "CAT ": 30})
    assert lexicon.scores == {"ICEAGE": 60, "CAT": 70}
    assert as_lexicon({"ICEAGE": 40, "ice age": 60}).scores == {"ICEAGE": 60}  # whatever the order
