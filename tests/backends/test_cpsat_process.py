"""CP-SAT in a child process (``isolated``): the same answers as in this process, and a stop
that ends the job at once."""

from __future__ import annotations

import threading
import time

import pytest
from csp_crossword.backends import get_backend
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from conftest import GRIDS

pytestmark = pytest.mark.skipif(not get_backend("cpsat").available(), reason="OR-Tools is not installed")


def cpsat(**options):
    return get_backend("cpsat")(**options)


def test_isolated_fill_is_a_verified_fill(quarter_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h0504.txt")
    problem = build_problem(grid, quarter_lexicon)
    result = cpsat(isolated=True).solve(problem, time_limit=60)
    assert result.status == Status.FILLED
    assert verify_fill(grid, result.cells, quarter_lexicon) == []


def test_isolated_proof_and_optimum_match_this_process():
    lexicon = Lexicon.from_words(["CAT", "DOG", "EEL", "CDE", "AOE", "TGM", "ACE"])
    unsat = build_problem(parse_grid("...\n...\n..."), lexicon)
    assert cpsat(isolated=True).solve(unsat).status == Status.UNSATISFIABLE
    scored = Lexicon.from_words(["AB", "CD", "AC", "BD", "AX", "XD", "CX"], scores={"AB": 90, "CD": 80, "AX": 10})
    problem = build_problem(parse_grid("..\n.."), scored)
    here = cpsat(isolated=False, optimize=True).solve(problem)
    there = cpsat(isolated=True, optimize=True).solve(problem)
    assert here.status == there.status == Status.OPTIMAL
    assert there.objective == here.objective and there.bound == here.bound
    assert there.cells == here.cells


def test_a_stop_ends_an_isolated_solve_at_once(words_lexicon):
    # h2110 with words.txt: CP-SAT alone took 9-28 s to heed a stop while it loaded this model
    grid = read_grid(GRIDS / "vanbeek" / "h2110.txt")
    problem = build_problem(grid, words_lexicon)
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    started = time.monotonic()
    result = cpsat(isolated=True, workers=1).solve(problem, stop=stop)
    assert result.status == Status.INTERRUPTED
    assert time.monotonic() - started < 3.0
