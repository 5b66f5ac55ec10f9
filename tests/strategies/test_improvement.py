"""The improvement pass: re-filled neighbourhoods raise the total score, never break the fill."""

import time
from pathlib import Path

import csp_crossword as cc
import pytest
from csp_crossword.backends import get_backend
from csp_crossword.backends.base import fill_from_words
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.strategies.improvement import improve_fill
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.builtin import builtin_lexicon
from csp_crossword.words.lexicon import Lexicon

# A ring of four slots (1A, 3A across; 1D, 2D down) crossing at the four corners.
RING = "...\n.#.\n..."
STRONG = {"CAT": 80, "COD": 80, "TAN": 80, "DEN": 80}
WEAK = {"PIT": 10, "POD": 10, "TEN": 10, "DIN": 10}
GRIDS = Path(__file__).resolve().parents[2] / "grids"


def ids_of(problem, answers: dict[str, str]) -> list[int]:
    network = problem.network
    return [network.indexes[s].position[answers[slot.id]] for s, slot in enumerate(network.slots)]


def total(problem, words: list[int]) -> int:
    return sum(problem.network.indexes[s].scores[w] for s, w in enumerate(words))


def test_a_weak_fill_becomes_the_best_one():
    words = STRONG | WEAK
    problem = build_problem(parse_grid(RING), Lexicon.from_words(list(words), scores=words))
    start = ids_of(problem, {"1A": "PIT", "1D": "POD", "2D": "TEN", "3A": "DIN"})
    outcome = improve_fill(problem, start, time.monotonic() + 5)
    assert answers_of(problem, outcome.words) == {"1A": "CAT", "1D": "COD", "2D": "TAN", "3A": "DEN"}
    assert outcome.replaced == 4


def test_a_best_fill_is_left_alone():
    words = STRONG | WEAK
    problem = build_problem(parse_grid(RING), Lexicon.from_words(list(words), scores=words))
    start = ids_of(problem, {"1A": "CAT", "1D": "COD", "2D": "TAN", "3A": "DEN"})
    outcome = improve_fill(problem, start, time.monotonic() + 5)
    assert outcome.words == start and outcome.replaced == 0


def answers_of(problem, words: list[int]) -> dict[str, str]:
    indexes = problem.network.indexes
    return {slot.id: indexes[s].words[w] for s, (slot, w) in enumerate(zip(problem.slots, words, strict=True))}


def test_given_letters_hold():
    # CAT/COD would score more, but the given P keeps PIT and POD; the far corner still improves
    words = STRONG | WEAK
    problem = build_problem(parse_grid("P..\n.#.\n..."), Lexicon.from_words(list(words), scores=words))
    start = ids_of(problem, {"1A": "PIT", "1D": "POD", "2D": "TEN", "3A": "DIN"})
    outcome = improve_fill(problem, start, time.monotonic() + 5)
    assert answers_of(problem, outcome.words) == {"1A": "PIT", "1D": "POD", "2D": "TAN", "3A": "DEN"}


def test_the_repeat_rule_holds():
    # NAN and NUN everywhere would score most; without repeats no fill beats the one given
    words = {"NAN": 99, "NUN": 99, "NON": 10, "NIN": 10}
    problem = build_problem(parse_grid(RING), Lexicon.from_words(list(words), scores=words))
    start = ids_of(problem, {"1A": "NON", "1D": "NUN", "2D": "NIN", "3A": "NAN"})
    outcome = improve_fill(problem, start, time.monotonic() + 5)
    assert outcome.replaced == 0 and sorted(answers_of(problem, outcome.words).values()) == sorted(words)
    repeats = build_problem(
        parse_grid(RING), Lexicon.from_words(list(words), scores=words), FillOptions(allow_duplicates=True)
    )
    outcome = improve_fill(repeats, start, time.monotonic() + 5)
    assert total(repeats, outcome.words) == 4 * 99


@pytest.mark.parametrize("seed", [0, 1])
def test_improving_a_real_fill_keeps_it_valid_and_its_weakest_entry(seed):
    grid_text = (GRIDS / "american15" / "p15-alpha-bits.txt").read_text()
    plain = cc.fill(grid_text, seed=seed, strategy="plain", time_limit=20)
    assert plain.status == cc.Status.FILLED
    problem = build_problem(parse_grid(grid_text), builtin_lexicon("en"), FillOptions())
    start = ids_of(problem, {entry.id: entry.answer for entry in plain.entries})
    outcome = improve_fill(problem, start, time.monotonic() + 1.0)
    assert total(problem, outcome.words) >= total(problem, start)
    scores = problem.network.indexes
    assert min(scores[s].scores[w] for s, w in enumerate(outcome.words)) >= min(
        scores[s].scores[w] for s, w in enumerate(start)
    )
    cells, _ = fill_from_words(problem, dict(enumerate(outcome.words)))
    assert verify_fill(problem.grid, cells, problem.lexicon) == []


def test_fillability_first_switches_only_the_default_value_order():
    ac = get_backend("ac")
    assert ac().fillability_first().options.value_order == "lookahead"
    chosen = ac(value_order="window")
    assert chosen.fillability_first() is chosen
    assert get_backend("auto")().fillability_first().options.value_order == "lookahead"
    cpsat = get_backend("cpsat")
    if cpsat.available():
        backend = cpsat()
        assert backend.fillability_first() is backend  # no value order to change


@pytest.mark.parametrize(
    "name,seed", [("american/am15-01.txt", 0), ("american/am15-02.txt", 4), ("demo/blocks-7x7.txt", 1)]
)
def test_the_compiled_neighbourhood_search_matches_the_python_one(name, seed):
    """The compiled branch and bound is the reference's search: same nodes, same re-fills."""
    from csp_crossword.api.jobs import prepare
    from csp_crossword.core.grid import read_grid
    from csp_crossword.search.propagation_kernel import kernel_module

    if kernel_module() is None:
        pytest.skip("the compiled extension was not built")
    problem = prepare(read_grid(GRIDS / name), None).problem
    result = get_backend("ac")(seed=seed).solve(problem, time_limit=60)
    assert result.status == cc.Status.FILLED
    start = ids_of(problem, {entry.id: entry.answer for entry in result.entries})
    fast = improve_fill(problem, start, None, node_budget=1500)
    slow = improve_fill(problem, start, None, node_budget=1500, native=False)
    assert (fast.words, fast.nodes, fast.replaced) == (slow.words, slow.nodes, slow.replaced)
    assert fast.replaced > 0 and total(problem, fast.words) > total(problem, start)
    cells, _ = fill_from_words(problem, dict(enumerate(fast.words)))
    assert verify_fill(problem.grid, cells, problem.lexicon) == []
