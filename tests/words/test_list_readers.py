"""The score formats list files come in: ``word;score``, ``word score``, ``word<TAB>score``, CSV
with or without a header row (a file without the ``.csv`` extension too), each read with the
same line and column reporting."""

from __future__ import annotations

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.words.wordlists import load_word_list

SCORES = {"CAT": 60, "DOG": 70, "ICEAGE": 64}


@pytest.mark.parametrize(
    "name, text",
    [
        ("semicolons.dict", "cat;60\ndog;70\nice age;64\n"),
        ("spaces.txt", "cat 60\ndog   70\nice age 64\n"),
        ("tabs.txt", "cat\t60\ndog\t70\nice age\t64\n"),
        ("plain.csv", "cat,60\ndog,70\nice age,64\n"),
        ("header.csv", "word,score\ncat,60\ndog,70\nice age,64\n"),
        ("columns.csv", "clue,score,word\nA pet,60,cat\n,70,dog\nCold spell,64,ice age\n"),
        ("answer.csv", "Answer;Score\ncat;60\n".replace(";", ",") + "dog,70\nice age,64\n"),
        ("sniffed.txt", "# my list\nword,score\ncat,60\ndog,70\nice age,64\n"),
        ("sniffed.dict", "cat,60\ndog,70\nice age,64\n"),
    ],
)
def test_each_score_format_reads_the_same_list(write, name, text):
    lexicon, report = load_word_list(write(name, text))
    assert lexicon.scores == SCORES and report.warning() is None
    assert lexicon.display_form("ICEAGE") == "ice age"


def test_a_header_names_the_clue_and_score_columns(write):
    text = "word,source,clue,score\ncat,ukacd,A pet,60\ndog,,Hound,\nowl,x,Hooter,lots\n"
    lexicon, report = load_word_list(write("w.csv", text))
    assert lexicon.scores == {"CAT": 60, "DOG": 50}
    assert lexicon.clue("CAT") == "A pet" and lexicon.clue("DOG") == "Hound"
    assert report.malformed == [(4, "score 'lots' is not a number within +-1,000,000,000")]


def test_without_a_header_any_number_is_the_score_and_other_text_the_clue(write):
    lexicon, _ = load_word_list(write("w.csv", "cat,A pet,60\ndog,70,Hound\nowl\n"))
    assert lexicon.scores == {"CAT": 60, "DOG": 70, "OWL": 50}
    assert lexicon.clue("CAT") == "A pet" and lexicon.clue("DOG") == "Hound"


def test_a_named_score_column_is_checked_with_line_and_column(write):
    with pytest.raises(InputError, match=r"o\.csv:3:9: score 'many'"):
        load_word_list(write("o.csv", "word,score\ncat,90\nlongdog,many\n"), strict=True)


@pytest.mark.parametrize(
    "name, text, where",
    [
        ("o.txt", "cat;90\ndog;lots\n", ":2:5:"),
        ("o.txt", "cat 90\n  A@B 40\n", ":2:4:"),
        ("o.txt", "cat\t90\ndog\tx1\n", ":2:5:"),
    ],
)
def test_strict_reading_names_line_and_column_in_every_plain_format(write, name, text, where):
    with pytest.raises(InputError) as caught:
        load_word_list(write(name, text), strict=True)
    assert where in str(caught.value)


def test_a_plain_list_with_commas_in_later_lines_stays_plain(write):
    lexicon, report = load_word_list(write("w.txt", "cat;60\nsmith, john;40\n"))
    assert lexicon.scores == {"CAT": 60} and report.counts == {"characters": 1}
