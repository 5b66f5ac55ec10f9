"""Symmetric freeform boards: the letter cells turn into themselves at 180 degrees, and the board
holds nearly as many words as a plain one. Each board is checked from its cells alone (the rules of
``test_freeform.check_layout``) and with the library's independent fill check."""

from __future__ import annotations

from collections import Counter

import pytest
from csp_crossword import api
from csp_crossword.layout.freeform import Board, BoardRules, Direction, Freeform, Placement
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from layout.test_freeform import CAP_SECONDS, check_layout

ANIMALS = [
    "ELEPHANT",
    "GIRAFFE",
    "ZEBRA",
    "LION",
    "TIGER",
    "MONKEY",
    "KANGAROO",
    "PENGUIN",
    "DOLPHIN",
    "WHALE",
    "OTTER",
    "BEAVER",
    "RABBIT",
    "SQUIRREL",
    "HEDGEHOG",
    "FOX",
    "WOLF",
    "BEAR",
    "MOOSE",
    "CAMEL",
    "PARROT",
    "EAGLE",
    "OWL",
    "TURTLE",
]
SCIENCE = [
    "ATOM",
    "MOLECULE",
    "ENERGY",
    "GRAVITY",
    "MAGNET",
    "CIRCUIT",
    "OXYGEN",
    "CARBON",
    "PLANET",
    "ORBIT",
    "COMET",
    "NEUTRON",
    "PROTON",
    "ELECTRON",
    "FOSSIL",
    "VOLCANO",
    "GLACIER",
    "CLIMATE",
    "PHOTON",
    "LASER",
    "ENZYME",
    "GENOME",
    "CELL",
    "PLASMA",
]
#: Words a symmetric board may place fewer than the plain board of the same list and seed: a
#: word of a length listed an odd number of times has no partner (the animals have four such
#: lengths, so at most 22 of 24 fit), and a partner must fit the letters at the rotated cells.
#: Measured in 2 s: animals 19 to 20 placed, science 23; plain places all 24. Under a loaded
#: machine's 1.5 s, animals 16 to 20.
SHORTFALL = 8


def letter_cells(cells):
    return {(r, c) for r, row in enumerate(cells) for c, v in enumerate(row) if v is not None}


def turned(cells):
    """The letter cells of ``cells`` turned 180 degrees about the board's centre."""
    height, width = len(cells), len(cells[0])
    return {(height - 1 - r, width - 1 - c) for r, c in letter_cells(cells)}


def test_turning_a_placement_keeps_its_direction_and_length():
    rules = BoardRules({"ABCDE": tuple("ABCDE"), "XYZ": tuple("XYZ")}, None, None, symmetric=True)
    bounds = (0, 0, 0, 4)  # ABCDE across from (0, 0): the centre is (0, 2)
    assert rules.image(bounds, "ABCDE", 0, 0, Direction.ACROSS) == (0, 0)  # its own image
    assert rules.image(bounds, "XYZ", -1, 1, Direction.DOWN) == (-1, 3)
    assert rules.image(bounds, "XYZ", 1, 3, Direction.ACROSS) == (-1, -1)
    # a word below the centre row makes the board grow as far above it
    assert rules.height(bounds, 1, 3) == 7 and rules.width(bounds, 3, 6) == 9


@pytest.mark.parametrize("words", [ANIMALS, SCIENCE], ids=["animals", "science"])
def test_symmetric_boards_place_nearly_as_many_words_as_plain_ones(words):
    for seed in (1, 2):
        plain = Freeform(words).run(time_limit=CAP_SECONDS, budget_seconds=1.0, seed=seed, target=len(words))
        symmetric = Freeform(words, symmetric=True).run(time_limit=CAP_SECONDS, budget_seconds=1.5, seed=seed)
        check_layout(symmetric, words)
        assert turned(symmetric.cells) == letter_cells(symmetric.cells)
        assert len(symmetric.placed) >= len(plain.placed) - SHORTFALL, (seed, symmetric.placed)
        assert symmetric.symmetric


def test_symmetric_boards_of_the_api_are_verified_and_turn_into_themselves():
    # the search stops at the first board of that many words: the seed decides it, not the load
    result = api.freeform(SCIENCE, symmetric=True, target=len(SCIENCE) - SHORTFALL, time_limit=CAP_SECONDS, seed=4)
    assert turned(result.cells) == letter_cells(result.cells)
    listed = Lexicon.from_words(SCIENCE)
    assert verify_fill(result.grid, result.cells, listed, exact_uses=Counter(result.placed)) == []
    assert len(result.placed) >= len(SCIENCE) - SHORTFALL  # a pair may take it one word past


@pytest.mark.parametrize(("rows", "cols"), [(15, 15), (15, 16), (16, 15)])
def test_fixed_size_symmetric_boards_have_even_margins(rows, cols):
    result = Freeform(SCIENCE, rows=rows, cols=cols, symmetric=True).run(
        time_limit=CAP_SECONDS, budget_seconds=0.4, seed=2
    )
    check_layout(result, SCIENCE)
    assert len(result.cells) == rows and len(result.cells[0]) == cols
    assert turned(result.cells) == letter_cells(result.cells)  # the whole board, margins and all


def test_a_rotated_partner_must_fit_the_letters_at_the_rotated_cells():
    # HORSE across is its own image. OAK down from its O turns into a 3-letter down word ending at
    # its S: GAS. EMU down from its E would turn into one ending at its H: there is none.
    words = ["HORSE", "OAK", "GAS", "EMU"]
    engine = Freeform(words, symmetric=True)
    board = Board()
    engine.rules.place(board, Placement("HORSE", 0, 0, Direction.ACROSS, 0))
    assert engine.rules.image(board.bounds(), "OAK", 0, 1, Direction.DOWN) == (-2, 3)
    result = engine.run(time_limit=CAP_SECONDS, budget_seconds=0.3, seed=1)
    check_layout(result, words)
    assert turned(result.cells) == letter_cells(result.cells)
    assert sorted(result.placed) == ["GAS", "HORSE", "OAK"] and result.failed == ["EMU"]


def test_a_fixed_symmetric_board_needs_an_odd_side():
    from csp_crossword import api
    from csp_crossword.core.errors import InputError

    words = ["lion", "tiger", "zebra", "camel", "horse", "mouse", "eagle", "shark"]
    with pytest.raises(InputError, match="odd number"):
        api.freeform(words, rows=12, cols=12, symmetric=True, time_limit=1)
    board = api.freeform(words, rows=13, cols=12, symmetric=True, time_limit=1)
    rows, cols = len(board.cells), len(board.cells[0])
    assert all(
        bool(board.cells[r][c]) == bool(board.cells[rows - 1 - r][cols - 1 - c])
        for r in range(rows)
        for c in range(cols)
    )


def test_max_side_bounds_a_board_without_a_size():
    import random

    from csp_crossword import api
    from csp_crossword.words.builtin import builtin_lexicon

    words = random.Random(3).sample(sorted(w for w in builtin_lexicon().scores if 4 <= len(w) <= 12), 60)
    for symmetric in (False, True):
        board = api.freeform(words, max_side=25, symmetric=symmetric, time_limit=2, seed=1)
        assert len(board.cells) <= 25 and len(board.cells[0]) <= 25 and board.placed


def symmetric_on_board(cells) -> bool:
    """Whether the letter cells turn into themselves about the centre of the whole board."""
    rows, cols = len(cells), len(cells[0])
    letters = {(r, c) for r in range(rows) for c in range(cols) if cells[r][c]}
    return all((rows - 1 - r, cols - 1 - c) in letters for r, c in letters)


@pytest.mark.parametrize(
    "words, size",
    [
        (["TONI", "BOTANISTS", "HASSLING", "CONTENDERS", "SHAKEDOWNS"], (7, 7)),
        (["CROUCHED", "SUREFIRE", "VASSAL", "EFFICIENCIES", "FREEWAYS"], (15, 15)),
        (ANIMALS, (9, 12)),
        (ANIMALS, (13, 13)),
    ],
)
def test_a_symmetric_board_of_a_given_size_is_symmetric_about_its_centre(words, size):
    for seed in range(3):
        made = api.freeform(words, rows=size[0], cols=size[1], symmetric=True, seed=seed, time_limit=1)
        assert (len(made.cells), len(made.cells[0])) == size
        assert symmetric_on_board(made.cells), (seed, made.placed)
