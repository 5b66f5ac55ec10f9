"""The improvement pass reports its progress from inside each neighbourhood's search (with the
shared-run rule one neighbourhood takes seconds of Python over a 15x15), and a fill's progress
names it."""

from __future__ import annotations

import csp_crossword as cc
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import build_problem
from csp_crossword.strategies.improvement import improve_fill
from csp_crossword.words.lexicon import Lexicon

RING = "...\n.#.\n..."
WORDS = {"CAT": 80, "COD": 80, "TAN": 80, "DEN": 80, "PIT": 10, "POD": 10, "TEN": 10, "DIN": 10}


def weak_start(problem) -> list[int]:
    weak = {"1A": "PIT", "1D": "POD", "2D": "TEN", "3A": "DIN"}
    return [problem.network.indexes[s].position[weak[slot.id]] for s, slot in enumerate(problem.network.slots)]


def test_the_python_neighbourhood_search_reports_every_node():
    problem = build_problem(parse_grid(RING), Lexicon.from_words(list(WORDS), scores=WORDS))
    heard: list[int] = []
    outcome = improve_fill(problem, weak_start(problem), None, native=False, progress=heard.append)
    assert outcome.nodes > 0 and heard and heard == sorted(heard) and heard[-1] == outcome.nodes
    # within a neighbourhood, not only after it: every node the run made was heard
    assert set(range(1, outcome.nodes + 1)) <= set(heard)


def test_a_fill_with_the_shared_run_rule_reports_its_improvement():
    phases: list[str] = []
    result = cc.fill(RING, WORDS, no_shared_substring=2, progress=lambda stats: phases.append(stats.phase))
    assert result.status.has_fill and "improve" in phases
