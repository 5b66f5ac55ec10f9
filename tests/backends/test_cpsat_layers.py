"""CP-SAT's layered model for fills and proofs (``backends/cpsat_layers.py``): the automaton of
a slot's words accepts exactly them, fills and proofs agree with a brute force, and the
no-repeat rule, by pairs of slots or by words, holds in every answer."""

from __future__ import annotations

import random

import numpy as np
import pytest
from csp_crossword.backends import get_backend
from csp_crossword.backends.cpsat import _parameters, _solver
from csp_crossword.backends.cpsat_layers import (
    LayeredModel,
    layered_applies,
    word_automaton,
)
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from bruteforce import runs, solutions

pytestmark = pytest.mark.skipif(not get_backend("cpsat").available(), reason="OR-Tools is not installed")


def accepted(layers: list) -> set[tuple[int, ...]]:
    """Every row the layered automaton accepts, walked path by path."""
    paths: dict[int, set[tuple[int, ...]]] = {0: {()}}
    for layer in layers:
        following: dict[int, set[tuple[int, ...]]] = {}
        for state, label, target in layer.tolist():
            for path in paths.get(state, ()):
                following.setdefault(target, set()).add((*path, label))
        paths = following
    return set().union(*paths.values()) if paths else set()


def right_languages(rows: set[tuple[int, ...]], length: int) -> list[int]:
    """Per position d, how many distinct suffix sets the prefixes of length d have: the state
    count of the minimal automaton there, counted from the words alone."""
    counts = []
    for d in range(length):
        suffixes: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        for row in rows:
            suffixes.setdefault(row[:d], set()).add(row[d:])
        counts.append(len({frozenset(s) for s in suffixes.values()}))
    return counts


@pytest.mark.parametrize("seed", range(30))
def test_the_automaton_accepts_exactly_the_words_with_the_fewest_states(seed):
    chance = random.Random(seed)
    length = chance.randint(1, 5)
    alphabet = chance.randint(1, 4)
    rows = {tuple(chance.randrange(alphabet) for _ in range(length)) for _ in range(chance.randint(1, 40))}
    layers = word_automaton(np.array(sorted(rows), dtype=np.int64).reshape(len(rows), length))
    assert accepted(layers) == rows
    states = [len({state for state, _label, _target in layer.tolist()}) for layer in layers]
    assert states == right_languages(rows, length)


def test_no_word_no_transition():
    layers = word_automaton(np.zeros((0, 3), dtype=np.int64))
    assert [layer.shape for layer in layers] == [(0, 3)] * 3


GRIDS = [
    ["...", "...", "..."],
    ["...#", "....", "#..."],
    ["....", ".#..", "...."],
    ["..#", "...", "#.."],
]


@pytest.mark.parametrize("seed", range(12))
def test_fills_and_proofs_agree_with_brute_force(seed):
    chance = random.Random(seed)
    rows = GRIDS[seed % len(GRIDS)]
    pool = ["CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "NAE", "ETA", "TAN", "TAE"]
    pool += ["CANE", "ACNE", "NEAT", "ANTE", "ETNA", "TACT", "CENT", "CATE", "AT", "TA", "NE", "EN", "AN"]
    words = set(chance.sample(pool, chance.randint(8, len(pool))))
    lexicon = Lexicon.from_words(sorted(words))
    problem = build_problem(parse_grid("\n".join(rows)), lexicon)
    assert layered_applies(problem)
    expected = next(solutions(rows, words), None)
    result = get_backend("cpsat")(seed=seed).solve(problem, time_limit=60)
    if expected is None:
        assert result.status == Status.UNSATISFIABLE
    else:
        assert result.status == Status.FILLED
        assert verify_fill(problem.grid, result.cells, lexicon) == []


@pytest.mark.parametrize("rule", ["pairs", "words"])
@pytest.mark.parametrize("seed", range(16))
def test_the_no_repeat_rule_agrees_with_brute_force(seed, rule, monkeypatch):
    from csp_crossword.backends import cpsat_layers

    # words over three letters, so that many fills would repeat a word: the model holds the rule
    # for every length, by pairs of slots or by words, and whether it has a fill must match the
    # brute force's, which forbids repeats itself
    sizes = (0, 1) if rule == "pairs" else (1, 0)  # (by pairs, by words): the smaller is taken
    monkeypatch.setattr(cpsat_layers, "rule_sizes", lambda ids, labels: sizes)
    chance = random.Random(1000 + seed)
    rows = GRIDS[seed % len(GRIDS)]
    words = {"".join(chance.choice("ABC") for _ in range(chance.randint(2, 4))) for _ in range(chance.randint(6, 30))}
    lexicon = Lexicon.from_words(sorted(words))
    problem = build_problem(parse_grid("\n".join(rows)), lexicon)
    model = LayeredModel(problem)
    model.add_search_order()
    solver = _solver(_parameters(60, None, seed, fill_search=True))
    status = solver.status_name(solver.solve(model.model))
    expected = next(solutions(rows, words), None)
    if expected is None:
        assert status == "INFEASIBLE"
    else:
        assert status in ("OPTIMAL", "FEASIBLE")
        choice = model.words(solver.value)
        fill = {problem.network.slots[s].id: problem.network.indexes[s].words[w] for s, w in choice.items()}
        assert len(set(fill.values())) == len(fill) == len(runs(rows))


def test_the_rule_is_by_pairs_for_a_few_slots_and_by_words_for_hundreds():
    from csp_crossword.backends.cpsat_layers import rule_sizes

    rng = np.random.default_rng(0)
    words = np.arange(2000, dtype=np.int64)  # every slot can take every word
    labels = rng.integers(0, 26, size=(2000, 4))
    few = rule_sizes([words] * 10, [labels] * 10)
    many = rule_sizes([words] * 400, [labels] * 400)
    assert few[0] < few[1]  # 45 pairs x 4 positions x 26 glyphs against 10 x 2,000 words
    assert many[0] > many[1]  # 79,800 pairs against 400 x 2,000 words


def test_a_square_whose_every_fill_repeats_is_proved_unfillable():
    # the only fills of this square read the same across and down: every one repeats its words
    words = {"BIT", "ICE", "TEN", "BAT", "ARE", "TEA"}
    lexicon = Lexicon.from_words(sorted(words))
    rows = ["...", "...", "..."]
    problem = build_problem(parse_grid("\n".join(rows)), lexicon)
    assert next(solutions(rows, words), None) is None
    assert next(solutions(rows, words, allow_duplicates=True), None) is not None
    result = get_backend("cpsat")().solve(problem, time_limit=60)
    assert result.status == Status.UNSATISFIABLE


def test_repeats_allowed_need_no_rule():
    words = {"BIT", "ICE", "TEN"}
    lexicon = Lexicon.from_words(sorted(words))
    problem = build_problem(parse_grid("...\n...\n..."), lexicon, FillOptions(allow_duplicates=True))
    result = get_backend("cpsat")().solve(problem, time_limit=60)
    assert result.status == Status.FILLED
    assert verify_fill(problem.grid, result.cells, lexicon, allow_duplicates=True) == []


def test_rules_over_whole_words_keep_the_word_tables(monkeypatch):
    from csp_crossword.backends import cpsat

    words = {"CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "ETA"}
    lexicon = Lexicon.from_words(sorted(words))
    grid = parse_grid("...\n...\n...")
    assert not layered_applies(build_problem(grid, lexicon, FillOptions(no_shared_substring=2)))
    assert not layered_applies(build_problem(parse_grid("...#...\n#######\n...#..."), lexicon))  # no crossing
    plain = build_problem(grid, lexicon)
    assert layered_applies(plain)
    monkeypatch.setattr(cpsat, "CpSatModel", None)  # a plain fill builds no word table
    result = get_backend("cpsat")().solve(plain, time_limit=60)
    if next(solutions(["...", "...", "..."], words), None) is None:
        assert result.status == Status.UNSATISFIABLE
    else:
        assert result.status == Status.FILLED and verify_fill(grid, result.cells, lexicon) == []
