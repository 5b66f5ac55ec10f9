from csp_crossword.core.grid import parse_grid
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

LEX = Lexicon.from_words(["ABC", "DEF", "ADG", "BEH", "CFI", "GHI"])
GRID = parse_grid("...\n...\n...")
GOOD = (("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I"))


def test_valid_fill_has_no_problem():
    assert verify_fill(GRID, GOOD, LEX) == []


def test_word_not_in_list():
    bad = (("A", "B", "C"), ("D", "E", "F"), ("G", "H", "X"))
    problems = verify_fill(GRID, bad, LEX)
    assert any("GHX is not in the word list" in p for p in problems)
    assert any("CFX" in p for p in problems)


def test_empty_cell_and_shape():
    holey = (("A", "B", "C"), ("D", "", "F"), ("G", "H", "I"))
    assert any("not every cell" in p for p in verify_fill(GRID, holey, LEX))
    assert verify_fill(GRID, GOOD[:2], LEX) == ["the fill is not 3x3"]


def test_prefilled_glyph_and_blocks_kept():
    grid = parse_grid("A..\n...\n..#")
    lex = Lexicon.from_words(["AB", "ABC", "DEF", "ADG", "BEH", "CF", "GH"])
    fill = (("A", "B", "C"), ("D", "E", "F"), ("G", "H", None))
    assert verify_fill(grid, fill, lex) == []
    changed = (("B", "B", "C"), ("D", "E", "F"), ("G", "H", None))
    assert any("pre-filled A became B" in p for p in verify_fill(grid, changed, lex))
    unblocked = (("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I"))
    assert any("block pattern" in p for p in verify_fill(grid, unblocked, lex))


def test_repeated_entry_unless_allowed():
    grid = parse_grid("..\n..")
    lex = Lexicon.from_words(["AA"])
    fill = (("A", "A"), ("A", "A"))
    assert any("used 4 times" in p for p in verify_fill(grid, fill, lex))
    assert verify_fill(grid, fill, lex, allow_duplicates=True) == []


def test_extra_words_count_as_words():
    grid = parse_grid("..\n..")
    lex = Lexicon.from_words(["AB", "CD", "AC"])
    fill = (("A", "B"), ("C", "D"))
    assert any("BD" in p for p in verify_fill(grid, fill, lex))
    assert verify_fill(grid, fill, lex, extra_words={"BD"}) == []
