"""Inputs that used to end in an internal error (exit 70): each is a clear error now (exit 2)."""

from __future__ import annotations

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode, InputError
from csp_crossword.core.files import parse_json


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_a_lone_surrogate_escaped_in_json_is_named_with_its_place(capsys, tmp_path):
    words = tmp_path / "clues.json"
    words.write_text('{"cat": "A pet",\n "dog": "Loyal \\ud800 friend", "tac": "x"}')
    code, err = run(capsys, "freeform", words, "--time-limit", "1", "-o", tmp_path / "out.puz")
    assert code == ExitCode.BAD_INPUT
    assert f"{words}:2:16: not a JSON word list: \\ud800 is half of a surrogate pair, not a character" in err
    assert not (tmp_path / "out.puz").exists()


@pytest.mark.parametrize(
    "text",
    ['{"a": "\\ud83d\\ude00"}', '{"a": "\\\\ud800"}', '{"a": "\\u00e9"}'],
)
def test_a_surrogate_pair_and_an_escaped_backslash_are_fine(text):
    parse_json(text, "f.json", "a word list")


@pytest.mark.parametrize("text", ['["\\ude00"]', '["x\\ud800\\u0041"]', '{"\\udbff": 1}'])
def test_every_lone_half_is_refused(text):
    with pytest.raises(InputError, match="half of a surrogate pair"):
        parse_json(text, "f.json", "a word list")


def test_an_open_layout_from_a_list_the_minimum_score_empties_is_a_clear_error(capsys):
    code, err = run(capsys, "generate", "--size", "5x5", "--style", "open", "--min-score", "99", "--time-limit", "3")
    assert code == ExitCode.BAD_INPUT
    assert "the word list has no word of 2 to 5 letters (after --min-score and bans)" in err
