"""Ctrl-C held while native code loads: noted inside the block, raised when it ends."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from csp_crossword.core.interrupts import interrupts_held


def test_ctrl_c_inside_is_raised_at_the_end_and_the_handler_restored():
    reached_end = False
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        reached_end = True  # not raised here
    assert reached_end
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_wins_over_an_error_in_the_block():
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        raise ValueError("the block failed")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_ctrl_c_nothing_is_raised():
    with interrupts_held():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_other_threads_and_handlers_are_left_alone():
    seen = []

    def other_thread():
        with interrupts_held():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupts_held():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
