"""The rules every clue keeps (``csp_crossword.clues.rules``): derived stems, contractions' halves
and pet forms give an answer away; unrelated words do not."""

from __future__ import annotations

import pytest
from csp_crossword.clues.rules import reveals, roots_of


@pytest.mark.parametrize(
    ("answer", "clue", "words"),
    [
        ("ABILITY", "Quality of being able to perform", ()),  # -ility: able
        ("ABLE", "Ability", ()),
        ("CODE", "Codification", ()),  # -ification
        ("CODE", "Codify", ()),  # -ify
        ("NATION", "National", ()),
        ("ISNT", "Is not", ("isn't",)),  # a contraction's halves, however short
        ("ITS", "It is", ("it's",)),
        ("CANT", "Can not", ("can't",)),
        ("TEDS", "Teddy boys", ()),  # a pet form
        ("DOG", "Doggie", ()),
    ],
)
def test_derived_forms_give_the_answer_away(answer, clue, words):
    assert reveals(answer, clue, words)


@pytest.mark.parametrize(
    ("answer", "clue", "words"),
    [
        ("SODA", "Pop", ()),
        ("ERA", "Epoch", ()),
        ("ORCA", "Killer whale", ()),
        ("EASES", "Comforts", ()),
        ("ISNT", "Contraction of denial", ("isn't",)),
        ("ITS", "That thing's", ("its",)),
        ("TED", "___ Williams", ()),
        ("PEDESTRIANS", "Walkers", ()),
    ],
)
def test_unrelated_words_do_not(answer, clue, words):
    assert not reveals(answer, clue, words)


def test_roots_take_one_derivational_suffix_off():
    assert "abl" in roots_of("ability") and "cod" in roots_of("codification")
    assert roots_of("at") == set()  # too short to compare
