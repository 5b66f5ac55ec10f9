"""The constraint-graph cost benchmark (benchmarks/graph_cost.py): its rows, and the graph it times
is the one ``build_problem`` builds."""

from __future__ import annotations

import sys

import pytest
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.graph import constraint_graph
from csp_crossword.search.problem import build_problem
from csp_crossword.words.lexicon import Lexicon

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import graph_cost


def test_a_row_names_the_grid_and_both_shares():
    grid = parse_grid("...\n.#.\n...")
    row = graph_cost.measure("tiny", grid, Lexicon.from_words(["CAT", "COT", "TOT", "TAT"]), repeats=1)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[0] == "tiny" and cells[1:3] == ["4", "4"]
    assert cells[6].endswith("%") and cells[8].endswith("%")


def test_the_timed_graph_is_the_problems_graph():
    grid = parse_grid("...\n.#.\n...")
    problem = build_problem(grid, Lexicon.from_words(["CAT", "COT", "TOT", "TAT"]))
    alone = constraint_graph(grid)
    assert list(alone.nodes) == list(problem.graph.nodes)
    assert [(a, b, d["cell_id"]) for a, b, d in alone.edges(data=True)] == [
        (a, b, d["cell_id"]) for a, b, d in problem.graph.edges(data=True)
    ]


def test_the_25x25_pattern_is_drawn():
    grid = graph_cost.american_25()
    assert (grid.rows, grid.cols) == (25, 25) and len(grid.slots) > 150


@pytest.mark.shared
def test_the_largest_herald_grid_is_found(shared_dict):
    shared_dict("words.txt")  # skipped without the benchmark data
    assert graph_cost.largest_herald().stem.startswith("h23")
