"""Property tests: on tiny random grids and word lists every backend agrees with brute force."""

from __future__ import annotations

from csp_crossword.backends import get_backend, names
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import runs, solutions

BACKENDS = [name for name in names() if get_backend(name).available()]


@st.composite
def puzzles(draw):
    height = draw(st.integers(2, 4))
    width = draw(st.integers(2, 4))
    cell = st.sampled_from(".....#A")
    rows = ["".join(draw(cell) for _ in range(width)) for _ in range(height)]
    words = draw(st.sets(st.text(alphabet="ABC", min_size=2, max_size=max(height, width)), min_size=1, max_size=24))
    allow = draw(st.booleans())
    shared_run = draw(st.sampled_from([None, None, 2, 3]))
    return rows, words, allow, shared_run


def check_against_brute_force(puzzle, solvers):
    """Every solver (label, Backend instance) fills when brute force finds a fill (checked by
    the verifier) and proves unsatisfiability when it finds none."""
    rows, words, allow, shared_run = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return  # no slot at all: rejected as bad input, covered by the grid tests
    exists = next(solutions(rows, words, allow, shared_run), None) is not None
    lexicon = Lexicon.from_words(words)
    options = FillOptions(allow_duplicates=allow, no_shared_substring=shared_run)
    for label, solver in solvers:
        result = solver.solve(build_problem(grid, lexicon, options), time_limit=30)
        if exists:
            assert result.status == Status.FILLED, (label, rows, words, allow, shared_run)
            problems = verify_fill(grid, result.cells, lexicon, allow_duplicates=allow, no_shared_substring=shared_run)
            assert problems == []
        else:
            assert result.status == Status.UNSATISFIABLE, (label, rows, words, allow, shared_run)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_backends_agree_with_brute_force(puzzle):
    check_against_brute_force(puzzle, [(name, get_backend(name)()) for name in BACKENDS])


@st.composite
def fill_in_puzzles(draw):
    """A fill-in puzzle (``--exact``): per slot length, as many words as slots of that length,
    drawn from a small alphabet so that words repeat, and the grid's given letters."""
    height = draw(st.integers(2, 4))
    width = draw(st.integers(2, 4))
    rows = ["".join(draw(st.sampled_from("......#A")) for _ in range(width)) for _ in range(height)]
    words = []
    for length in sorted({len(run) for run in runs(rows)}):
        slots = sum(1 for run in runs(rows) if len(run) == length)
        words += draw(
            st.lists(st.text(alphabet="AB", min_size=length, max_size=length), min_size=slots, max_size=slots)
        )
    return rows, words


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fill_in_puzzles())
def test_backends_agree_with_brute_force_on_use_limits(puzzle):
    """A word listed n times may fill n slots, and no more: every backend fills exactly when
    brute force finds a fill, and its fill uses no word more often than listed."""
    rows, words = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return
    uses = {word: words.count(word) for word in words}
    exists = next(solutions(rows, set(words), uses=uses), None) is not None
    lexicon = Lexicon.from_words(words)
    for name in BACKENDS:
        result = get_backend(name)().solve(build_problem(grid, lexicon, FillOptions(exact=True)), time_limit=30)
        if exists:
            assert result.status == Status.FILLED, (name, rows, words)
            assert verify_fill(grid, result.cells, lexicon, exact_uses=uses) == []
        else:
            assert result.status == Status.UNSATISFIABLE, (name, rows, words)


#: ``ac`` variants. The first two never grow their failure cutoff: each run ends after one
#: failure, so only the learned no-goods carry the search forward; a wrong no-good shows as a
#: wrong "unsatisfiable", a missing one as a timeout. Letter branching learns nothing, so it keeps
#: growing cutoffs (Luby here).
AC_VARIANTS = [
    {"restart_policy": "geometric", "restart_base": 1, "restart_growth": 1.0},
    {
        "restart_policy": "geometric",
        "restart_base": 1,
        "restart_growth": 1.0,
        "weight_decay": 0.8,
        "value_order": "window",
    },
    {"branching": "letter", "restart_policy": "luby", "restart_base": 1},
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_ac_variants_are_complete_and_sound(puzzle):
    check_against_brute_force(puzzle, [(options, get_backend("ac")(**options)) for options in AC_VARIANTS])
