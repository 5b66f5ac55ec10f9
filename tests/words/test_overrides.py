"""``--overrides FILE``: re-score, add and ban words of the chosen list; later files win."""

from __future__ import annotations

import json

import pytest
from csp_crossword import api
from csp_crossword.cli import main
from csp_crossword.core.errors import InputError

#: Two unconnected 3-letter slots.
PAIR = "...#...\n"
WORDS = "CAT;90\nDOG;80\nEEL;70\nOWL;60\n"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def answers(out: str) -> list[str]:
    return sorted(e["answer"] for e in json.loads(out)["entries"])


def test_later_file_wins(write):
    words = write("w.dict", WORDS)
    low, high = write("low.txt", "CAT;10\n"), write("high.txt", "cat;95\n")
    assert api.load_words(words, overrides=[low, high]).scores["CAT"] == 95
    assert api.load_words(words, overrides=[high, low]).scores["CAT"] == 10
    # inside one file the last line wins too
    assert api.load_words(words, overrides=write("both.txt", "CAT;95\nCAT;10\n")).scores["CAT"] == 10


def test_rescoring_changes_the_fill(capsys, write):
    grid, words = write("g.txt", PAIR), write("w.dict", WORDS)
    code, out, _ = run(capsys, "fill", grid, "--words", words, "--format", "json")
    assert code == 0 and answers(out) == ["CAT", "DOG"]
    boost = write("boost.csv", "word,score\nowl,99\neel,98\n")
    code, out, _ = run(capsys, "fill", grid, "--words", words, "--overrides", boost, "--format", "json")
    assert code == 0 and answers(out) == ["EEL", "OWL"]
    assert {e["answer"]: e["score"] for e in json.loads(out)["entries"]} == {"OWL": 99, "EEL": 98}


@pytest.mark.parametrize("score", ["0", "-5"])
def test_zero_or_negative_score_bans(capsys, write, score):
    grid, words = write("g.txt", PAIR), write("w.dict", WORDS)
    ban = write("ban.txt", f"# never these\ncat;{score}\ndog\t{score}\n")
    code, out, _ = run(capsys, "fill", grid, "--words", words, "--overrides", ban, "--format", "json")
    assert code == 0 and answers(out) == ["EEL", "OWL"]
    lexicon = api.load_words(words, overrides=ban)
    assert "CAT" not in lexicon and "DOG" not in lexicon and len(lexicon) == 2
    # --min-score 0 does not bring a banned word back
    code, out, _ = run(
        capsys, "fill", grid, "--words", words, "--overrides", ban, "--min-score", "0", "--format", "json"
    )
    assert code == 0 and answers(out) == ["EEL", "OWL"]


def test_a_missing_word_is_added(capsys, write):
    grid, words = write("g.txt", "....#...\n"), write("w.dict", WORDS)
    code, _, _ = run(capsys, "fill", grid, "--words", words)
    assert code == 1  # no 4-letter word
    add = write("add.json", json.dumps([{"word": "ice age", "score": 75}, {"word": "newt", "score": 55}]))
    code, out, _ = run(capsys, "fill", grid, "--words", words, "--overrides", add, "--format", "json")
    assert code == 0 and answers(out) == ["CAT", "NEWT"]
    lexicon = api.load_words(words, overrides=add)
    assert lexicon.scores["ICEAGE"] == 75 and lexicon.display_form("ICEAGE") == "ice age"


def test_mapping_overrides_in_the_library():
    base = api.as_lexicon({"CAT": 90, "DOG": 80})
    merged = api.with_overrides(base, {"cat": 0, "yak": 40})
    assert merged.scores == {"DOG": 80, "YAK": 40}
    with pytest.raises(InputError, match="not a usable entry"):
        api.with_overrides(base, {"AT&T": 40})


@pytest.mark.parametrize(
    ("content", "name", "where", "needle"),
    [
        ("CAT;90\nDOG;lots\n", "o.txt", ":2:5:", "score 'lots' is not a number"),
        ("CAT;90\n  AT&T;40\n", "o.txt", ":2:5:", "'AT&T' holds '&'"),
        ("word,score\ncat,90\ndog,many\n", "o.csv", ":3:5:", "score 'many' is not a number"),
        ('{"cat": 90,\n "dog": "lots"}\n', "o.json", ":2:3:", "the score of 'dog' is not a number"),
        ('{"cat": 90,\n "dog" 5}\n', "o.json", ":2:8:", "not valid JSON"),
    ],
)
def test_malformed_line_is_an_error_naming_file_line_and_column(capsys, write, content, name, where, needle):
    bad = write(name, content)
    code, _, err = run(capsys, "fill", write("g.txt", PAIR), "--words", write("w.dict", WORDS), "--overrides", bad)
    assert code == 2 and f"{bad}{where}" in err and needle in err and "Traceback" not in err
    with pytest.raises(InputError) as caught:
        api.load_words(write("w2.dict", WORDS), overrides=bad)
    assert needle in str(caught.value)


def test_missing_overrides_file_exit_2(capsys, write, tmp_path):
    missing = tmp_path / "nope.txt"
    code, _, err = run(capsys, "fill", write("g.txt", PAIR), "--words", write("w.dict", WORDS), "--overrides", missing)
    assert code == 2 and "nope.txt" in err


def test_builtin_list_takes_overrides():
    lexicon = api.load_words(lang="en", overrides={"qxzqj": 100, "the": 0})
    assert lexicon.scores["QXZQJ"] == 100 and "THE" not in lexicon
    assert api.candidates("QXZQ.\n", "1A", lexicon, limit=5).words[0][0] == "QXZQJ"


def test_check_count_candidates_and_generate_take_overrides(capsys, write):
    grid, words = write("g.txt", PAIR), write("w.dict", WORDS)
    ban = write("ban.txt", "CAT;0\nDOG;0\nEEL;0\n")
    code, out, _ = run(capsys, "count", grid, "--words", words, "--overrides", ban)
    assert code == 0 and out == "0 fills\n"
    code, _, _ = run(capsys, "check", grid, "--words", words, "--overrides", ban)
    assert code == 1
    code, out, _ = run(capsys, "candidates", grid, "1A", "--words", words, "--overrides", ban, "--allow-duplicates")
    assert (
        code == 0
        and out == "1A ???: 1 candidate; 1 checked: 1 ok, 0 dead ends, 0 unchecked (?)\n    1. ok    OWL  60\n"
    )
    code, _, err = run(capsys, "generate", "--size", "3x3", "--words", words, "--overrides", write("x.txt", "CAT;x\n"))
    assert code == 2 and "x.txt:1:5: score 'x' is not a number" in err
