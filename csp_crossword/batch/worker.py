"""What a batch worker does with one job: load the words (once per worker), run the library
call, and hand back the result file's bytes with a summary.

Workers write nothing: the driver writes each file atomically into the output folder and checks
it (:mod:`csp_crossword.batch.runner`), so a worker on another machine (Ray) needs no shared disk
for its results. A job's failure is a :class:`JobOutcome` with status ``failed`` and the reason,
never an exception out of :func:`run_job`.
"""

from __future__ import annotations

import os
import socket
import time
import traceback
from dataclasses import dataclass, field, replace
from typing import Any

from ..api.word_sources import WordCache as WordCache  # its earlier home was here
from ..api.word_sources import worker_cache
from ..core.errors import InputError, LoadTimeout
from .spec import BatchJob

#: Status of a job that raised (bad input, a wrong fill caught by the verifier, a crash).
FAILED = "failed"


@dataclass
class JobOutcome:
    """A job's answer, as it travels back to the driver.

    Attributes:
        id: The job's id.
        status: A :class:`~csp_crossword.core.result.Status` value (``filled``, ``optimal``,
            ``unsatisfiable``, ``timeout``, ``interrupted``) or ``failed``.
        seconds: Wall time of the job in the worker, word list load included.
        data: The result file's contents (None when there is no full fill).
        summary: Facts for the manifest (entries, mean score, weakest entries, ...).
        reason: Why there is no result file (the verifier's complaint, the error, the proof).
        worker: ``host:pid`` of the worker process.
    """

    id: str
    status: str
    seconds: float
    data: bytes | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    worker: str = ""


def run_job(job: BatchJob) -> JobOutcome:
    """Run ``job`` in this process: the library call, the puzzle file's bytes and a summary."""
    started = time.monotonic()
    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        status, data, summary, reason = _RUNNERS[job.kind](job, started)
    except InputError as error:
        status, data, summary, reason = FAILED, None, {}, str(error)
    except LoadTimeout as late:
        status, data, summary, reason = "timeout", None, {}, str(late)
    except Exception as error:  # a bug or a wrong fill: recorded, the batch goes on
        where = traceback.extract_tb(error.__traceback__)[-1]
        place = f" ({os.path.basename(where.filename)}:{where.lineno})"
        status, data, summary, reason = FAILED, None, {}, f"{type(error).__name__}: {error}{place}"
    return JobOutcome(job.id, status, time.monotonic() - started, data, summary, reason, worker)


_Ran = tuple[str, bytes | None, dict[str, Any], str | None]


def _fill(job: BatchJob, started: float) -> _Ran:
    from .. import api

    if job.grid_path is None:
        raise InputError(f"fill job {job.id} names no grid")
    grid_file = api.open_grid(job.grid_path, rtl=job.settings.get("lang") == "ar")
    source = job.words
    if source.spelling == "auto":  # US spellings on an American-style grid, from the built-in list
        spelling = api.resolve_spelling("auto", grid_file.grid, source.lang, own_list=bool(source.files))
        source = replace(source, spelling=spelling)
    lexicon = grid_file.words() or worker_cache().lexicon(source)
    settings = dict(job.settings)
    clues = _clue_settings(settings)
    seed = settings.pop("seed")
    result = api.fill(
        grid_file.grid,
        lexicon,
        backend_options=settings.pop("backend_options", None),
        optimize=settings.pop("optimize", False),
        strategy=settings.pop("strategy", "quality"),
        time_limit=job.time_limit,
        deadline=_deadline(job, started),
        seed=seed,
        exact=grid_file.fill_in is not None,
        **settings,
    )
    summary = _fill_summary(result)
    if not result.status.has_fill or result.cells is None:
        return result.status.value, None, summary, result.reason or _no_fill(result.status.value, job)
    puzzle = _with_clues(api.fill_puzzle(grid_file, lexicon, result), clues, summary)
    return result.status.value, _dumps(job, puzzle), summary, None


def _generate(job: BatchJob, started: float) -> _Ran:
    from .. import api
    from ..formats import puzzle_from_fill
    from ..words.numeric import products_lexicon

    settings = dict(job.settings)
    clues = _clue_settings(settings)
    rows, cols = settings.pop("size")
    numeric = settings.get("numeric", False)
    source = job.words
    if source.spelling == "auto":  # a generated pattern is American-style: US spellings, built-in list
        source = replace(source, spelling="us" if source.lang == "en" and not source.files else "any")
    words = None if numeric else worker_cache().lexicon(source)
    settings.setdefault("style", "open" if numeric else "american")
    # the puzzle written gets every clue: only entries a clue source has (as generate -o)
    allow_unclued = settings.pop("allow_unclued", False)
    clued_by = None if numeric or allow_unclued else _clue_chain(clues) or None
    made = api.generate(
        rows,
        cols,
        words,
        time_limit=job.time_limit,
        deadline=_deadline(job, started),
        clued_by=clued_by,
        **settings,
    )
    result = made.result
    summary = {**_fill_summary(result), "method": made.method, "patterns_tried": made.patterns_tried}
    if not result.status.has_fill or result.cells is None:
        return result.status.value, None, summary, result.reason or _no_fill(result.status.value, job)
    # a numeric fill's clues ("7×8 or 4×14") are its lexicon's
    puzzle = puzzle_from_fill(made.grid, result.cells, products_lexicon() if numeric else words)
    return result.status.value, _dumps(job, _with_clues(puzzle, clues, summary)), summary, None


def _freeform(job: BatchJob, started: float) -> _Ran:
    from .. import api
    from ..formats import Puzzle
    from ..layout.sheets import numbered_entries

    settings = dict(job.settings)
    clues = _clue_settings(settings)
    lexicon = worker_cache().lexicon(job.words)
    size = settings.pop("size", None)
    rows, cols = size if size else (None, None)
    for unused in ("lang", "min_score", "allow_duplicates", "no_shared_substring", "allow_shared_roots"):
        settings.pop(unused, None)  # word-list settings of the other kinds
    result = api.freeform(
        lexicon, rows=rows, cols=cols, time_limit=job.time_limit, deadline=_deadline(job, started), **settings
    )
    summary = {"placed": len(result.placed), "not_placed": len(result.failed), "crossings": result.crossings}
    if len(result.placed) < 2:
        return "timeout", None, summary, "no two words of the list could be laid out together"
    entries = numbered_entries(result.grid, result.cells, lexicon)
    given = {e["id"]: e["clue"] for e in entries if e["clue"]}
    board = Puzzle(result.grid, solution=result.cells, clues=given, freeform=True)
    return "filled", _dumps(job, _with_clues(board, clues, summary)), summary, None


_RUNNERS = {"fill": _fill, "generate": _generate, "freeform": _freeform}


def _clue_settings(settings: dict[str, Any]) -> tuple[str, str | None]:
    """The job's ``clues`` and ``clue_db``, taken out of its settings for the library call."""
    from ..clues.chain import DEFAULT_KIND

    return settings.pop("clues", DEFAULT_KIND), settings.pop("clue_db", None)


def _clue_chain(clues: tuple[str, str | None]) -> list[Any]:
    from ..clues.chain import clue_sources

    kind, database = clues
    return clue_sources(kind, database=database)


def _with_clues(puzzle: Any, clues: tuple[str, str | None], summary: dict[str, Any]) -> Any:
    """``puzzle`` with its empty clues filled from the job's clue sources (the word list's come
    first); the summary counts where they came from and names the slots left empty."""
    from ..clues.chain import fill_clues

    report = fill_clues(puzzle, _clue_chain(clues))
    summary["clues"] = {"list": report.kept, **report.added}
    summary["clues_empty"] = report.empty
    return puzzle


def _deadline(job: BatchJob, started: float) -> float:
    """The job's deadline: its time limit holds for the whole job, loading included. The library
    call gets the limit itself too, never the time left after loading, so that a budget counted
    from it (freeform's steps) is the same whatever the load took: a job's result depends on its
    inputs and seed, not on the worker's load or the jobs it ran before."""
    return started + job.time_limit


def _dumps(job: BatchJob, puzzle: Any) -> bytes:
    from ..formats import FILE_FORMATS

    data = FILE_FORMATS["." + job.format].dumps(puzzle)
    return data.encode("utf-8") if isinstance(data, str) else data


def _fill_summary(result: Any) -> dict[str, Any]:
    summary: dict[str, Any] = {"backend": result.backend, "nodes": result.stats.nodes}
    if result.entries:
        summary.update(
            entries=len(result.entries),
            mean_score=result.mean_score,
            weakest=[f"{e.answer} ({e.score})" for e in result.weakest()],
        )
    return summary


def _no_fill(status: str, job: BatchJob) -> str:
    if status == "timeout":
        return f"no full fill within {job.time_limit:g} s"
    if status == "interrupted":
        return "stopped before a full fill"
    return "no fill exists"


__all__ = ["FAILED", "JobOutcome", "run_job"]
