"""What a worker process runs: one job at a time, from a request to a JSON-ready result.

A worker is a long-lived process of the server's pool (:mod:`.jobs`). It keeps the word lists it
has loaded (:class:`~.wordlists.LexiconCache`), so a second fill with the same list starts at
once. It takes ``(job id, request, list source)`` messages from its inbox, answers ``progress``,
``done`` and ``failed`` messages on the shared outbox, and ends its current job with the best
result so far when its ``stop`` event is set. Every fill, check witness and freeform board is
verified by the library before it is returned.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError, LoadTimeout
from .givens import entries_outside, given_rows
from .wordlists import LexiconCache, ListSource

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.synchronize import Event

#: Seconds between two progress messages of a job.
PROGRESS_EVERY = 0.25
#: How often an idle worker looks whether the server is still there.
ORPHAN_CHECK_SECONDS = 2.0
#: Workers run at a lower priority than the server, so the page's quick requests (candidates
#: while a fill runs) get the processor first.
WORKER_NICENESS = 10


def worker_main(conn: Connection, stop: Event, parent: int) -> None:
    """The worker's loop: run the jobs ``conn`` brings until it says ``None``, it closes, or the
    server is gone (checked every ORPHAN_CHECK_SECONDS while idle)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the terminal is the server's to handle
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    cache = LexiconCache()
    while True:
        try:
            while not conn.poll(ORPHAN_CHECK_SECONDS):
                if os.getppid() != parent:
                    return
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, request, source = message
        if job_id is None:  # warm-up: load the list and prepare the search before the first job
            try:
                from ..api.fills import warm_up
                from ..formats import documents  # noqa: F401 - imported now, not by the first job
                from . import models  # noqa: F401

                warm_up(cache.get(source))
            except Exception:  # the job that needs the list reports why
                pass
            try:
                conn.send(("warm", None, None))
            except OSError:
                return
            continue
        conn.send(_answer(job_id, request, source, cache, stop, conn))


def _answer(
    job_id: str, request: dict[str, Any], source: ListSource | None, cache: LexiconCache, stop: Event, conn: Connection
) -> tuple[str, str, Any]:
    """Run one job; its ``done`` or ``failed`` message. Progress goes out while it runs."""
    last = [0.0]

    def progress(*report: Any) -> None:
        # a search's SearchStats, or a freeform layout's (boards tried, words placed)
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            if len(report) == 1 and hasattr(report[0], "to_dict"):
                data = report[0].to_dict()
            else:
                data = dict(zip(("boards", "placed"), report, strict=False))
            data["seconds"] = round(now - started, 2)
            conn.send(("progress", job_id, data))

    def loaded() -> None:
        conn.send(("loaded", job_id, None))

    started = time.monotonic()
    try:
        return ("done", job_id, run_job(request, source, cache, stop, progress, loaded))
    except (InputError, LoadTimeout) as error:
        return ("failed", job_id, str(error))
    except Exception as error:  # a bug in one job: reported, and the worker goes on
        return ("failed", job_id, f"internal error: {type(error).__name__}: {error}")


def run_job(
    request: dict[str, Any],
    source: ListSource | None,
    cache: LexiconCache,
    stop: Event,
    progress: Any,
    loaded: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Run one job request (a validated model's dict) and return its JSON document; ``loaded``
    is called once its word list is loaded."""
    kind = request["kind"]
    if kind == "freeform":
        if loaded is not None:
            loaded()  # its words come with the request: the time limit runs from now
        return _freeform(request, stop, progress)
    from .. import api
    from ..formats.documents import check_to_dict, count_to_dict, result_to_dict
    from .models import WordSettings

    assert source is not None  # every job but freeform names a list
    lexicon = cache.get(source)
    if loaded is not None:
        loaded()  # the job's time limit runs from here: loading a list the first time is not its time
    if kind == "generate":  # no grid given: it is what the job makes
        from .generating import run_generate

        return run_generate(request, lexicon, stop, progress)
    grid = _grid(request)
    settings = WordSettings.model_validate({k: v for k, v in request.items() if k in WordSettings.model_fields})
    # complete entries the list lacks are the user's own: kept as given (see .givens)
    given = entries_outside(grid, lexicon, min_score=settings.min_score, ban=settings.ban)
    common: dict[str, Any] = {
        "time_limit": request["time_limit"],
        "seed": request["seed"],
        "stop": stop,
        "progress": progress,
        "require": given,
        **settings.fill_settings(),
    }
    if kind == "fill":
        result = api.fill(grid, lexicon, backend=request["backend"], **common)
        data = result_to_dict(grid, result)
    elif kind == "check":
        data = check_to_dict(api.check(grid, lexicon, **common))
    elif kind == "count":
        counted = api.count(grid, lexicon, limit=request["limit"], **common)
        stopped = "cancelled" if stop.is_set() else None
        data = count_to_dict(counted, limit=request["limit"], backend="ac", stopped=stopped)
    else:
        raise InputError(f"unknown job kind {kind!r}")
    data["given"] = given_rows(given)
    return data


def _grid(request: dict[str, Any]) -> Any:
    from .models import GridModel

    return GridModel.model_validate(request["grid"]).to_grid()


def _freeform(request: dict[str, Any], stop: Event, progress: Any) -> dict[str, Any]:
    from .. import api
    from ..core.glyphs import normalize_entry
    from ..formats.documents import freeform_to_dict
    from ..layout.sheets import alphabet_of, numbered_entries, word_search
    from ..words.lexicon import Lexicon
    from .models import MAX_WEB_GRID_SIDE

    entries = request["entries"]
    lexicon = Lexicon.from_words([e["word"] for e in entries], name="pasted words")
    for entry in entries:
        key = normalize_entry(entry["word"])
        if entry["clue"].strip() and key:
            lexicon.clues[key] = entry["clue"].strip()
    if not len(lexicon):
        raise InputError("none of the words can go in a crossword", "entries")
    result = api.freeform(
        lexicon,
        rows=request["rows"],
        cols=request["cols"],
        symmetric=request["symmetric"],
        max_side=MAX_WEB_GRID_SIDE,  # the page edits, saves and prints boards up to this size
        time_limit=request["time_limit"],
        seed=request["seed"],
        stop=stop,
        progress=progress,
    )
    words = result.placed + result.failed
    numbered = numbered_entries(result.grid, result.cells, lexicon)
    search = tuple(tuple(row) for row in word_search(result.cells, alphabet_of(words), random.Random(request["seed"])))
    return freeform_to_dict(
        result,
        entries=numbered,
        words_listed=len(words),
        symmetric=request["symmetric"],
        wordsearch=search,
        show=lexicon.display_form,
    )
