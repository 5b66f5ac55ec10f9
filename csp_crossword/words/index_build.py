"""A built-in list's ready index built within a job's time limit.

The first use of a built-in list turns it into a ready index and caches it (:mod:`.builtin`):
about 1.5 s on an idle core for ``en``, several times that on a busy one. A job with a deadline
does not build it itself: a process of its own builds it while the job waits until its deadline.
When the deadline passes first the job ends with :class:`IndexTimeout`, and that process, in a
session of its own, finishes the index for the next job. One build at a time: a second builder
waits on a lock in the cache folder and then finds the index ready.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable

from ..core.deadline import Deadline, time_left
from ..core.errors import BuildTimeout

#: Why a job that ran out of time before its built-in list was ready has no result.
STILL_BUILDING = "the word list's ready index was still being built"
#: Seconds between two looks at the process that builds the index.
POLL_SECONDS = 0.05
#: The program that builds a built-in list's ready index (its language and spelling as
#: arguments) and writes it to the cache, under the lock.
BUILD_PROGRAM = """
import os, sys
from csp_crossword.words.builtin import builtin_lexicon, cache_path
lang, spelling = sys.argv[1:3]
path = cache_path(lang, spelling)
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path + ".lock", "w") as lock:
    try:
        import fcntl
        fcntl.flock(lock, fcntl.LOCK_EX)
    except ImportError:
        pass
    builtin_lexicon(lang, spelling=spelling)
"""


class IndexTimeout(BuildTimeout):
    """The job's deadline passed while the built-in list's ready index was built (its first use
    on this machine): a timeout with nothing computed yet, not an error in the input."""

    def __init__(self, lang: str):
        Exception.__init__(
            self,
            f"{STILL_BUILDING} (the built-in list {lang}, first use on this machine; "
            "it is finished in the background for the next run)",
        )
        self.path = f"the built-in word list ({lang})"


def build_index(
    lang: str, spelling: str, path: str, deadline: Deadline, on_wait: Callable[[], None] | None = None
) -> bool:
    """Build the ready index of the built-in list ``lang`` (kept to ``spelling``), cached at
    ``path``, in a process of its own, and wait for it until ``deadline``, calling ``on_wait``
    at each look. True once the index is there; False when the process ended without writing it
    (a cache folder that cannot be written: the caller then builds the list itself);
    :class:`IndexTimeout` when the deadline passes first (the process goes on)."""
    if os.path.exists(path):
        return True
    builder = subprocess.Popen(
        [sys.executable, "-c", BUILD_PROGRAM, lang, spelling],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C in the job does not reach it
    )
    while builder.poll() is None:
        if time_left(deadline) <= 0:
            raise IndexTimeout(lang)
        if on_wait is not None:
            on_wait()
        time.sleep(POLL_SECONDS)
    return os.path.exists(path)
