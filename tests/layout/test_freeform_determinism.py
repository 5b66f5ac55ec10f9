"""The same list and seed give the same freeform board at any machine load: the search's budget is
greedy steps, not seconds."""

from __future__ import annotations

import threading

from csp_crossword import api
from csp_crossword.layout.freeform import Freeform

WORDS = ["ELEPHANT", "GIRAFFE", "ZEBRA", "LION", "TIGER", "MONKEY", "KANGAROO", "PENGUIN", "DOLPHIN",
         "WHALE", "OTTER", "BEAVER", "RABBIT", "HORSE", "EAGLE", "TURTLE", "SNAKE", "LIZARD"]  # fmt: skip


def test_the_same_board_beside_a_busy_loop():
    quiet = api.freeform(WORDS, rows=13, cols=13, seed=4, time_limit=2)
    done = threading.Event()

    def busy() -> None:
        while not done.is_set():
            sum(range(10_000))

    spinner = threading.Thread(target=busy, daemon=True)
    spinner.start()
    try:
        loaded = api.freeform(WORDS, rows=13, cols=13, seed=4, time_limit=2)
    finally:
        done.set()
    assert loaded.cells == quiet.cells and loaded.boards == quiet.boards


def test_the_budget_is_steps_and_a_longer_limit_buys_more():
    short, long = Freeform(WORDS), Freeform(WORDS)
    short.run(time_limit=0.5, seed=1)
    long.run(time_limit=1.0, seed=1)
    assert short.steps <= short._step_budget(0.5) and long.steps > short.steps
