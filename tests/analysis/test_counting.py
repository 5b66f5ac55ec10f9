"""Counts and enumerations agree across backends and with the brute-force counter."""

from __future__ import annotations

import pytest
from csp_crossword.analysis.counting import count_fills
from csp_crossword.backends import get_backend, names
from csp_crossword.core.errors import InputError
from csp_crossword.core.grid import parse_grid
from csp_crossword.search.problem import FillOptions, build_problem
from csp_crossword.verify.fill import verify_fill
from csp_crossword.words.lexicon import Lexicon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bruteforce import count

ENUMERATORS = [n for n in names() if get_backend(n).available() and "enumerate" in get_backend(n).supports]


@st.composite
def small_puzzles(draw):
    height = draw(st.integers(2, 3))
    width = draw(st.integers(2, 4))
    # given letters and whole columns of blocks (several regions) are where counting regions
    # apart can go wrong: a given entry narrows another region's words through the repeat rule
    rows = ["".join(draw(st.sampled_from("....#AB")) for _ in range(width)) for _ in range(height)]
    if draw(st.booleans()) and width > 2:
        wall = draw(st.integers(1, width - 2))
        rows = [row[:wall] + "#" + row[wall + 1 :] for row in rows]
    words = draw(st.sets(st.text(alphabet="ABC", min_size=2, max_size=4), min_size=1, max_size=16))
    return rows, words, draw(st.booleans()), draw(st.sampled_from([None, None, 2, 3]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_counts_agree_with_brute_force(puzzle):
    rows, words, allow, shared_run = puzzle
    try:
        grid = parse_grid("\n".join(rows))
    except InputError:
        return
    expected = count(rows, words, allow, shared_run)
    lexicon = Lexicon.from_words(words)
    for backend in ENUMERATORS:
        problem = build_problem(grid, lexicon, FillOptions(allow_duplicates=allow, no_shared_substring=shared_run))
        result = count_fills(problem, get_backend(backend)(), time_limit=60)
        assert result.exact
        assert result.count == expected, (backend, rows, sorted(words), allow, shared_run)
        listed = sum(1 for _ in get_backend(backend)().enumerate(problem, time_limit=60))
        assert listed == expected, (backend, rows, sorted(words), allow, shared_run)


@pytest.mark.parametrize("backend", ENUMERATORS)
def test_a_given_entry_links_regions_through_the_repeat_rule(backend):
    # 1A is given as AB, so 2A can only be CD: one fill, not two
    problem = build_problem(parse_grid("AB#.."), Lexicon.from_words(["AB", "CD"]))
    assert count_fills(problem, get_backend(backend)(), time_limit=10).count == 1
    repeats = build_problem(parse_grid("AB#.."), Lexicon.from_words(["AB", "CD"]), FillOptions(allow_duplicates=True))
    assert count_fills(repeats, get_backend(backend)(), time_limit=10).count == 2


@pytest.mark.parametrize("backend", ENUMERATORS)
def test_enumeration_is_distinct_verified_and_stable(backend):
    grid = parse_grid("...\n...")
    words = ["ABA", "BAB", "AAA", "BBB", "AB", "BA", "AA", "BB"]
    lexicon = Lexicon.from_words(words)
    problem = build_problem(grid, lexicon, FillOptions(allow_duplicates=True))
    from csp_crossword.backends.base import fill_from_words

    fills = [fill_from_words(problem, w)[0] for w in get_backend(backend)().enumerate(problem)]
    assert len(fills) == len(set(fills)) == count(["...", "..."], set(words), True)
    for cells in fills:
        assert verify_fill(grid, cells, lexicon, allow_duplicates=True) == []
    again = [fill_from_words(problem, w)[0] for w in get_backend(backend)().enumerate(problem)]
    if backend != "cpsat":  # CP-SAT's order is its own; ac and python-constraint are stable
        assert again == fills


def test_components_multiply_only_when_sound():
    lex = Lexicon.from_words(["AB", "CD", "AC", "BD", "EF", "GH", "EG", "FH"])
    grid = parse_grid("..#..\n..#..")
    rows = ["..#..", "..#.."]
    ac = get_backend("ac")()
    linked = count_fills(build_problem(grid, lex), ac)
    assert linked.components == 1 and linked.count == count(rows, set(lex.scores)) == 8
    free = count_fills(build_problem(grid, lex, FillOptions(allow_duplicates=True)), ac)
    assert free.components == 2 and free.count == count(rows, set(lex.scores), True) == 64


def test_shared_runs_link_regions_only_when_candidates_share_a_run():
    ac = get_backend("ac")()
    options = FillOptions(allow_duplicates=True, no_shared_substring=2)
    # The given A and E keep the two regions' candidates apart: no run in common.
    rows = ["A.#E.", "..#.."]
    apart = Lexicon.from_words(["AB", "CD", "AC", "BD", "EF", "GH", "EG", "FH"])
    result = count_fills(build_problem(parse_grid("\n".join(rows)), apart, options), ac)
    assert result.components == 2 and result.count == count(rows, set(apart.scores), True, 2) == 4
    rows = ["..#..", "..#.."]
    linked = count_fills(build_problem(parse_grid("\n".join(rows)), apart, options), ac)
    assert linked.components == 1 and linked.count == count(rows, set(apart.scores), True, 2) == 8


def test_limit_gives_lower_bound():
    lex = Lexicon.from_words(["AB", "BA", "AA", "BB"])
    problem = build_problem(parse_grid("..\n.."), lex, FillOptions(allow_duplicates=True))
    result = count_fills(problem, get_backend("ac")(), limit=3)
    assert result.count == 3 and not result.exact
    full = count_fills(problem, get_backend("ac")())
    assert full.exact and full.count == count(["..", ".."], {"AB", "BA", "AA", "BB"}, True) == 16


def test_fill_in_regions_are_linked_by_their_words_even_with_repeats_allowed():
    # Two separate 2-letter slots and the words AB and CD, each to be used exactly once: two
    # fills (AB/CD and CD/AB). Counting the regions apart and multiplying would say 4.
    grid = parse_grid("..#..")
    problem = build_problem(grid, Lexicon.from_words(["AB", "CD"]), FillOptions(exact=True, allow_duplicates=True))
    result = count_fills(problem, get_backend("ac")(), time_limit=10)
    assert (result.count, result.exact) == (2, True)
    assert result.components == 1
