"""The contract every backend meets, run against every registered backend.

Each fill is checked by the independent verifier; unsatisfiable answers are checked against the
brute-force solver of ``bruteforce.py`` or a hand-made proof.
"""

from __future__ import annotations

import pytest
from csp_crossword.backends import REGISTRY, get_backend, names
from csp_crossword.core.grid import parse_grid, read_grid
from csp_crossword.core.result import Status
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon

import plugin_backend
from bruteforce import count
from conftest import GRIDS

#: Every registered backend, plus one defined in the tests (``plugin_backend.py``): a backend
#: is one class and one registry line, and this suite runs against it with no other edit.
BACKENDS = [name for name in names() if get_backend(name).available()] + [plugin_backend.NAME]


@pytest.fixture(autouse=True)
def plugin_registered(monkeypatch):
    monkeypatch.setitem(REGISTRY, plugin_backend.NAME, plugin_backend.TARGET)


def solve(name, grid, lexicon, options=None, time_limit=None, **backend_options):
    problem = build_problem(grid, lexicon, options)
    return problem, get_backend(name)(**backend_options).solve(problem, time_limit=time_limit)


def assert_valid(problem, result):
    assert result.status.has_fill, result.reason
    problems = verify_fill(
        problem.grid,
        result.cells,
        problem.lexicon,
        allow_duplicates=problem.options.allow_duplicates,
        extra_words=problem.extra_words,
    )
    assert problems == []
    assert len(result.entries) == len(problem.grid.slots)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("grid_name", ["h0504", "h0509", "puzzle01", "puzzle03", "puzzle05"])
def test_fills_benchmark_grids(backend, grid_name, quarter_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / f"{grid_name}.txt")
    problem, result = solve(backend, grid, quarter_lexicon, time_limit=60)
    assert_valid(problem, result)
    assert result.stats.seconds > 0


@pytest.mark.parametrize("grid_name", ["h0501", "h1501", "h1901", "puzzle10"])
def test_ac_fills_larger_grids_with_words(grid_name, words_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / f"{grid_name}.txt")
    problem, result = solve("ac", grid, words_lexicon, time_limit=60)
    assert_valid(problem, result)


@pytest.mark.parametrize("backend", BACKENDS)
def test_unsatisfiable_by_length_is_proved_at_once(backend, words_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h2301.txt")
    _, result = solve(backend, grid, words_lexicon)
    assert result.status == Status.UNSATISFIABLE
    assert "23-letter" in result.reason and "25A" in result.empty_slots


@pytest.mark.parametrize("backend", BACKENDS)
def test_unsatisfiable_by_search_is_proved(backend):
    # Every 3x3 word square needs the three down words; this list has none that fit.
    words = ["CAT", "DOG", "EEL", "CDE", "AOE", "TGM", "ACE"]
    grid = parse_grid("...\n...\n...")
    lexicon = Lexicon.from_words(words)
    rows = ["...", "...", "..."]
    assert count(rows, set(lexicon.scores)) == 0
    _, result = solve(backend, grid, lexicon)
    assert result.status == Status.UNSATISFIABLE


@pytest.mark.parametrize("backend", BACKENDS)
def test_duplicates_only_with_permission(backend):
    grid = parse_grid("..\n..")
    lexicon = Lexicon.from_words(["AA", "AB", "BA"])  # AA/AA is the only square without BB
    assert count(["..", ".."], {"AA", "AB", "BA"}) == 0
    _, result = solve(backend, grid, lexicon)
    assert result.status == Status.UNSATISFIABLE
    problem, result = solve(backend, grid, lexicon, FillOptions(allow_duplicates=True))
    assert_valid(problem, result)


@pytest.mark.parametrize("backend", BACKENDS)
def test_implicitly_completed_entry_is_not_repeated(backend):
    # Filling 1A and 2A completes 1D and 2D through their crossings: ABA / BAB would repeat AB.
    grid = parse_grid("..\n..")
    lexicon = Lexicon.from_words(["AB", "BA", "AA"])
    assert count(["..", ".."], {"AB", "BA", "AA"}) == 0
    _, result = solve(backend, grid, lexicon)
    assert result.status == Status.UNSATISFIABLE


@pytest.mark.parametrize("backend", BACKENDS)
def test_prefilled_and_required_entries_are_kept(backend):
    grid = parse_grid("C..\n...\n..G")
    lexicon = Lexicon.from_words(["CAB", "ORE", "WAG", "COW", "ARA", "BEG", "CAR", "ABE"])
    options = FillOptions(required=(("1A", "cab"),))
    problem, result = solve(backend, grid, lexicon, options, time_limit=60)
    assert_valid(problem, result)
    assert result.cells[0][0] == "C" and result.cells[2][2] == "G"
    assert {e.id: e.answer for e in result.entries}["1A"] == "CAB"


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_seed_same_fill(backend, quarter_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h0509.txt")
    # CP-SAT is only deterministic with one worker (documented in docs/backends.md)
    extra = {"workers": 1} if backend == "cpsat" else {}
    fills = [solve(backend, grid, quarter_lexicon, seed=seed, **extra)[1].cells for seed in (3, 3, 4)]
    assert fills[0] == fills[1]
    assert all(f is not None for f in fills)


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_gives_timeout_with_partial_fill(backend, words_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h2110.txt")
    _, result = solve(backend, grid, words_lexicon, time_limit=0.5)
    assert result.status == Status.TIMEOUT
    assert result.stats.seconds < 60  # a loose guard: the limit bounds the search, not model building
    if backend in ("ac", "auto"):  # ac keeps the deepest partial fill
        assert result.cells is not None and result.entries
    for entry in result.entries:
        assert entry.answer in words_lexicon
        cells = grid.slot(entry.id).cells
        assert "".join(result.cells[r][c] for r, c in cells) == entry.answer


@pytest.mark.parametrize("backend", BACKENDS)
def test_bangla_glyphs_fill(backend):
    # ক্ষমা = ক্ষ + মা: two cells each. The fills are this square and its transpose.
    lexicon = Lexicon.from_words(["ক্ষমা", "ক্ষতি", "মাটি", "তিটি"])
    problem, result = solve(backend, parse_grid("..\n.."), lexicon)
    assert_valid(problem, result)
    assert result.cells[0][0] == "ক্ষ"
    assert {result.cells[0][1], result.cells[1][0]} == {"মা", "তি"}
    assert result.cells[1][1] == "টি"


@pytest.mark.parametrize(
    "options", [{}, {"weight_decay": 0.9}, {"value_order": "window"}, {"value_order": "lookahead"}]
)
def test_ac_learns_nogoods_at_restarts(options, sparse_lexicon):
    # A cutoff of one failure that never grows: the fill is only reached through the no-goods.
    grid = read_grid(GRIDS / "vanbeek" / "puzzle03.txt")
    problem, result = solve(
        "ac",
        grid,
        sparse_lexicon,
        time_limit=60,
        restart_policy="geometric",
        restart_base=1,
        restart_growth=1.0,
        **options,
    )
    assert_valid(problem, result)
    assert result.stats.restarts > 0 and result.stats.nogoods > 0


def test_ac_rejects_unknown_options():
    from csp_crossword.core.errors import InputError

    with pytest.raises(InputError, match="value_order must be one of tier, window, lookahead"):
        get_backend("ac")(value_order="alphabetical")
    with pytest.raises(InputError, match="no option 'colour'; its options are: branching, value_order"):
        get_backend("ac")(colour="red")
    with pytest.raises(InputError, match="restart_base must be a number"):
        get_backend("ac")({"restart_base": "fast"})
    with pytest.raises(InputError, match="weight_decay must be in"):
        get_backend("ac")(weight_decay=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_options_from_text_are_typed(backend):
    from dataclasses import fields

    cls = get_backend(backend)
    defaults = cls().options
    text = {f.name: str(getattr(defaults, f.name)) for f in fields(defaults)}
    assert cls.make_options(text) == defaults


def test_auto_returns_the_provers_answer_when_it_wins(monkeypatch):
    # ac stands in as a search that never ends by itself: only CP-SAT can answer.
    import time as clock

    from csp_crossword.backends.ac import ACBackend
    from csp_crossword.backends.auto import AutoBackend
    from csp_crossword.core.result import FillResult

    class Endless(ACBackend):
        def _solve(self, problem, call):
            give_up = clock.monotonic() + 60
            while not call.stopped():
                assert clock.monotonic() < give_up, "auto never stopped the losing backend"
                clock.sleep(0.01)
            return FillResult(Status.TIMEOUT, "ac")

    monkeypatch.setattr(AutoBackend, "_ac", lambda self: Endless())
    monkeypatch.setattr(AutoBackend, "_can_race", lambda self: True)
    words = ["CAT", "DOG", "EEL", "CDE", "AOE", "TGM", "ACE"]
    _, result = solve("auto", parse_grid("...\n...\n..."), Lexicon.from_words(words), time_limit=60, race_after=0)
    assert result.status == Status.UNSATISFIABLE and result.backend == "auto:cpsat"
    lexicon = Lexicon.from_words(["CAB", "ORE", "WAG", "COW", "ARA", "BEG"])
    problem, result = solve("auto", parse_grid("...\n...\n..."), lexicon, time_limit=60, race_after=0)
    assert_valid(problem, result)
    assert result.backend == "auto:cpsat"


def test_auto_keeps_ac_answer_when_ac_is_first(quarter_lexicon):
    grid = read_grid(GRIDS / "vanbeek" / "h0504.txt")
    problem, result = solve("auto", grid, quarter_lexicon, time_limit=60, race_after=30)
    assert_valid(problem, result)
    assert result.backend == "auto:ac"


def test_cpsat_orders_interchangeable_slots_but_enumerates_every_fill():
    from csp_crossword.backends.cpsat_model import CpSatModel

    grid = parse_grid("...#...\n#######\n...#...")  # four 3-letter slots, no crossings
    lexicon = Lexicon.from_words(["ACE", "BAT", "CAT", "DOG", "EEL"])
    problem, result = solve("cpsat", grid, lexicon, workers=1)
    assert_valid(problem, result)
    model = CpSatModel(problem, break_symmetry=True)
    assert [len(g) for g in model.symmetric_groups] == [4]
    index = problem.network.indexes[0]
    ids = [index.position[e.answer] for e in sorted(result.entries, key=lambda e: (e.row, e.col))]
    assert ids == sorted(ids)
    fills = list(get_backend("cpsat")(workers=1).enumerate(problem))
    assert len(fills) == 5 * 4 * 3 * 2  # every ordered choice of 4 distinct words


def test_every_learned_nogood_is_a_true_nogood(benchmark_words):
    # Each no-good recorded at a restart, turned into required entries, must leave no fill;
    # CP-SAT (no shared search code) proves it. Few-solution puzzles: one fill's entries plus
    # every k-th word of the benchmark list (several k, so that the test has no-goods to check
    # whichever list it runs on).
    import time as clock

    from csp_crossword.backends.ac import ACBackend, _Search
    from csp_crossword.backends.base import SolveCall

    words = benchmark_words.read_text().split()
    grid = read_grid(GRIDS / "vanbeek" / "puzzle05.txt")
    _, seed_fill = solve("ac", grid, Lexicon.from_words(words[::4]), time_limit=60)
    learned = []  # (lexicon, no-good)
    for step in (8, 16, 24):
        lexicon = Lexicon.from_words({e.answer for e in seed_fill.entries} | set(words[1::step]))
        nogoods = set()
        for seed in range(4):
            problem = build_problem(grid, lexicon)
            backend = ACBackend(seed=seed, restart_policy="geometric", restart_base=1, restart_growth=1.0)
            search = _Search(problem, backend, SolveCall(clock.monotonic(), deadline=clock.monotonic() + 60))
            assert_valid(problem, search.run())
            nogoods |= {ng for found in search.nogoods.index.values() for ng in found}
        learned += [(lexicon, problem.network, ng) for ng in sorted(nogoods)]
    assert len(learned) >= 10
    for lexicon, net, nogood in learned[:60]:
        required = tuple((net.slots[s].id, net.indexes[s].words[w]) for s, w in nogood)
        _, result = solve("cpsat", grid, lexicon, FillOptions(required=required), workers=1, time_limit=60)
        assert result.status == Status.UNSATISFIABLE, required
