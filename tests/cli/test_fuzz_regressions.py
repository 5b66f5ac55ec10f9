"""Crashes once found in the readers, and the input bounds of ``csp_crossword.core.limits``: each
is bad input (InputError naming the file and the line or field; exit 2), never a traceback."""

from __future__ import annotations

import json

import pytest
from csp_crossword.cli import main
from csp_crossword.core.errors import ExitCode, InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.limits import MAX_CLUE_CHARS, MAX_GRID_SIDE, MAX_WORD_GLYPHS, clue_number
from csp_crossword.formats import read_crossword
from csp_crossword.words import wordlists
from csp_crossword.words.wordlists import load_word_list


def ipuz(clues: object = None, width: object = 2, height: object = 2) -> str:
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": width, "height": height},
        "puzzle": [[1, 2], [3, 0]],
        "clues": {"Across": clues if clues is not None else [[1, "First"]]},
    }
    return json.dumps(data)


@pytest.mark.parametrize(
    "number", ["Infinity", "-Infinity", "NaN", "1e999", "1.5", "-1", "0", "true", "1" + "0" * 30, '"x"', "[]"]
)
def test_an_ipuz_clue_number_that_is_not_a_whole_number_in_range_is_bad_input(write, number):
    path = write("n.ipuz", ipuz().replace("[[1, ", f"[[{number}, "))
    # the cell's own label is refused first when it is no number a grid has (too long, too large)
    expected = r"clues.Across\[0\] has no clue number|puzzle\[0\]\[0\]: (a cell label of|cell number)"
    with pytest.raises(InputError, match=expected) as caught:
        read_crossword(path)
    assert caught.value.path == path


def test_an_ipuz_clue_number_given_as_text_or_a_whole_float_still_counts(write):
    for number in ('"1"', "1.0"):
        puzzle = read_crossword(write("t.ipuz", ipuz().replace("[[1, ", f"[[{number}, ")))
        assert puzzle.clues == {"1A": "First"}


def test_clue_numbers_are_whole_numbers_from_one_to_a_cell_count():
    assert [clue_number(v) for v in (1, "12", 3.0, " 7 ", MAX_GRID_SIDE**2)] == [1, 12, 3, 7, MAX_GRID_SIDE**2]
    bad = (0, -3, True, 1.5, float("inf"), float("nan"), "1e3", "", None, [1], MAX_GRID_SIDE**2 + 1, "9" * 5000)
    assert [clue_number(v) for v in bad] == [None] * len(bad)


def test_an_xd_clue_number_of_4300_digits_is_bad_input_with_its_line(write):
    path = write("long.xd", "Title: x\n\n\nAB\nCD\n\n\nA" + "1" * 4300 + ". Clue ~ AB\n")
    with pytest.raises(InputError, match="a clue number is a whole number") as caught:
        read_crossword(path)
    assert (caught.value.path, caught.value.line, caught.value.column) == (path, 8, 2)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"entries": 5}, "'entries' must be a list"),
        ({"entries": [5]}, r"entries\[0\] must be an object"),
        ({"entries": [{"id": ["1A"], "clue": "x"}]}, r"entries\[0\].id must be a string"),
        ({"entries": [{"id": "1A", "clue": {"text": "x"}}]}, r"entries\[0\].clue must be a string"),
        ({"entries": [{"id": "1A", "clue": "x" * (MAX_CLUE_CHARS + 1)}]}, r"entries\[0\].clue: a clue of 10,001"),
        ({"title": ["x"]}, "'title' must be a string"),
        ({"rtl": "yes"}, "'rtl' must be true or false"),
        ({"kind": 5}, "'kind' must be a string"),
        ({"cells": [[]]}, "'cells' must be a list of equal, non-empty rows"),
        ({"cells": [["A", "B"], ["C"]]}, "'cells' must be a list of equal, non-empty rows"),
        ({"cells": "AB"}, "'cells' must be a list"),
        ({"cells": [["A", 1], ["C", "D"]]}, r"cells\[0\]\[1\] must be a string or null"),
        (
            {"cells": [[""] * (MAX_GRID_SIDE + 1)] * 2},
            "cells: the grid has 256 columns; the most a grid may have is 255",
        ),
    ],
)
def test_every_field_of_a_json_result_is_checked(write, change, field):
    data = {"cells": [["A", "B"], ["C", "D"]], "entries": [{"id": "1A", "clue": "First"}], "title": "T"}
    data.update(change)
    path = write("r.json", json.dumps(data))
    with pytest.raises(InputError, match=field) as caught:
        read_crossword(path)
    assert caught.value.path == path


def test_json_with_an_integer_of_more_than_4300_digits_is_bad_input_in_every_reader(write):
    huge = "9" * 4400
    for name, text in [
        ("r.json", '{"cells": [["A"]], "x": ' + huge + "}"),
        ("p.ipuz", ipuz().replace('"width": 2', '"width": ' + huge)),
    ]:
        with pytest.raises(InputError, match="digits"):
            read_crossword(write(name, text))
    with pytest.raises(InputError, match="digits"):
        load_word_list(write("w.json", '{"AB": ' + huge + "}"))


def test_a_grid_may_be_255_by_255_and_no_larger(write):
    side = "." * MAX_GRID_SIDE + "\n"
    assert parse_grid(side * MAX_GRID_SIDE).rows == MAX_GRID_SIDE
    with pytest.raises(InputError, match="256 rows") as caught:
        parse_grid(side * (MAX_GRID_SIDE + 1), "tall.txt")
    assert (caught.value.line, caught.value.column) == (256, 1)
    tall_xd = write("tall.xd", "Title: x\n\n\n" + "AB\n" * 300)
    with pytest.raises(InputError, match="more than 255 rows") as caught:
        read_crossword(tall_xd)
    assert caught.value.line == 4 + MAX_GRID_SIDE
    with pytest.raises(InputError, match="dimensions: the grid has 300 columns"):
        read_crossword(write("wide.ipuz", ipuz(width=300)))


def test_words_longer_than_any_grid_and_overlong_clues_are_skipped_with_a_warning(write):
    text = (
        "word,score,clue\nAB,1,ok\n" + "C" * (MAX_WORD_GLYPHS + 1) + ",1,x\nCD,1," + "x" * (MAX_CLUE_CHARS + 1) + "\n"
    )
    lexicon, report = load_word_list(write("w.csv", text))
    assert list(lexicon.scores) == ["AB"]
    warning = report.warning() or ""
    assert "line 3: 'CCCC" in warning and "longer than 255 glyphs" in warning
    assert "line 4: the clue of 'CD' is longer than 10,000 characters" in warning
    assert "C" * (MAX_WORD_GLYPHS // 2) not in warning  # a long word is quoted, not copied whole
    assert len(load_word_list(write("ok.txt", "A" * MAX_WORD_GLYPHS + "\nAB\n"))[0]) == 2


def test_a_word_list_longer_than_the_bound_is_bad_input(write, monkeypatch, capsys):
    monkeypatch.setattr(wordlists, "MAX_WORD_LIST_LINES", 3)
    assert len(load_word_list(write("three.txt", "AB\nCD\nEF\n"))[0]) == 3
    for name, text in [("four.txt", "AB\nCD\nEF\nGH"), ("four.json", '["AB", "CD", "EF", "GH"]')]:
        with pytest.raises(InputError, match="the most a word list may have is 3"):
            load_word_list(write(name, text))
    code = main(["fill", write("g.txt", "..\n..\n"), "--words", write("w.csv", "AB\r\nCD\r\nAC\r\nBD\r\n")])
    assert code == ExitCode.BAD_INPUT and "w.csv:4: 4 lines" in capsys.readouterr().err
