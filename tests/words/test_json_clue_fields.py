"""A JSON word list's clue that is not text (an object, a number, true, a list) is a malformed
entry named with its file, line and word, never a clue such as "{'x': 1}" in a puzzle."""

from __future__ import annotations

import json

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode, InputError
from csp_crossword.words.wordlists import load_word_list


@pytest.mark.parametrize(
    "data",
    [
        [{"word": "CAT", "clue": {"x": 1}}, {"word": "DOG", "clue": 5}, {"word": "EEL", "clue": "Fish"}, "ANT"],
        {"CAT": {"x": 1}, "DOG": [5], "EEL": "Fish", "ANT": None},
    ],
    ids=["list of objects", "word to clue"],
)
def test_a_clue_of_the_wrong_type_is_a_malformed_entry_named_by_line(write, data):
    path = write("list.json", json.dumps(data, indent=1))
    lexicon, report = load_word_list(path)
    assert sorted(lexicon.scores) == ["ANT", "EEL"] and lexicon.clue("EEL") == "Fish"
    assert not any("{" in (lexicon.clue(word) or "") for word in lexicon.scores)
    warning = report.warning()
    assert warning is not None and warning.startswith(str(path)) and "2 malformed" in warning
    assert "the clue of 'CAT' is an object, not text" in warning
    assert all(line > 0 for line, _ in report.malformed)


def test_a_strict_reader_refuses_the_file_with_its_line(write):
    path = write("overrides.json", '[\n {"word": "CAT", "score": 60, "clue": 7}\n]\n')
    with pytest.raises(InputError, match="the clue of 'CAT' is a number, not text") as caught:
        load_word_list(path, strict=True)
    assert caught.value.path == str(path) and caught.value.line == 2


def test_freeform_warns_and_never_prints_an_object_as_a_clue(write, capsys):
    words = {"HORSE": {"text": "Equine"}, "MOUSE": "Rodent", "SNAKE": "Serpent", "CAT": "Feline"}
    path = write("animals.json", json.dumps(words))
    code = main(["freeform", path, "--show", "clues", "--time-limit", "2", "-q"])
    out, err = capsys.readouterr()
    assert code in (ExitCode.OK, ExitCode.TIMEOUT)
    assert "{" not in out and "Equine" not in out
    assert "the clue of 'HORSE' is an object, not text" in err
