"""CP-SAT's search for a fill or a proof (``FILL_SEARCH``): the model's own order, the same fill
on every run for a seed, and the ``optimize`` settings left as they were."""

from __future__ import annotations

import pytest
from csp_crossword.backends import get_backend
from csp_crossword.backends.cpsat import FILL_SEARCH, FILL_WORKERS, _parameters, _solver
from csp_crossword.backends.cpsat_model import CpSatModel
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

from bruteforce import runs, solutions
from conftest import GRIDS

pytestmark = pytest.mark.skipif(not get_backend("cpsat").available(), reason="OR-Tools is not installed")


def test_cells_take_the_most_frequent_glyph_first():
    lexicon = Lexicon.from_words(["AZ", "AB", "BA", "ZA", "AA"])
    problem = build_problem(parse_grid("..\n.."), lexicon, FillOptions(allow_duplicates=True))
    model = CpSatModel(problem)
    glyphs = problem.network.lexicon_glyphs
    rank = model._glyph_ranks()
    order = sorted(range(len(glyphs)), key=lambda code: rank[code])
    assert [glyphs[code] for code in order] == ["A", "B", "Z"]  # A in 5 words, B in 2, Z in 2 (ties by code)
    assert len(model.cell_vars) == 4  # every cell of an open 2x2 is a crossing


def test_a_cell_takes_first_the_glyph_most_words_of_its_two_slots_hold_there():
    # A is the most frequent glyph overall (5 words), B the most frequent first glyph (3 words)
    lexicon = Lexicon.from_words(["BA", "CA", "DA", "EA", "AB", "BC", "BD"])
    problem = build_problem(parse_grid("..\n.."), lexicon, FillOptions(allow_duplicates=True))
    model = CpSatModel(problem)
    ranks = model._cell_ranks()
    glyphs = problem.network.lexicon_glyphs
    net = problem.network
    for slot in net.slots:
        for position, cell in enumerate(slot.cells):
            crossing = next(c for t, i, j, c in net.neighbours[net.slot_number[slot.id]] if i == position)
            # counted again from the words the two slots still hold, by the cell's coordinates
            support = {}
            for other in net.slots:
                if cell in other.cells:
                    at = other.cells.index(cell)
                    words = [
                        net.indexes[net.slot_number[other.id]].words[w] for w in model.ids[net.slot_number[other.id]]
                    ]
                    for glyph in glyphs:
                        support[glyph] = support.get(glyph, 1) * sum(word[at] == glyph for word in words)
            order = sorted(range(len(glyphs)), key=lambda code: ranks[crossing][code])
            counts = [support[glyphs[code]] for code in order]
            assert counts == sorted(counts, reverse=True), (slot.id, position, order, support)
    # the top left cell starts an across and a down entry: B first there, where A leads overall
    top_left = next(c for t, i, j, c in net.neighbours[0] if i == 0)
    assert glyphs[min(range(len(glyphs)), key=lambda code: ranks[top_left][code])] == "B"
    overall = model._glyph_ranks()
    assert glyphs[min(range(len(glyphs)), key=lambda code: overall[code])] == "A"


def test_fill_search_settings_and_optimize_settings():
    fill = _parameters(10.0, None, 7, fill_search=True)
    assert fill["num_workers"] == FILL_WORKERS == 1
    assert {name: fill[name] for name in FILL_SEARCH} == FILL_SEARCH
    solver = _solver(fill)
    assert solver.parameters.search_branching == type(solver.parameters).SearchBranching.PARTIAL_FIXED_SEARCH
    assert solver.parameters.use_sat_inprocessing is False
    optimise = _parameters(10.0, None, 7)
    assert "search_branching" not in optimise and "linearization_level" not in optimise
    assert _parameters(10.0, None, 7, linearization=2, fill_search=True)["linearization_level"] == 2


def test_the_same_fill_on_every_run(quarter_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h0504.txt")
    problem = build_problem(grid, quarter_lexicon)
    first = get_backend("cpsat")(seed=3).solve(problem, time_limit=120)
    second = get_backend("cpsat")(seed=3).solve(problem, time_limit=120)
    assert first.status == second.status == Status.FILLED
    assert verify_fill(grid, first.cells, quarter_lexicon) == []
    assert first.cells == second.cells
    assert (first.stats.nodes, first.stats.backtracks) == (second.stats.nodes, second.stats.backtracks)


@pytest.mark.parametrize(
    "rows",
    [
        ["...", "...", "..."],  # every cell a crossing
        ["...#", "....", "#..."],  # cells no crossing decides: the word order settles them
    ],
)
def test_fill_and_proof_agree_with_brute_force(rows):
    words = {"CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "NAE", "ETA", "TAN", "CANE"}
    words |= {"ACNE", "NEAT", "ANTE", "ETNA", "TACT", "CENT", "CATE"}
    lexicon = Lexicon.from_words(sorted(words))
    problem = build_problem(parse_grid("\n".join(rows)), lexicon)
    fills = solutions(rows, words)
    expected = next(fills, None)
    result = get_backend("cpsat")().solve(problem, time_limit=60)
    if expected is None:
        assert result.status == Status.UNSATISFIABLE
    else:
        assert result.status == Status.FILLED
        assert verify_fill(problem.grid, result.cells, lexicon) == []
        assert len(runs(rows)) == len(result.entries)


def test_a_worker_count_past_the_limit_is_refused_with_its_range():
    from csp_crossword.backends.cpsat import CpSatOptions
    from csp_crossword.core.limits import MAX_WORKERS

    assert CpSatOptions(workers=MAX_WORKERS).workers == MAX_WORKERS
    for count in (0, MAX_WORKERS + 1, 99_999_999_999):
        with pytest.raises(ValueError, match=f"from 1 to {MAX_WORKERS}"):
            CpSatOptions(workers=count)


def test_a_solve_too_short_to_load_its_model_is_not_started(monkeypatch):
    from csp_crossword.backends import cpsat
    from csp_crossword.backends.cpsat_model import table_values

    lexicon = Lexicon.from_words(["CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "ETA"])
    problem = build_problem(parse_grid("...\n...\n..."), lexicon, FillOptions(allow_duplicates=True))
    values = table_values(problem)
    # the load estimate at 10 s per value: more than the 5 s given, so no model is built
    monkeypatch.setattr(cpsat, "LOAD_SECONDS_PER_TABLE_VALUE", 10.0)
    monkeypatch.setattr(cpsat, "CpSatModel", None)  # building one would fail loudly
    short = get_backend("cpsat")().solve(problem, time_limit=5.0)
    assert values * 10.0 > 5.0
    assert short.status == Status.TIMEOUT and "before CP-SAT had loaded its model" in short.reason
    monkeypatch.undo()
    whole = get_backend("cpsat")().solve(problem, time_limit=60)  # the estimate well inside 60 s
    assert whole.status == Status.FILLED
    assert verify_fill(problem.grid, whole.cells, lexicon, allow_duplicates=True) == []


def test_a_work_budget_ends_the_search_as_a_timeout_the_same_on_every_run():
    # CP-SAT's deterministic time, not the clock: a budget too small for the open 4x4 ends it
    # unfilled, and the same budget gives the same statistics twice
    lexicon = Lexicon.from_words((GRIDS.parent / "tests" / "data" / "words-stand-in.txt").read_text().split())
    problem = build_problem(parse_grid("....\n....\n....\n...."), lexicon)
    backend = get_backend("cpsat")(seed=1)
    short = [backend.solve(problem, time_limit=60, work_limit=1e-6) for _ in range(2)]
    assert [result.status for result in short] == [Status.TIMEOUT, Status.TIMEOUT]
    assert short[0].stats.nodes == short[1].stats.nodes
    whole = backend.solve(problem, time_limit=60, work_limit=100.0)
    assert whole.status == Status.FILLED
    assert verify_fill(problem.grid, whole.cells, lexicon) == []


def test_a_model_too_large_for_a_work_budget_is_not_started(monkeypatch):
    from csp_crossword.backends import cpsat
    from csp_crossword.backends.cpsat_model import table_values

    lexicon = Lexicon.from_words(["CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "ETA"])
    problem = build_problem(parse_grid("...\n...\n..."), lexicon, FillOptions(allow_duplicates=True))
    monkeypatch.setattr(cpsat, "WORK_LIMITED_MAX_TABLE_VALUES", table_values(problem) - 1)
    monkeypatch.setattr(cpsat, "CpSatModel", None)  # building one would fail loudly
    skipped = get_backend("cpsat")().solve(problem, time_limit=60, work_limit=100.0)
    assert skipped.status == Status.TIMEOUT and "too large" in skipped.reason
    monkeypatch.undo()
    unbudgeted = get_backend("cpsat")().solve(problem, time_limit=60)  # the size rule needs a work budget
    assert unbudgeted.status == Status.FILLED


def test_a_fill_leaves_the_deadline_to_a_watcher_not_to_cp_sat(monkeypatch):
    # CP-SAT's own time limit made its search depend on the clock (docs/architecture.md,
    # "Reproducible fills"): a fill's solve gets none, and the deadline goes to the watcher
    from csp_crossword.backends import cpsat

    seen = []
    real = cpsat.solve_here

    def recording(model, parameters, stop, deadline=None):
        seen.append((parameters, deadline))
        return real(model, parameters, stop, deadline)

    monkeypatch.setattr(cpsat, "solve_here", recording)
    lexicon = Lexicon.from_words(["CAT", "ACE", "TEA", "ATE", "EAT", "TEN", "NET", "ANT", "CAN", "ACT", "ETA"])
    problem = build_problem(parse_grid("...\n...\n..."), lexicon, FillOptions(allow_duplicates=True))
    result = get_backend("cpsat")(isolated=False).solve(problem, time_limit=60)
    assert result.status == Status.FILLED
    assert seen and all("max_time_in_seconds" not in parameters and deadline for parameters, deadline in seen)


def test_the_watcher_stops_a_search_at_its_deadline():
    import threading
    import time

    from csp_crossword.backends.cpsat_process import watch_stop

    class Solver:
        stopped = threading.Event()

        def stop_search(self):
            self.stopped.set()

    solver, finished = Solver(), threading.Event()
    watch_stop(solver, None, finished, deadline=time.monotonic() + 0.05)
    try:
        assert solver.stopped.wait(30)
    finally:
        finished.set()
