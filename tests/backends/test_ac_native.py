"""The compiled ``ac`` search against the Python reference search it mirrors.

Both make the same decisions in the same order — variable choice, value order with its noise,
restarts, no-goods — so on any problem they must agree on the outcome, on every counter and on
the fill; every fill is also checked by the independent verifier.
"""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from csp_crossword.backends.ac import ACBackend
from csp_crossword.backends.ac_native import native_network
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.search.propagation_kernel import JIT_VARIABLE, kernel_module
from csp_crossword.verify import verify_fill
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.wordlists import load_word_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GRIDS, STAND_IN

pytestmark = pytest.mark.skipif(kernel_module() is None, reason="the compiled extension was not built")


@pytest.fixture(autouse=True)
def always_compiled(monkeypatch):
    """Small problems start in Python (ac_native.SMALL_PROBLEM_WORDS); here the compiled core
    runs every search, so the comparisons compare the two cores."""
    import csp_crossword.backends.ac_native as native

    monkeypatch.setattr(native, "SMALL_PROBLEM_WORDS", -1)


COUNTERS = ("nodes", "backtracks", "restarts", "propagations", "nogoods", "nogood_prunings", "nogood_failures")


def _both(problem, seed=0, node_limit=None, **options):
    compiled = ACBackend(seed=seed, **options)
    reference = ACBackend(seed=seed, core="python", **options)
    assert native_network(problem, compiled.options) is not None
    return (
        compiled.solve(problem, time_limit=120, node_limit=node_limit),
        reference.solve(problem, time_limit=120, node_limit=node_limit),
    )


def _assert_same(fast, slow, problem):
    assert fast.status == slow.status
    for name in COUNTERS:
        assert getattr(fast.stats, name) == getattr(slow.stats, name), name
    assert [e.answer for e in fast.entries] == [e.answer for e in slow.entries]
    if fast.status == Status.FILLED:
        assert (
            verify_fill(problem.grid, fast.cells, problem.lexicon, allow_duplicates=problem.options.allow_duplicates)
            == []
        )


@pytest.fixture(scope="module")
def stand_in() -> Lexicon:
    lexicon, _ = load_word_list(STAND_IN)
    return lexicon


@pytest.mark.parametrize("name", ["american/am15-01.txt", "american/am15-04.txt", "demo/blocks-7x7.txt"])
@pytest.mark.parametrize(
    "seed,options",
    [
        (0, {}),
        (5, {"restart_base": 4}),  # noise from the first run, many restarts and no-goods
        (2, {"value_order": "lookahead", "restart_policy": "geometric", "restart_base": 8, "weight_decay": 0.9}),
        (1, {"value_order": "window", "nogoods": False, "restart_base": 2}),
    ],
)
def test_real_grids_same_search(name, seed, options, stand_in):
    """The same search up to a fill or the node budget (the best partial fills then agree)."""
    problem = build_problem(read_grid(GRIDS / name), stand_in)
    fast, slow = _both(problem, seed=seed, node_limit=1500, **options)
    _assert_same(fast, slow, problem)
    assert fast.stats.nodes > 0


def test_restarts_and_nogoods_are_exercised(stand_in):
    """With a small cutoff both searches restart, learn no-goods and prune with them, in step, up
    to the same node budget; the partial fills they return agree too."""
    problem = build_problem(read_grid(GRIDS / "american/am15-04.txt"), stand_in)
    fast, slow = _both(problem, seed=5, node_limit=1500, restart_base=2)
    _assert_same(fast, slow, problem)
    assert fast.status == Status.TIMEOUT and fast.stats.nodes == 1500
    assert fast.stats.restarts > 0 and fast.stats.nogoods > 0 and fast.stats.nogood_prunings > 0


def test_a_full_nogood_store_stops_learning_in_both_searches(stand_in):
    """The cap on no-good literals binds the same way in both searches: fewer no-goods than
    without it, the same search otherwise."""
    problem = build_problem(read_grid(GRIDS / "american/am15-04.txt"), stand_in)
    free, _ = _both(problem, seed=5, node_limit=1500, restart_base=2)
    fast, slow = _both(problem, seed=5, node_limit=1500, restart_base=2, nogood_literals=60)
    _assert_same(fast, slow, problem)
    assert 0 < fast.stats.nogoods < free.stats.nogoods


@st.composite
def tiny_puzzles(draw):
    height = draw(st.integers(2, 5))
    width = draw(st.integers(2, 5))
    cell = st.sampled_from("......#AB")
    rows = ["".join(draw(cell) for _ in range(width)) for _ in range(height)]
    words = draw(st.lists(st.text(alphabet="ABCDE", min_size=2, max_size=5), min_size=1, max_size=60, unique=True))
    scores = {w: draw(st.sampled_from([20, 50, 50, 70])) for w in words}
    options = draw(
        st.fixed_dictionaries(
            {
                "value_order": st.sampled_from(["tier", "window", "lookahead"]),
                "restart_base": st.sampled_from([1, 3, 128]),
                "restart_policy": st.sampled_from(["luby", "geometric"]),
                "nogoods": st.booleans(),
                "nogood_literals": st.sampled_from([0, 5, 40, 500_000]),
                "weight_decay": st.sampled_from([1.0, 0.8]),
            }
        )
    )
    return rows, words, scores, draw(st.booleans()), draw(st.sampled_from([0, 1, 99])), options


def _searchable(puzzle):
    """The puzzle's problem, or None when there is nothing to search (no slot, or refuted at
    the root)."""
    rows, words, scores, allow, _seed, _options = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return None  # no slot: not a grid
    problem = build_problem(grid, Lexicon.from_words(words, scores=scores), FillOptions(allow_duplicates=allow))
    return None if problem.unsatisfiable else problem


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_random_puzzles_same_search(puzzle):
    problem = _searchable(puzzle)
    if problem is None:
        return
    *_, seed, options = puzzle
    fast, slow = _both(problem, seed=seed, **options)
    _assert_same(fast, slow, problem)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_random_puzzles_same_enumeration(puzzle):
    problem = _searchable(puzzle)
    if problem is None:
        return
    fast = ACBackend().enumerate(problem, time_limit=60)
    slow = ACBackend(core="python").enumerate(problem, time_limit=60)
    assert list(fast) == list(slow)
    assert fast.complete and slow.complete
    assert fast.stats.nodes == slow.stats.nodes


def test_the_same_seed_gives_the_same_fill_at_any_slice(monkeypatch, stand_in):
    """The core pauses between slices to look at the stop flag; where it pauses changes nothing."""
    import csp_crossword.backends.ac_native as native

    problem = build_problem(read_grid(GRIDS / "american/am15-04.txt"), stand_in)
    first = ACBackend(seed=3, restart_base=4).solve(problem, time_limit=60)
    monkeypatch.setattr(native, "SLICE_SECONDS", 0.0)  # a pause after every node
    second = ACBackend(seed=3, restart_base=4).solve(problem, time_limit=60)
    assert first.status == second.status == Status.FILLED
    assert [e.answer for e in first.entries] == [e.answer for e in second.entries]
    assert first.stats.nodes == second.stats.nodes and first.stats.restarts > 0


@pytest.fixture(scope="module")
def hard_problem(stand_in):
    """A pattern the stand-in list fills only after a long search (minutes)."""
    return build_problem(read_grid(GRIDS / "american/am15-02.txt"), stand_in)


def test_a_stop_from_another_thread_ends_the_compiled_search(hard_problem):
    problem = hard_problem
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    started = time.monotonic()
    result = ACBackend().solve(problem, time_limit=600, stop=stop)
    elapsed = time.monotonic() - started
    timer.cancel()
    assert result.status == Status.TIMEOUT
    assert elapsed < 60  # stopped long before the limit (a loose guard: a busy machine passes)


def test_progress_is_reported_while_the_core_runs(hard_problem):
    seen = []
    result = ACBackend().solve(hard_problem, time_limit=1.5, progress=seen.append)
    assert result.status == Status.TIMEOUT and result.entries  # the deepest partial fill
    assert seen and all(b.nodes >= a.nodes for a, b in itertools.pairwise(seen))
    assert seen[-1].nodes > 0


def test_rules_the_core_does_not_take_keep_the_python_search(stand_in, monkeypatch):
    grid = read_grid(GRIDS / "demo/blocks-7x7.txt")
    plain = build_problem(grid, stand_in)
    assert native_network(plain, ACBackend().options) is not None
    assert native_network(plain, ACBackend(branching="letter").options) is None
    assert native_network(plain, ACBackend(core="python").options) is None
    shared_run = build_problem(grid, stand_in, FillOptions(no_shared_substring=4))
    assert native_network(shared_run, ACBackend().options) is None
    result = ACBackend().solve(shared_run, time_limit=60)
    assert result.status == Status.FILLED
    assert verify_fill(grid, result.cells, stand_in, no_shared_substring=4) == []
    monkeypatch.setenv(JIT_VARIABLE, "0")
    assert native_network(build_problem(grid, stand_in), ACBackend().options) is None


def test_a_small_problem_tried_in_python_then_in_the_core_gives_the_same_result(monkeypatch, stand_in):
    """A small problem starts in the Python search; past TRIAL_NODES it starts over in the core.
    The result and its statistics are those of either search alone."""
    import csp_crossword.backends.ac_native as native

    monkeypatch.setattr(native, "SMALL_PROBLEM_WORDS", 10**9)
    problem = build_problem(read_grid(GRIDS / "american/am15-01.txt"), stand_in)
    assert native.small_problem(problem)
    runs = []
    original = native.NativeSearch.run
    monkeypatch.setattr(native.NativeSearch, "run", lambda self: runs.append(1) or original(self))
    reference = ACBackend(seed=3, core="python").solve(problem, time_limit=120)
    assert reference.stats.nodes > 5
    monkeypatch.setattr(native, "TRIAL_NODES", reference.stats.nodes + 1)
    in_python = ACBackend(seed=3).solve(problem, time_limit=120)
    assert runs == []  # the trial was enough: the core never started
    _assert_same(in_python, reference, problem)
    monkeypatch.setattr(native, "TRIAL_NODES", 5)
    tried = ACBackend(seed=3).solve(problem, time_limit=120)
    assert runs == [1]  # the trial ran out: the core did the search, from the start
    _assert_same(tried, reference, problem)
