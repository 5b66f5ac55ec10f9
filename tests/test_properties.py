"""Property tests: on tiny random grids and word lists every backend agrees with brute force."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_crossword.backends import get_backend, names
from csp_crossword.errors import InputError
from csp_crossword.grid import parse_grid
from csp_crossword.lexicon import Lexicon
from csp_crossword.problem import FillOptions, build_problem
from csp_crossword.result import Status
from csp_crossword.verify import verify_fill

from bruteforce import solutions

BACKENDS = [name for name in names() if get_backend(name).available()]


@st.composite
def puzzles(draw):
    height = draw(st.integers(2, 4))
    width = draw(st.integers(2, 4))
    cell = st.sampled_from(".....#A")
    rows = ["".join(draw(cell) for _ in range(width)) for _ in range(height)]
    words = draw(
        st.sets(st.text(alphabet="ABC", min_size=2, max_size=max(height, width)), min_size=1, max_size=24)
    )
    allow = draw(st.booleans())
    return rows, words, allow


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_backends_agree_with_brute_force(puzzle):
    rows, words, allow = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return  # no slot at all: rejected as bad input, covered by the grid tests
    exists = next(solutions(rows, words, allow), None) is not None
    lexicon = Lexicon.from_words(words)
    for backend in BACKENDS:
        problem = build_problem(grid, lexicon, FillOptions(allow_duplicates=allow))
        result = get_backend(backend)(time_limit=30).solve(problem)
        if exists:
            assert result.status == Status.FILLED, (backend, rows, words, allow)
            assert verify_fill(grid, result.cells, lexicon, allow_duplicates=allow) == []
        else:
            assert result.status == Status.UNSATISFIABLE, (backend, rows, words, allow)
