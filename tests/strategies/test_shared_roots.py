"""A fill keeps entries that share a root apart, unless asked, and never loses a fill for it."""

import csp_crossword as cc

#: Two across entries that do not cross: the best-scored fill pairs GREY with GREYED.
GRID = "....##\n######\n......"
WORDS = {"GREY": 90, "GRAY": 10, "GREYED": 90, "SAILED": 20}


def answers(result):
    return sorted(entry.answer for entry in result.entries)


def test_the_weaker_entry_of_a_shared_root_pair_gives_way():
    result = cc.fill(GRID, WORDS, seed=0)
    assert result.status.value == "filled"
    assert answers(result) == ["GREY", "SAILED"]
    assert result.shared_roots == []


def test_allowed_on_request():
    result = cc.fill(GRID, WORDS, seed=0, allow_shared_roots=True)
    assert answers(result) == ["GREY", "GREYED"]


def test_a_pair_the_grid_cannot_do_without_is_kept_and_named():
    result = cc.fill(GRID, {"GREY": 90, "GREYED": 90}, seed=0)
    assert result.status.value == "filled"
    assert answers(result) == ["GREY", "GREYED"]
    assert result.shared_roots == [("1A", "2A")]


def test_a_given_entry_stays_and_its_partner_gives_way():
    result = cc.fill("....##\n######\nGREYED", {"GREY": 90, "GRAY": 10, "GREYED": 10}, seed=0)
    assert answers(result) == ["GRAY", "GREYED"]


def test_a_backend_that_counts_work_refills_the_pair_locally(monkeypatch):
    """CP-SAT counts no nodes but its own work: the weaker entry's region is refilled within
    LOCAL_REFILL_WORK, the rest of the fill kept, not the whole grid searched again."""
    import pytest

    pytest.importorskip("ortools")
    from csp_crossword.backends.cpsat import CpSatBackend
    from csp_crossword.strategies.roots import LOCAL_REFILL_WORK

    budgets = []
    solve = CpSatBackend.solve

    def recording(self, problem, **options):
        budgets.append(options.get("work_limit"))
        return solve(self, problem, **options)

    monkeypatch.setattr(CpSatBackend, "solve", recording)
    # ZAX (10) is the fill's weakest entry, so SAILED (20) may take GREYED's place in the region
    grid = GRID + "\n######\n...###"
    words = WORDS | {"ZAX": 10}
    assert answers(cc.fill(grid, words, seed=0, backend="cpsat", allow_shared_roots=True)) == ["GREY", "GREYED", "ZAX"]
    budgets.clear()
    result = cc.fill(grid, words, seed=0, backend="cpsat")
    assert result.status.value == "filled"
    assert answers(result) == ["GREY", "SAILED", "ZAX"]
    assert result.shared_roots == []
    assert budgets[-1] == LOCAL_REFILL_WORK
