"""The rules every clue keeps (``csp_crossword.clues.rules``): derived stems, contractions' halves,
pet forms and an abbreviation's expansion give an answer away; unrelated words do not."""

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
        ("CIA", "Central Intelligence Agency, for short", ()),  # an abbreviation spelt out
        ("MBA", "Master of Business Administration", ()),  # small words skipped
        ("VHF", "Very high frequency", ()),
        ("SSA", "Social Security org.", ()),  # an abbreviation partly spelt out
        ("DPS", "Double plays: Abbr.", ()),  # and in the plural
        ("PCT", "Percent: Abbr.", ()),  # the one word it shortens
        ("AVENGED", "Got revenge for", ()),  # one root, two prefixes
        ("UNMEASURABLE", "Immeasurable", ()),
        ("INASPOT", "In trouble", ("in", "a", "spot")),  # a phrase's short word, as it stands
        ("TAKETHECAKE", "Be the worst", ("take", "the", "cake")),
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
        ("CIA", "Langley spy org.", ()),
        ("VHF", "Radio band, for short", ()),
        ("ASS", "A silly sort", ()),  # initials skip "a": no run of three
        ("CPU", "Computer's brain, for short", ()),  # two words: no single word shortened
        ("SEA", "Salty expanse", ()),  # no abbreviation signal: initials by chance
        ("RESTORE", "Bring back", ()),
        ("ENCLOSE", "Surround", ()),
        ("INASPOT", "Into trouble", ("in", "a", "spot")),  # "in" only as it stands
        ("OFASORT", "A kind", ("of", "a", "sort")),  # an article says nothing
    ],
)
def test_unrelated_words_do_not(answer, clue, words):
    assert not reveals(answer, clue, words)


def test_ordinary_words_that_look_like_a_slurs_forms_are_not_offensive():
    from csp_crossword.clues.rules import is_offensive

    assert not is_offensive("Spicy dish") and not is_offensive("Spiced Indian tea")
    assert is_offensive("Spics")  # the slur's own plural still is


def test_roots_take_one_derivational_suffix_off():
    assert "abl" in roots_of("ability") and "cod" in roots_of("codification")
    assert roots_of("at") == set()  # too short to compare
