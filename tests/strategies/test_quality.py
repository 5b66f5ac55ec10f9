"""The quality-first fill: floors lowered only where the grid needs it, never a worse answer."""

import time
from pathlib import Path

import csp_crossword as cc
import pytest
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.strategies.quality import FLOOR_LADDER
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

# A ring of four slots: 1A and 3A across, 1D and 2D down, crossing at the four corners.
RING = "...\n.#.\n..."
STRONG = {"CAT": 80, "COD": 80, "TAN": 80, "DEN": 80}
# Better-scored words that start fills whose other slots only weak words complete.
DISTRACTORS = {"CAB": 95, "CUB": 95, "BOG": 10, "BAG": 10, "GAG": 10, "BIG": 10, "BUG": 10, "GIG": 10}


def weakest(result: cc.FillResult) -> int:
    return min(entry.score or 0 for entry in result.entries)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_quality_first_finds_the_fill_whose_weakest_entry_is_best(seed):
    words = STRONG | DISTRACTORS
    result = cc.fill(RING, words, seed=seed)
    assert result.status == cc.Status.FILLED
    assert weakest(result) == 80  # the all-strong fill: no other has a weakest entry above 10
    assert verify_fill(parse_grid(RING), result.cells, Lexicon.from_words(list(words), scores=words)) == []


def test_plain_strategy_is_the_backend_alone():
    # best-scored word first: 1A takes CAB or CUB, and the fill then needs a word scored 10
    result = cc.fill(RING, STRONG | DISTRACTORS, strategy="plain")
    assert result.status == cc.Status.FILLED
    assert weakest(result) == 10


def test_quality_first_keeps_a_fill_when_only_weak_words_fit():
    words = {word: 10 for word in STRONG}
    assert min(FLOOR_LADDER) > 10
    result = cc.fill(RING, words)
    assert result.status == cc.Status.FILLED
    assert {entry.answer for entry in result.entries} == set(words)


def test_quality_first_still_proves_unsatisfiable():
    assert cc.fill(RING, {"CAT": 90, "DOG": 90, "EMU": 10}).status == cc.Status.UNSATISFIABLE


def test_quality_first_respects_min_score_below_the_ladder():
    words = {"CAT": 25, "COD": 25, "TAN": 25, "DEN": 25, "CAB": 95}
    assert cc.fill(RING, words, min_score=26).status == cc.Status.UNSATISFIABLE
    assert cc.fill(RING, words, min_score=25).status == cc.Status.FILLED


def test_unknown_strategy_is_a_clear_error():
    with pytest.raises(InputError, match="strategy"):
        cc.fill(RING, ["CAT"], strategy="fastest")


def test_builtin_fill_of_a_demo_grid_uses_no_word_to_avoid():
    grid = Path(__file__).resolve().parents[2] / "grids" / "demo" / "blocks-7x7.txt"
    result = cc.fill(grid, seed=0, time_limit=30)
    assert result.status == cc.Status.FILLED
    assert weakest(result) >= 30


def test_an_interrupted_stage_ends_the_whole_fill():
    from csp_crossword.core.result import FillResult, Status
    from csp_crossword.search.problem import build_problem
    from csp_crossword.strategies.quality import quality_first

    class Interrupted:
        calls = 0
        counts_nodes = counts_work = False

        def solve(self, problem, **_keywords):
            Interrupted.calls += 1
            return FillResult(Status.INTERRUPTED, "stand-in")

    words = Lexicon.from_words(list(STRONG | DISTRACTORS), scores=STRONG | DISTRACTORS)
    problem = build_problem(parse_grid(RING), words)
    result = quality_first(problem, Interrupted(), deadline=None)
    assert result.status == Status.INTERRUPTED and Interrupted.calls == 1


def test_stages_are_budgeted_in_nodes_so_the_fill_does_not_depend_on_the_clock():
    """A backend that counts nodes gets node budgets (growing stage by stage) and the whole
    deadline; the same inputs then give the same fill whatever the time limit left."""
    from csp_crossword.api.jobs import prepare
    from csp_crossword.backends.ac import ACBackend
    from csp_crossword.core.grid import read_grid
    from csp_crossword.core.result import Status
    from csp_crossword.strategies.quality import quality_first

    from conftest import GRIDS

    budgets = []

    class Recording(ACBackend):
        def solve(self, problem, **keywords):
            budgets.append((keywords.get("node_limit"), keywords.get("deadline")))
            return super().solve(problem, **keywords)

    problem = prepare(read_grid(GRIDS / "american" / "am15-01.txt"), None).problem  # the built-in list
    far = time.monotonic() + 600
    first = quality_first(problem, Recording(seed=2), deadline=far)
    assert budgets and all(limit is not None for limit, _ in budgets)
    assert all(deadline == far for _, deadline in budgets)
    limits = [limit for limit, _ in budgets]
    assert limits == sorted(limits)
    second = quality_first(problem, Recording(seed=2), deadline=time.monotonic() + 300)
    assert first.status == second.status == Status.FILLED
    assert [e.answer for e in first.entries] == [e.answer for e in second.entries]


def test_cpsat_stages_are_budgeted_in_its_deterministic_work():
    """CP-SAT counts no nodes: its stages get work budgets (the first STAGE_WORK) and the whole
    deadline, so a stage ends at the same point of its search at any load."""
    from csp_crossword.api.jobs import prepare
    from csp_crossword.backends import get_backend
    from csp_crossword.core.grid import read_grid
    from csp_crossword.core.result import Status
    from csp_crossword.strategies.quality import STAGE_WORK, quality_first

    from conftest import GRIDS

    if not get_backend("cpsat").available():
        pytest.skip("OR-Tools is not installed")
    budgets = []

    class Recording(get_backend("cpsat")):
        def solve(self, problem, **keywords):
            budgets.append((keywords.get("work_limit"), keywords.get("deadline")))
            return super().solve(problem, **keywords)

    problem = prepare(read_grid(GRIDS / "demo" / "mini-5x5.txt"), None).problem  # the built-in list
    far = time.monotonic() + 600
    result = quality_first(problem, Recording(seed=0), deadline=far)
    assert result.status == Status.FILLED and budgets[0][0] == STAGE_WORK
    assert all(limit is not None and deadline == far for limit, deadline in budgets)
