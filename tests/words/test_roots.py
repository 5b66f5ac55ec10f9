"""Entries that share a root: stems of an entry's words, irregular forms, feminine -RESS forms."""

from csp_crossword.words.roots import roots_of, shared_root_pairs


def test_regular_and_irregular_forms_share_their_root():
    assert roots_of("GREY") == roots_of("GREYED")
    assert roots_of("EAT") == roots_of("ATE")  # WordNet's exception lists
    assert roots_of("GEESE") == roots_of("GOOSE")
    assert roots_of("UNIVERSE") != roots_of("UNIVERSITY")


def test_a_phrase_shares_the_roots_of_its_words_but_not_its_function_words():
    assert roots_of("ICEAGE", "ice age") == {"ice", "age"}
    assert roots_of("INTHEAIR", "in the air") == {"air"}
    assert not roots_of("ICEAGE", "ice age") & roots_of("ONTHEGO", "on the go")
    # a display form that is not the entry's letters is not trusted: the entry is one word
    assert roots_of("ICEAGE", "something else") == roots_of("ICEAGE")


def test_feminine_forms_need_their_masculine_in_the_list():
    assert "actor" in roots_of("ACTRESS", known={"ACTOR"}.__contains__)
    assert "actor" not in roots_of("ACTRESS", known=set().__contains__)
    assert roots_of("ADDRESS", known={"ACTOR"}.__contains__) == roots_of("ADDRESS")


def test_only_latin_letters_have_roots():
    assert roots_of("كتاب") == frozenset()
    assert roots_of("TO") == frozenset()  # a function word


def test_pairs_are_named_once_in_order():
    roots = [roots_of("GREY"), roots_of("CAT"), roots_of("GREYED"), roots_of("CATS")]
    assert [(i, j) for i, j, _ in shared_root_pairs(roots)] == [(0, 2), (1, 3)]
