"""Freeform layouts: every run is a listed word (so letters touch only at crossings)."""

import random

from csp_crossword.freeform import Freeform
from csp_crossword.lexicon import Lexicon
from csp_crossword.verify import verify_fill


def test_layout_is_connected_verified_and_within_bounds(shared_dict):
    words = [w.upper() for w in shared_dict("words.txt").read_text().split() if 3 <= len(w) <= 10]
    pick = random.Random(50).sample(words, 50)
    result = Freeform(pick, rows=15, cols=15).run(time_limit=0.5, seed=1)
    assert result.grid.rows == 15 and result.grid.cols == 15
    assert verify_fill(result.grid, result.cells, Lexicon.from_words(pick)) == []
    assert result.grid.stats().connected
    assert len(result.placed) + len(result.failed) == 50 and len(result.placed) >= 15
    assert result.isolated == []


def test_bangla_words_cross_on_grapheme_clusters():
    words = ["ক্ষমা", "মাটি", "টিকা", "কাজ"]
    result = Freeform(words).run(time_limit=0.3, seed=2)
    assert len(result.placed) >= 3
    assert verify_fill(result.grid, result.cells, Lexicon.from_words(words)) == []
    assert any(cell == "ক্ষ" for row in result.cells for cell in row)
