"""The core search of ``check`` on grids whose proof empties no slot at the root: the core comes
from the failed search, is checked unfillable by another solver, and fits in the time limit."""

import json
import time

import pytest
from csp_crossword import load_words
from csp_crossword.analysis.checking import check
from csp_crossword.analysis.unsat_core import CoreSearch
from csp_crossword.backends import get_backend
from csp_crossword.cli import main
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.words.lexicon import Lexicon

from conftest import GRIDS

AMERICAN = GRIDS / "american" / "am15-02.txt"


@pytest.fixture(scope="module")
def builtin():
    return load_words()


def _status(grid, lexicon, options, slot_ids, backend="cpsat"):
    """An independent prover (CP-SAT, not the ``ac`` search the core came from)."""
    problem = build_problem(grid, lexicon, options, slot_ids=slot_ids)
    if problem.unsatisfiable:
        return Status.UNSATISFIABLE
    solver = get_backend(backend)(workers=2) if backend == "cpsat" else get_backend(backend)()
    return solver.solve(problem, time_limit=60).status


def test_core_of_a_15x15_without_a_root_wipe_out(builtin):
    grid = read_grid(AMERICAN)
    options = FillOptions(min_score=70)
    problem = build_problem(grid, builtin, options)
    assert not problem.unsatisfiable  # the proof needs search: no slot is empty at the root
    report = check(grid, builtin, options, time_limit=60)
    assert report.status == "unsolvable"
    assert report.core is not None and report.core_minimal
    assert len(report.core) < len(grid.slots) // 2
    assert _status(grid, builtin, options, report.core) == Status.UNSATISFIABLE
    # minimal: dropping a slot leaves a fillable set (checked for the first and the last, the
    # sub-fill checked here: words of the list, crossings agree, no repeat)
    scores = builtin.scores
    for dropped in (report.core[0], report.core[-1]):
        rest = [slot_id for slot_id in report.core if slot_id != dropped]
        result = get_backend("ac")().solve(build_problem(grid, builtin, options, slot_ids=rest), time_limit=60)
        assert result.status.has_fill
        letters: dict[tuple[int, int], str] = {}
        answers = [entry.answer for entry in result.entries]
        assert sorted(entry.id for entry in result.entries) == sorted(rest)
        assert len(set(answers)) == len(answers)
        for entry in result.entries:
            assert scores[entry.answer] >= 70
            for cell, letter in zip(grid.slot(entry.id).cells, entry.answer, strict=True):
                assert letters.setdefault(cell, letter) == letter


def test_core_search_keeps_the_deadline(builtin):
    grid = read_grid(AMERICAN)
    problem = build_problem(grid, builtin, FillOptions(min_score=70))
    start, computing = time.monotonic(), time.thread_time()
    core = CoreSearch(problem, get_backend("ac")(), start + 0.3).find()
    # on a busy machine the search may wait for a processor past the deadline: the processor
    # time it spent then bounds it instead (either will do)
    wall, spent = time.monotonic() - start, time.thread_time() - computing
    assert wall < 0.3 + 0.5 or spent < 0.3 + 0.5, (wall, spent)
    # no core in time is never called minimal
    assert core.slots is not None or not core.minimal


def test_blame_seeds_the_core_and_verdicts_are_cached():
    # a corner that cannot be filled (only CAT/ACE/TEN fit) next to a free region
    grid = parse_grid("CAT#..\n...#..\n...###")
    lexicon = Lexicon.from_words(
        ["CAT", "CDE", "AOE", "TGM", "ACE", "DOG", "EEL", "ARE", "TEN", "AB", "CD", "AC", "BD"]
    )
    problem = build_problem(grid, lexicon)
    search = CoreSearch(problem, get_backend("ac")(), time.monotonic() + 30, blame={"3D": 5.0})
    core = search.find()
    assert core.slots is not None and core.minimal
    assert set(core.slots) <= {"1A", "6A", "8A", "1D", "2D", "3D"}
    assert _status(grid, lexicon, FillOptions(), core.slots, "pyconstraint") == Status.UNSATISFIABLE
    tests = search.tests
    search.find()  # the same questions again: every verdict comes from the cache
    assert search.tests == tests


def test_unknown_names_trouble_spots(capsys, benchmark_words):
    grid = str(GRIDS / "vanbeek" / "h2110.txt")
    code = main(["check", grid, "--words", str(benchmark_words), "--time-limit", "1", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3 and data["status"] == "unknown"
    trouble = data["trouble"]
    assert 1 <= len(trouble) <= 5
    assert all(row["candidates"] >= 2 for row in trouble)
    conflicts = [row["conflicts"] for row in trouble]
    assert conflicts == sorted(conflicts, reverse=True)
    code = main(["check", grid, "--words", str(benchmark_words), "--time-limit", "1"])
    out = capsys.readouterr().out
    assert code == 3 and "trouble spots" in out
    listed = out[out.index("trouble spots") :].splitlines()[1:]
    assert 1 <= len(listed) <= 5 and all("candidates," in line and "conflicts" in line for line in listed)


def test_cli_draws_the_core(capsys, write):
    grid = write("g.txt", "CAT\n...\n...\n")
    words = write("w.txt", "CAT\nCDE\nAOE\nTGM\nACE\nDOG\nEEL\nARE\nTEN\n")
    code = main(["check", grid, "--words", words])
    out = capsys.readouterr().out
    assert code == 1
    drawing = out[out.index("where they are") :].splitlines()[1:4]
    # the core is 5A and 3D: the third row and the third column are starred
    assert drawing == ["  . . *", "  . . *", "  * * *"]


class _Prover:
    """A prover whose every search ends with ``status``: TIMEOUT never decides anything in time
    (as on a near-global conflict, whose large sub-problems can be harder than the whole grid);
    INTERRUPTED is how ``ac`` reports Ctrl-C."""

    def __init__(self, status, seed=0):
        self.status = status
        self.seed = seed
        self.supports = frozenset({"fill", "prove"})

    def solve(self, problem, deadline=None, stop=None, **_kwargs):
        from csp_crossword.backends.base import result_from_domains
        from csp_crossword.core.result import SearchStats

        return result_from_domains(problem, "ac", self.status, None, SearchStats())


def _interrupted(seed=0):
    return _Prover(Status.INTERRUPTED, seed)


def test_a_core_is_found_even_when_no_sub_problem_is_decided(builtin):
    """The whole grid was proved unfillable by the proof, so the core falls back to it (not
    called minimal) instead of reporting no core at all; only sets that arc consistency alone
    refutes can cut it down."""
    grid = read_grid(AMERICAN)
    problem = build_problem(grid, builtin, FillOptions(min_score=70))
    core = CoreSearch(problem, _Prover(Status.TIMEOUT), time.monotonic() + 5).find()
    assert core.slots is not None and not core.minimal
    if len(core.slots) < len(grid.slots):
        assert build_problem(grid, builtin, FillOptions(min_score=70), slot_ids=core.slots).unsatisfiable


def test_ctrl_c_during_the_core_search_keeps_the_proof(builtin, monkeypatch):
    """Ctrl-C in a core test's search ends the core search at once; the proof stands, the
    report says it was interrupted and names the trouble spots, and the CLI exits 130."""
    import csp_crossword.analysis.checking as checking

    grid = read_grid(AMERICAN)
    options = FillOptions(min_score=70)
    proof = get_backend("ac")()
    monkeypatch.setattr(checking, "ACBackend", _interrupted)  # the core search's prover
    start, computing = time.monotonic(), time.thread_time()
    report = check(grid, builtin, options, backend=proof, time_limit=60)
    wall, spent = time.monotonic() - start, time.thread_time() - computing
    assert wall < 30 or spent < 30, (wall, spent)  # ended at the Ctrl-C, not at the limit
    assert report.status == "unsolvable" and report.interrupted
    assert report.core is None and report.trouble
    assert report.filter_is_cause is None  # not tried after an interrupt
    assert "interrupted" in (report.reason or "")


def test_ctrl_c_during_the_proof_is_an_interrupt_not_a_timeout(builtin):
    report = check(read_grid(AMERICAN), builtin, FillOptions(min_score=70), backend=_interrupted(), time_limit=60)
    assert report.status == "unknown" and report.interrupted
    assert "time limit" not in (report.reason or "")


def test_cli_exits_130_when_the_core_search_is_interrupted(capsys, monkeypatch):
    import csp_crossword.analysis.checking as checking

    monkeypatch.setattr(checking, "ACBackend", _interrupted)  # the core search's prover
    code = main(["check", str(AMERICAN), "--min-score", "70", "--format", "json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 130
    assert data["status"] == "unsolvable" and data["interrupted"] is True and data["trouble"]
