"""The compiled core's Python interface refuses misuse with an exception, never a crash."""

from __future__ import annotations

import numpy as np
import pytest
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.search.propagation_kernel import kernel_module
from csp_crossword.words.lexicon import Lexicon

pytestmark = pytest.mark.skipif(kernel_module() is None, reason="the compiled extension was not built")

EXHAUSTED, FILLED = 1, 0


def _packed_problem():
    # no fill: the four words cannot make a 3x3 square (found after a short search)
    problem = build_problem(
        parse_grid("...\n...\n..."),
        Lexicon.from_words(["AAC", "ACC", "BCB", "CBA"]),
        FillOptions(allow_duplicates=True),
    )
    return problem, problem.network.packed()


def test_a_search_that_ended_says_so_again_instead_of_running_on():
    problem, packed = _packed_problem()
    if problem.unsatisfiable:
        pytest.skip("decided at the root")
    core = packed.search(problem.root_state(), restart_base=1e9)
    first = core.run(float("inf"), float("inf"), -1)
    assert first == EXHAUSTED
    nodes = core.stats()[0]
    assert core.run(float("inf"), float("inf"), -1) == EXHAUSTED
    assert core.stats()[0] == nodes  # nothing more was searched


def test_an_uninitialised_search_refuses_every_call():
    search_type = kernel_module().Search
    core = search_type.__new__(search_type)
    with pytest.raises(RuntimeError):
        core.improve(np.zeros(1, dtype=np.uint64), np.array([0], dtype=np.int64), -1, 10, 0, -1, 1e18)
    with pytest.raises(RuntimeError):
        core.run(0.0, 0.0, -1)
    with pytest.raises(RuntimeError):
        core.stats()


def test_a_search_runs_or_improves_not_both():
    problem, packed = _packed_problem()
    if problem.unsatisfiable:
        pytest.skip("decided at the root")
    state = problem.root_state()
    core = packed.search(state)
    core.run(float("inf"), float("inf"), 1)
    with pytest.raises(RuntimeError):
        core.improve(packed.sync(state), np.array([0], dtype=np.int64), -1, 10, 0, -1, 1e18)


def test_arrays_that_do_not_match_the_problem_are_refused():
    problem, packed = _packed_problem()
    state = problem.root_state()
    arrays = list(packed.structure)
    with pytest.raises(ValueError):  # settled shorter than the slots
        kernel_module().Search(
            packed.sync(state),
            np.array(state.masks, dtype=np.uint64),
            np.zeros(1, dtype=np.uint8),
            *arrays,
            packed.scores,
            packed.score_offsets,
            packed.longest,
            packed.glyph_count,
            True,
            0,
            True,
            128.0,
            1.5,
            True,
            -1,
            1.0,
            1.0,
            0,
            False,
        )
    n = len(state.domains)
    with pytest.raises(ValueError):  # a changed slot out of range
        kernel_module().propagate(
            packed.sync(state),
            np.array(state.masks, dtype=np.uint64),
            np.array(state.settled, dtype=np.uint8),
            np.zeros(n, dtype=np.uint8),
            np.array([n + 5], dtype=np.int64),
            *arrays,
            packed.longest,
            packed.glyph_count,
            True,
        )
    with pytest.raises(TypeError):  # floats where integers belong
        kernel_module().propagate(
            packed.sync(state),
            np.array(state.masks, dtype=np.uint64),
            np.array(state.settled, dtype=np.uint8),
            np.zeros(n, dtype=np.uint8),
            np.array([0.0]),
            *arrays,
            packed.longest,
            packed.glyph_count,
            True,
        )
