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
