"""Portfolios (csp_crossword.api.portfolio, ``fill --portfolio``): the first verified answer wins,
the result names its member, and no member process is left behind."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

import pytest
from csp_crossword import api
from csp_crossword.api.portfolio import RECIPES, Member, portfolio_members
from csp_crossword.core.errors import InputError
from csp_crossword.core.result import Status
from csp_crossword.verify.fill import verify_fill

ROOT = Path(__file__).resolve().parents[2]
AMERICAN = ROOT / "grids" / "american" / "am15-01.txt"


def test_members_cycle_the_recipes_with_their_own_seeds():
    members = portfolio_members(7, seed=10)
    assert [m.seed for m in members] == list(range(10, 17))
    assert members[0].backend == "ac" and members[0].strategy == "quality"  # fill's own default first
    assert {m.backend for m in members} == {"ac", "cpsat"} and members[5].options == RECIPES[0].options
    assert [m.backend for m in portfolio_members(3, backend="cpsat")] == ["cpsat"] * 3
    with pytest.raises(InputError):
        portfolio_members(0)


def test_the_first_verified_fill_wins_and_no_member_is_left_running():
    lexicon = api.load_words()
    result = api.fill(AMERICAN, lexicon, portfolio=3, time_limit=60)
    assert result.status == Status.FILLED and result.member and " of 3: " in result.member
    assert verify_fill(api.read_grid(AMERICAN), result.cells, lexicon) == []
    assert multiprocessing.active_children() == []


def test_a_proof_of_unsatisfiability_wins_too(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("....\n....\n")
    result = api.fill(grid, ["abcd", "efgh", "ae", "bf"], portfolio=2, time_limit=30)
    assert result.status == Status.UNSATISFIABLE and result.member
    assert multiprocessing.active_children() == []


def test_a_race_without_a_winner_ends_at_the_time_limit_with_nothing_running(tmp_path):
    start = time.monotonic()
    grid = tmp_path / "open.txt"
    grid.write_text("\n".join(["......."] * 7) + "\n")  # an open 7x7: far beyond a second's search
    members = [Member("ac", seed=s) for s in range(2)]
    # 4 s: on a busy machine each member needs a second or two to start and report a partial fill
    result = api.fill(grid, portfolio=members, time_limit=4, min_score=50)
    assert result.status == Status.TIMEOUT and " of 2: " in (result.member or "")  # whose partial fill it is
    assert time.monotonic() - start < 4 + 3
    assert result.cells is not None and result.entries  # the members' best partial fill comes back
    assert multiprocessing.active_children() == []


def test_cli_fill_portfolio_names_the_winning_member():
    command = [sys.executable, "-m", "csp_crossword", "fill", str(AMERICAN), "--portfolio", "2", "--time-limit", "60"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "(portfolio member " in run.stderr and " of 2: " in run.stderr
    rows = [line for line in run.stdout.splitlines() if line.strip()]
    assert len(rows) >= 15


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"portfolio": True}, "a number of members"),
        ({"portfolio": "3"}, "a number of members"),
        ({"portfolio": 0, "engine": "ray"}, "runs the members of a portfolio"),
        ({"portfolio": 2, "optimize": True, "backend": "cpsat"}, "cannot optimise"),
        ({"portfolio": 10_000}, "at most"),
    ],
)
def test_portfolio_mistakes_are_input_errors(keywords, message):
    with pytest.raises(InputError, match=message):
        api.fill(api.read_grid(AMERICAN), **keywords)


def test_cli_ray_without_a_portfolio_is_a_usage_error():
    command = [sys.executable, "-m", "csp_crossword", "fill", str(AMERICAN), "--ray", "auto"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--ray runs the members of a --portfolio" in run.stderr
