"""A fill whose weak spots were proved keeps its weak entries where the grid forces them."""

from __future__ import annotations

from dataclasses import replace

from csp_crossword.backends.ac import ACBackend
from csp_crossword.backends.base import fill_from_words
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import FillResult, Status, WeakSpots, WeakVerdict
from csp_crossword.search.problem import build_problem
from csp_crossword.strategies.confine import confine_weak_entries
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

#: A 3x3 square: 1A, 4A, 5A across, 1D, 2D, 3D down. TED is the only word that ends 3D, so some
#: entry under 30 is forced there; BAT and BOW are weak entries no grid forces (CAT and COW fit).
SQUARE = "...\n...\n..."
WORDS = {"CAT": 60, "BAT": 20, "ORE": 60, "WED": 60, "COW": 60, "BOW": 20, "ARE": 60, "TED": 20}


def fill_of(problem, answers: dict[str, str], core: list[str]) -> FillResult:
    words = {s: problem.network.indexes[s].position[answers[slot.id]] for s, slot in enumerate(problem.slots)}
    cells, entries = fill_from_words(problem, words)
    weak = [e.id for e in entries if (e.score or 0) < 30]
    spots = WeakSpots(30, weak, verdict=WeakVerdict.UNFILLABLE, core=core, minimal=True)
    return FillResult(Status.FILLED, "ac", cells=cells, entries=entries, weak_spots=spots)


def test_the_scattered_weak_entries_move_to_the_core():
    problem = build_problem(parse_grid(SQUARE), Lexicon.from_words(list(WORDS), scores=WORDS))
    scattered = fill_of(problem, {"1A": "BAT", "4A": "ORE", "5A": "WED", "1D": "BOW", "2D": "ARE", "3D": "TED"}, ["3D"])
    assert sorted(scattered.weak_spots.entries) == ["1A", "1D", "3D"]
    confined = confine_weak_entries(problem, scattered, ACBackend(seed=0))
    assert {e.id: e.answer for e in confined.entries} == {
        "1A": "CAT", "4A": "ORE", "5A": "WED", "1D": "COW", "2D": "ARE", "3D": "TED"
    }  # fmt: skip
    assert confined.weak_spots.entries == ["3D"] and confined.weak_spots.core == ["3D"]
    assert verify_fill(problem.grid, confined.cells, Lexicon.from_words(list(WORDS), scores=WORDS)) == []


def test_a_fill_without_a_proved_core_is_left_as_it_is():
    problem = build_problem(parse_grid(SQUARE), Lexicon.from_words(list(WORDS), scores=WORDS))
    scattered = fill_of(problem, {"1A": "BAT", "4A": "ORE", "5A": "WED", "1D": "BOW", "2D": "ARE", "3D": "TED"}, ["3D"])
    unknown = replace(scattered, weak_spots=replace(scattered.weak_spots, verdict=WeakVerdict.UNKNOWN, core=None))
    assert confine_weak_entries(problem, unknown, ACBackend(seed=0)) is unknown


def test_weak_entries_already_in_the_core_are_left_as_they_are():
    problem = build_problem(parse_grid(SQUARE), Lexicon.from_words(list(WORDS), scores=WORDS))
    best = fill_of(problem, {"1A": "CAT", "4A": "ORE", "5A": "WED", "1D": "COW", "2D": "ARE", "3D": "TED"}, ["3D"])
    assert confine_weak_entries(problem, best, ACBackend(seed=0)) is best
