"""``optimize``: the quality-first fill, then CP-SAT from it: never worse, optimal where proved,
an honest bound otherwise; checked against brute force and the independent verifier. The total
alone (``optimize_total``) here; the weakest entry first in ``test_optimize_floor.py``."""

from __future__ import annotations

from csp_crossword import api
from csp_crossword.backends import cpsat_model
from csp_crossword.backends.cpsat import CpSatBackend
from csp_crossword.core.grid import parse_grid
from csp_crossword.core.result import FillResult, SearchStats, Status
from csp_crossword.search.problem import build_problem
from csp_crossword.strategies import optimize
from csp_crossword.strategies.optimize import optimize_fill
from csp_crossword.strategies.optimum import Optimum
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings

from bruteforce import grid_of, runs, scored_puzzles, solutions


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_puzzles(max_height=3, cells="....#", max_words=30, min_score=1))
def test_the_optimum_is_brute_forces_and_never_below_the_everyday_fill(puzzle):
    rows, scores = puzzle
    grid = grid_of(rows)
    if grid is None:
        return
    slots = runs(rows)
    totals = [sum(scores["".join(fill[c] for c in slot)] for slot in slots) for fill in solutions(rows, set(scores))]
    lexicon = Lexicon.from_words(scores, scores=scores)
    best = api.fill(grid, lexicon, backend="cpsat", optimize_total=True, time_limit=30)
    if not totals:
        assert best.status == Status.UNSATISFIABLE
        return
    everyday = api.fill(grid, lexicon, time_limit=30)
    assert best.status == Status.OPTIMAL, (rows, scores)
    assert verify_fill(grid, best.cells, lexicon) == []
    assert best.total_score == max(totals) == best.objective >= everyday.total_score


def test_without_time_for_the_optimiser_the_everyday_fill_comes_back_with_a_bound(monkeypatch):
    grid = parse_grid("#...\n....\n....\n...#")
    lexicon = api.load_words()
    problem = build_problem(grid, lexicon)

    def no_answer(self, problem, call):
        return FillResult(Status.TIMEOUT, self.name, stats=SearchStats(nodes=7))

    def no_proof(problem, to_beat, deadline, stop=None, **_):
        return Optimum(None, False, None, 0)

    monkeypatch.setattr(CpSatBackend, "_solve", no_answer)
    monkeypatch.setattr(optimize, "prove_optimum", no_proof)
    result = optimize_fill(problem, CpSatBackend(optimize=True), deadline=None, total_only=True)
    everyday = api.fill(grid, lexicon)
    assert result.status == Status.FILLED and verify_fill(grid, result.cells, lexicon) == []
    assert result.total_score == everyday.total_score == result.objective
    assert result.bound == problem.score_bound() >= result.objective
    assert "no better fill" in (result.reason or "")


def test_a_problem_too_large_to_optimise_whole_keeps_its_best_words_and_the_known_fill(monkeypatch):
    grid = parse_grid("....\n....\n....\n....")
    lexicon = api.load_words()
    problem = build_problem(grid, lexicon)
    monkeypatch.setattr(cpsat_model, "OPTIMIZE_TABLE_VALUES", 2_000)
    monkeypatch.setattr(optimize, "PROOF_MULTIPLIERS", 0)  # CP-SAT's cut model alone
    assert cpsat_model.table_values(problem) > 2_000
    everyday = api.fill(grid, lexicon)
    result = api.fill(grid, lexicon, backend="cpsat", optimize_total=True, time_limit=20)
    assert result.status == Status.FILLED  # not OPTIMAL: the model was cut
    assert verify_fill(grid, result.cells, lexicon) == []
    assert result.total_score >= everyday.total_score
    assert result.bound == problem.score_bound()


def test_ctrl_c_during_our_searches_returns_the_best_fill_so_far(monkeypatch):
    from csp_crossword.strategies import optimum

    grid = parse_grid("#...\n....\n....\n...#")
    lexicon = api.load_words()
    problem = build_problem(grid, lexicon)

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(optimum.ProofSearch, "run", interrupted)
    result = optimize_fill(problem, CpSatBackend(optimize=True), deadline=None, total_only=True)
    everyday = api.fill(grid, lexicon)
    assert result.status == Status.INTERRUPTED
    assert verify_fill(grid, result.cells, lexicon) == []
    assert result.total_score == everyday.total_score == result.objective
