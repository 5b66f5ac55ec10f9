"""The same list and seed give the same freeform board at any machine load: the search's budget is
greedy steps, not seconds.

The budgets here are a second or two of an idle core's work while the clock's cap is a minute
away, so that only the budget decides the board even on a very busy machine (the library's call
takes both from its time limit; tests/test_determinism.py runs it with a target it reaches)."""

from __future__ import annotations

import threading

from csp_crossword.layout.freeform import Freeform

WORDS = ["ELEPHANT", "GIRAFFE", "ZEBRA", "LION", "TIGER", "MONKEY", "KANGAROO", "PENGUIN", "DOLPHIN",
         "WHALE", "OTTER", "BEAVER", "RABBIT", "HORSE", "EAGLE", "TURTLE", "SNAKE", "LIZARD"]  # fmt: skip

#: Seconds of the clock's cap: far beyond what the budgets below need.
CAP_SECONDS = 60.0


def board(seed: int, budget_seconds: float) -> Freeform:
    """A 13x13 board of WORDS within ``budget_seconds`` of steps."""
    engine = Freeform(WORDS, rows=13, cols=13)
    engine.run(CAP_SECONDS, seed, budget_seconds=budget_seconds)
    return engine


def test_the_same_board_beside_a_busy_loop():
    quiet = Freeform(WORDS, rows=13, cols=13).run(CAP_SECONDS, 4, budget_seconds=1.0)
    done = threading.Event()

    def busy() -> None:
        while not done.is_set():
            sum(range(10_000))

    spinner = threading.Thread(target=busy, daemon=True)
    spinner.start()
    try:
        loaded = Freeform(WORDS, rows=13, cols=13).run(CAP_SECONDS, 4, budget_seconds=1.0)
    finally:
        done.set()
    assert quiet.boards > 1 and not quiet.timed_out
    assert loaded.cells == quiet.cells and loaded.boards == quiet.boards


def test_the_budget_is_steps_and_a_longer_limit_buys_more():
    short, long = board(1, 0.5), board(1, 1.0)
    assert short.steps <= short._step_budget(0.5) and long.steps > short.steps
