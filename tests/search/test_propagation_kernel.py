"""The compiled propagation loop against the pure-Python one it replaces.

Arc consistency with the no-repeat rule has one greatest fixpoint, so after the same decisions
both loops must agree on failure, and without failure on every domain and every crossing mask.
"""

from __future__ import annotations

import random

import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.search.graph import constraint_graph
from csp_crossword.search.propagation import Network
from csp_crossword.search.propagation_kernel import JIT_VARIABLE, kernel
from csp_crossword.search.state import State
from csp_crossword.words.lexicon import Lexicon
from csp_crossword.words.wordlists import load_word_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GRIDS, STAND_IN

pytestmark = pytest.mark.skipif(
    kernel() is None, reason="the compiled extension was not built: no compiled loop to compare"
)


def _pair(grid, lexicon, allow_duplicates=False):
    graph = constraint_graph(grid, no_repeat=not allow_duplicates)
    compiled = Network(graph, lexicon)
    reference = Network(graph, lexicon, jit=False)
    assert compiled.packed() is not None  # packed now, whatever the process's warm-up
    assert compiled.compiled() is not None
    assert reference.compiled() is None
    return compiled, reference


def _root(net: Network) -> State:
    domains = [index.match(net.grid.pattern(slot)) for index, slot in zip(net.indexes, net.slots)]
    return net.initial_state(domains)


def _agree(compiled: Network, reference: Network, state: State, changed: list[int]) -> bool:
    """Propagate a copy of ``state`` with each loop; both must reach the same fixpoint. True when
    neither failed."""
    fast, slow = state.copy(), state.copy()
    fast_failure = compiled.propagate(fast, changed)
    slow_failure = reference.propagate(slow, changed)
    assert (fast_failure is None) == (slow_failure is None)
    if fast_failure is None:
        assert fast.domains == slow.domains
        assert fast.masks == slow.masks
        return True
    assert not fast.domains[fast_failure.slot] or fast_failure.cause is not None
    return False


def _random_dive(compiled: Network, reference: Network, rng: random.Random, steps: int) -> int:
    """Random decisions (a word, or a word ruled out) from the root; checks agreement at each
    step, goes on from the compiled loop's state. Returns the decisions that propagated."""
    state = _root(compiled)
    if not _agree(compiled, reference, state, list(range(len(state.domains)))):
        return 0  # both found the root inconsistent
    compiled.propagate(state, list(range(len(state.domains))))
    survived = 0
    for _ in range(steps):
        open_slots = [s for s, d in enumerate(state.domains) if d & (d - 1)]
        if not open_slots:
            break
        s = rng.choice(open_slots)
        ids = [w for w in range(state.domains[s].bit_length()) if state.domains[s] >> w & 1]
        word = rng.choice(ids[: 1 + len(ids) // 4])
        trial = state.copy()
        if rng.random() < 0.7:
            trial.domains[s] = 1 << word
        else:
            trial.domains[s] &= ~(1 << word)
        if _agree(compiled, reference, trial, [s]):
            compiled.propagate(trial, [s])
            state = trial
            survived += 1
    return survived


@pytest.fixture(scope="module")
def stand_in() -> Lexicon:
    lexicon, _ = load_word_list(STAND_IN)
    return lexicon


@pytest.mark.parametrize("name", ["american/am15-01.txt", "american/am15-04.txt", "demo/blocks-7x7.txt"])
def test_random_dives_agree(name, stand_in):
    compiled, reference = _pair(read_grid(GRIDS / name), stand_in)
    rng = random.Random(name)
    survived = sum(_random_dive(compiled, reference, rng, 40) for _ in range(6))
    assert survived > 0  # the dives went past the root, so the comparison saw real search states


def test_prefilled_grid_and_duplicates_allowed(stand_in):
    grid = read_grid(GRIDS / "demo" / "prefilled-7x7.txt")
    for allow in (False, True):
        compiled, reference = _pair(grid, stand_in, allow)
        _random_dive(compiled, reference, random.Random(7), 30)


def test_a_state_edited_between_calls_is_seen_by_the_compiled_loop(stand_in):
    """The compiled loop keeps packed rows of the domains; a domain replaced from Python (as the
    search does for every decision) must be read anew, not taken from a stale row."""
    compiled, _ = _pair(read_grid(GRIDS / "demo" / "blocks-7x7.txt"), stand_in)
    state = _root(compiled)
    assert compiled.propagate(state, list(range(len(state.domains)))) is None
    s = max(range(len(state.domains)), key=lambda k: state.domains[k].bit_count())
    state.domains[s] = 0
    failure = compiled.propagate(state, [s])
    assert failure is not None and failure.slot == s


def test_repeat_rule_in_the_compiled_loop():
    """Two slots of one length, one word fits both: without repeats the second has none left."""
    grid = parse_grid("AB.\n###\n...")
    lexicon = Lexicon.from_words(["ABC"])
    compiled, reference = _pair(grid, lexicon)
    state = _root(compiled)
    assert compiled.propagate(state.copy(), [0, 1]) is not None
    assert reference.propagate(state.copy(), [0, 1]) is not None
    compiled, _ = _pair(grid, lexicon, allow_duplicates=True)
    assert compiled.propagate(_root(compiled), [0, 1]) is None


def test_the_environment_variable_turns_the_compiled_loop_off(monkeypatch, stand_in):
    monkeypatch.setenv(JIT_VARIABLE, "0")
    network = Network(constraint_graph(read_grid(GRIDS / "demo" / "mini-5x5.txt")), stand_in)
    assert network.packed() is None and network.compiled() is None


def test_rules_the_kernel_does_not_know_keep_the_python_loop(stand_in):
    grid = read_grid(GRIDS / "demo" / "mini-5x5.txt")
    assert Network(constraint_graph(grid), stand_in).packed() is not None  # the grid itself is fine
    for network in (
        Network(constraint_graph(grid), stand_in, max_shared_run=3),
        Network(constraint_graph(grid), stand_in, uses={"CAT": 2}),
    ):
        assert network.packed() is None and network.compiled() is None


@st.composite
def tiny_puzzles(draw):
    height = draw(st.integers(2, 5))
    width = draw(st.integers(2, 5))
    cell = st.sampled_from("......#AB")
    rows = ["".join(draw(cell) for _ in range(width)) for _ in range(height)]
    words = draw(st.sets(st.text(alphabet="ABCD", min_size=2, max_size=5), min_size=1, max_size=40))
    return rows, words, draw(st.booleans()), draw(st.integers(0, 2**32))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_puzzles())
def test_tiny_random_puzzles_agree(puzzle):
    rows, words, allow, seed = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return  # no slot: not a grid (the grid tests cover the message)
    compiled, reference = _pair(grid, Lexicon.from_words(words), allow)
    _random_dive(compiled, reference, random.Random(seed), 12)
