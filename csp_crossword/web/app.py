"""The web constructor's routes (FastAPI). See docs/web.md for the API.

Solver work goes to the :class:`~.jobs.JobPool`; quick requests run on threads, at most
:data:`MAX_QUICK_REQUESTS` at once (429 beyond). Every request passes
:class:`~.security.RequestGuard` first (allowed host names, the origin of state-changing requests,
the body limit, security headers); bad input is a 4xx ``{"detail": ...}`` that says what is wrong
and never quotes a large input back.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any, TypeVar

from fastapi import FastAPI, File, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..backends.base import MAX_SEED
from ..core.errors import InputError, LoadTimeout
from . import pages, puzzle_files
from .apidocs import docs_page
from .freeform_api import add_routes as add_freeform_routes
from .freeform_api import print_word_search
from .jobs import Job, JobPool, PoolFull
from .models import (
    MAX_TIME_LIMIT,
    MAX_WEB_GRID_SIDE,
    CandidatesRequest,
    CluesRequest,
    ClueSuggestRequest,
    FillabilityRequest,
    GridRequest,
    JobRequest,
    PrintRequest,
    SaveRequest,
)
from .overrides_api import add_routes as add_override_routes
from .patterns import PatternLibrary, add_pattern_routes
from .quick_gate import Busy, QuickGate, Superseded
from .security import RequestGuard, allowed_names
from .wordlists import MAX_UPLOAD_BYTES, ClientLists, WordListStore

#: The largest request body, in bytes: a word-list upload plus its form fields on the upload
#: routes, and any other body (a 25x25 puzzle with long clues is well under 1 MB).
MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
MAX_JSON_BODY_BYTES = 4 * 1024 * 1024
UPLOAD_PATHS = frozenset({"/api/wordlists", "/api/open"})
#: Quick requests (analysis, candidates, files) served at once, and how many more may wait for
#: them; beyond that, 429. They share one interpreter lock: more at once would only make each
#: one slower, and a short wait keeps the answers quick (a page asks for several at a time).
#: benchmarks/web_load.py, 20 candidate clients beside 8 fill clients: 6 waiting gave a median
#: of 310 ms, 2 waiting 145 ms.
MAX_QUICK_REQUESTS = 2
MAX_QUICK_WAITING = 2
#: Fillability requests (one per edit while the user types) have a line of their own, so a
#: candidates look-ahead never holds them up: this many at once and waiting. A page holds one
#: place in line at most (a newer request of the page's replaces its older one).
MAX_FILLABILITY_REQUESTS = 1
MAX_FILLABILITY_WAITING = 8
#: Seconds between two looks at a job for its event stream.
EVENT_POLL_SECONDS = 0.1
#: The header of a saved file's answer listing what the format left out (a JSON list of sentences).
SAVE_WARNINGS_HEADER = "X-Save-Warnings"
#: Seconds the server waits at start for its workers' warm-up before it takes requests anyway.
WARM_UP_SECONDS = 120.0
#: Seconds a client is told to wait before trying again after a 429 or 503.
RETRY_AFTER_SECONDS = 2
#: The header a page names itself by (a random token it keeps for its lifetime): uploads are its own.
CLIENT_HEADER = "x-csp-client"
MAX_CLIENT_CHARS = 64
#: A 422 reports this many problems at most, each field name and message cut to these lengths.
MAX_REPORTED_ERRORS = 5
MAX_ERROR_PART_CHARS = 64
MAX_ERROR_MESSAGE_CHARS = 300
#: The longest error text an answer carries (a message may quote a cell's value).
MAX_DETAIL_CHARS = 1000

#: A clue suggestion's source as the page labels it, by the clue chain's source name.
CLUE_SOURCE_LABELS = {"list": "your word list", "db": "your database", "builtin": "built-in", "wordnet": "WordNet"}

T = TypeVar("T")


@dataclass
class ServerState:
    """What the routes share: the job pool, the word lists, the quick-request gate and the
    pattern library."""

    pool: JobPool
    store: WordListStore
    prepared: pages.PreparedProblems = field(default_factory=pages.PreparedProblems)
    quick: QuickGate = field(default_factory=lambda: QuickGate(MAX_QUICK_REQUESTS, MAX_QUICK_WAITING))
    fillability: QuickGate = field(default_factory=lambda: QuickGate(MAX_FILLABILITY_REQUESTS, MAX_FILLABILITY_WAITING))
    patterns: PatternLibrary = field(default_factory=PatternLibrary)


def create_app(state: ServerState, hosts: frozenset[str] | None = None) -> FastAPI:
    """The app; the pool is started and stopped with it, and requests are taken once its workers
    are warm. ``hosts``: the Host names it answers to (default: the loopback names,
    :func:`~.security.allowed_names`)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.pool.start()
        # The server takes requests once its workers have loaded the list and warmed the search:
        # the first fill then costs what any other does (a cold worker's first took 3-5 s, not 1).
        await run_in_threadpool(state.pool.wait_warm, WARM_UP_SECONDS)
        try:
            yield
        finally:
            state.pool.shutdown()

    # /docs is our own page (apidocs): FastAPI's loads its scripts from a CDN.
    app = FastAPI(title="csp-crossword", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(
        RequestGuard,
        limit=MAX_BODY_BYTES,
        json_limit=MAX_JSON_BODY_BYTES,
        upload_paths=UPLOAD_PATHS,
        hosts=hosts if hosts is not None else allowed_names(),
    )
    _add_error_handlers(app)
    add_override_routes(app, state.store.overrides)
    static = resources.files("csp_crossword.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    async def quick(function: Callable[..., T], *args: Any) -> T:
        return await state.quick.run(function, *args)

    def lists_of(request: Request) -> ClientLists:
        """The word lists as the asking page sees them (its own uploads only)."""
        return state.store.for_client(client_of(request))

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static.joinpath("index.html")))

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(docs_page(app.openapi()))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """The server is up: its version, workers (and how many are warm) and jobs."""
        counts = state.pool.counts()
        return {
            "status": "ok",
            "version": __version__,
            "workers": counts["workers"],
            "warm_workers": counts["warm"],
            "jobs": {"running": counts["running"], "queued": counts["queued"]},
        }

    @app.get("/api/config")
    async def config(request: Request) -> dict[str, Any]:
        """What the page may use: limits, languages, file formats, the word lists offered to this page."""
        from ..formats import FILE_FORMATS
        from ..words.builtin import LANGUAGES

        return {
            "max_grid_side": MAX_WEB_GRID_SIDE,
            "max_time_limit": MAX_TIME_LIMIT,
            "max_seed": MAX_SEED,
            "languages": list(LANGUAGES),
            "formats": [f.name for f in FILE_FORMATS.values()],
            "wordlists": lists_of(request).offered(),
            "max_upload_bytes": MAX_UPLOAD_BYTES,
        }

    @app.post("/api/analyse")
    async def analyse(request: GridRequest) -> dict[str, Any]:
        """The grid's slots (with their cells and patterns) and statistics."""
        return await quick(lambda: pages.analyse(request.grid.to_grid()))

    @app.post("/api/candidates")
    async def candidates(request: CandidatesRequest, http: Request) -> dict[str, Any]:
        """The words that fit a slot, best first, each with its look-ahead status."""
        key = latest_key(http, "candidates")
        return await state.quick.run(pages.candidates, request, lists_of(http), state.prepared, key=key)

    @app.post("/api/fillability")
    async def fillability(request: FillabilityRequest, http: Request) -> dict[str, Any]:
        """Per slot the words left after arc consistency, and the slots no fill can satisfy."""
        key = latest_key(http, "fillability")
        return await state.fillability.run(pages.fillability, request, lists_of(http), state.prepared, key=key)

    @app.post("/api/clues")
    async def clues(request: CluesRequest, http: Request) -> dict[str, Any]:
        """The word list's clue of every complete entry that has one."""
        return await quick(pages.clues, request, lists_of(http))

    @app.post("/api/clues/suggest")
    async def clue_suggestions(request: ClueSuggestRequest, http: Request) -> dict[str, Any]:
        """Clues for one entry, best first: the word list's, the clue database's, the built-in
        ones; each with its rank, the source that gave it and a label saying so."""
        return await quick(ranked_clue_suggestions, request, lists_of(http))

    @app.post("/api/jobs", status_code=202)
    async def submit(body: JobRequest, http: Request) -> dict[str, Any]:
        """Start a job (fill, check, count, freeform, generate): 202 with the job to follow."""
        request = body.root
        source = None
        if request.kind != "freeform":
            grid = None
            if request.kind != "generate":  # a generate job makes its grid
                grid = request.grid.to_grid()  # a malformed grid is the request's fault: 400 now, not a failed job
            source = lists_of(http).source(request.words, request.lang, request.allow_offensive, request.overrides)
            source = replace(source, spelling=request.kept_spelling(grid))
        payload = request.model_dump()
        if request.kind == "generate":  # a fill of clued entries reads the server's clue database
            payload["clue_db"] = lists_of(http).clue_db
        job = state.pool.submit(request.kind, payload, source, request.time_limit)
        return job.to_dict()

    @app.get("/api/jobs/{job_id}")
    async def job_status(job_id: str) -> dict[str, Any]:
        """A job's state, progress, result or error, and its times."""
        job: Job = _job(state, job_id)
        return job.to_dict()

    @app.delete("/api/jobs/{job_id}")
    async def cancel(job_id: str) -> dict[str, Any]:
        """Ask a job to stop: it ends with its best result so far."""
        _job(state, job_id)
        job = state.pool.cancel(job_id)
        assert job is not None  # it was there a moment ago; finished jobs stay for a while
        return job.to_dict()

    @app.get("/api/jobs/{job_id}/events")
    async def events(job_id: str, request: Request) -> StreamingResponse:
        """A job's progress as server-sent events, then its end."""
        job = _job(state, job_id)

        async def stream() -> AsyncIterator[str]:
            seen = -1
            while True:
                if await request.is_disconnected():
                    return
                version, finished = job.version, job.finished
                if version != seen:
                    seen = version
                    if finished:
                        yield f"event: done\ndata: {json.dumps(job.to_dict())}\n\n"
                        return
                    yield f"event: progress\ndata: {json.dumps({'state': job.state, 'progress': job.progress})}\n\n"
                await asyncio.sleep(EVENT_POLL_SECONDS)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    @app.post("/api/wordlists")
    async def upload_list(http: Request, file: UploadFile = File(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's way
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        name = file.filename or "upload.txt"
        list_id, lexicon, warnings = await quick(lists_of(http).add_upload, name, data)
        return {"id": list_id, "name": name, "entries": len(lexicon), "warnings": warnings}

    @app.post("/api/open")
    async def open_file(file: UploadFile = File(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's way
        data = await file.read(puzzle_files.MAX_PUZZLE_FILE_BYTES + 1)
        return await quick(puzzle_files.open_puzzle, file.filename or "upload", data)

    @app.post("/api/save")
    async def save(request: SaveRequest) -> Response:
        """The puzzle as a file in the format asked for, as a download."""
        """Read a crossword file (.puz, .ipuz, .xd, .json, .txt) into the page's puzzle shape."""
        """Upload a word list for this page (the page's own: no other page sees it)."""
        data, name, losses = await quick(puzzle_files.save, request.puzzle, request.format)
        # What the format could not carry (JSON list of sentences, ASCII-escaped): the page shows it.
        headers = {"Content-Disposition": puzzle_files.attachment(name), SAVE_WARNINGS_HEADER: json.dumps(losses)}
        return Response(data, media_type="application/octet-stream", headers=headers)

    @app.post("/api/print")
    async def print_page(request: PrintRequest) -> Response:
        """The printed page (PDF, SVG or HTML), the answer key, a word search or a playable page."""
        if request.wordsearch is not None:  # freeform mode's word-search sheet
            sheet, media_type = await quick(print_word_search, request)
            return Response(sheet, media_type=media_type)
        data = await quick(puzzle_files.render, request.puzzle, request.format, request.solution)
        html = "text/html; charset=utf-8"
        media = {"pdf": "application/pdf", "svg": "image/svg+xml", "html": html, "play": html}
        # The playable page is a file to hand out, not a page to show: a download named by the title.
        play = request.format == "play"
        headers = {
            "Content-Disposition": puzzle_files.attachment(puzzle_files.download_name(request.puzzle.title, "html"))
        }
        return Response(data, media_type=media[request.format], headers=headers if play else None)

    add_pattern_routes(app, state.patterns)
    add_freeform_routes(app, quick, lists_of)
    return app


def ranked_clue_suggestions(request: ClueSuggestRequest, lists: ClientLists | WordListStore) -> dict[str, Any]:
    """:func:`.pages.clue_suggestions` (best first, the clue chain's order), each suggestion with
    ``rank`` (1: the best), ``suggested`` (true for the first alone), ``kind`` (the chain source
    that gave it: ``list``, ``db``, ``builtin``, ``wordnet``) and ``label`` (that source as the page
    shows it: "your database · 3 puzzles", "built-in")."""
    from ..clues.chain import ListClues, clue_sources, suggest

    data = pages.clue_suggestions(request, lists)
    rows = data["suggestions"]
    # each source alone, in the chain's order: the first to give a (clue, source text) gave it
    kinds: dict[tuple[str, str], str] = {}
    if rows:
        lexicon = lists.lexicon(request.words, request.lang, request.allow_offensive, overrides=request.overrides)
        for source in [ListClues(lexicon), *clue_sources("db", database=lists.clue_db)]:
            for found in suggest(data["entry"], [source], request.limit):
                kinds.setdefault((found.clue, found.source), source.name)
            if all((row["clue"], row["source"]) in kinds for row in rows):
                break
    for rank, row in enumerate(rows, 1):
        kind = kinds.get((row["clue"], row["source"]), "")
        row.update(rank=rank, suggested=rank == 1, kind=kind, label=clue_source_label(kind, row))
    return data


def clue_source_label(kind: str, row: dict[str, Any]) -> str:
    """A suggestion's source in a few words: the chain source's label (:data:`CLUE_SOURCE_LABELS`),
    with the number of puzzles that used the clue for the database's."""
    label = CLUE_SOURCE_LABELS.get(kind)
    if label is None:
        return str(row["source"])
    if kind == "db":
        uses = int(row.get("uses") or 1)
        return f"{label} · {uses} {'puzzle' if uses == 1 else 'puzzles'}"
    return label


def _job(state: ServerState, job_id: str) -> Job:
    job = state.pool.get(job_id)
    if job is None:
        raise _NotFound(f"no job {job_id!r} (finished jobs are kept for a while, then forgotten)")
    return job


class _NotFound(Exception):
    pass


def _add_error_handlers(app: FastAPI) -> None:
    def handler(status: int, retry: bool = False) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
        async def answer(request: Request, error: Exception) -> JSONResponse:
            headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if retry else None
            detail = _cut(str(error) or type(error).__name__, MAX_DETAIL_CHARS)
            return JSONResponse({"detail": detail}, status_code=status, headers=headers)

        return answer

    app.add_exception_handler(InputError, handler(400))
    app.add_exception_handler(LoadTimeout, handler(400))
    app.add_exception_handler(_NotFound, handler(404))
    app.add_exception_handler(Busy, handler(429, retry=True))
    app.add_exception_handler(Superseded, handler(409))
    app.add_exception_handler(PoolFull, handler(503, retry=True))

    async def invalid(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        # Where and what, never the input itself: a 30 MB field must not come back as a 30 MB answer.
        errors = [_validation_error(item) for item in error.errors()[:MAX_REPORTED_ERRORS]]
        places = [".".join(str(part) for part in e["loc"] if part != "body") or "body" for e in errors]
        problems = [f"{place}: {e['msg']}" for place, e in zip(places, errors, strict=True)]
        return JSONResponse({"detail": "; ".join(problems), "errors": errors}, status_code=422)

    app.add_exception_handler(RequestValidationError, invalid)


def _validation_error(item: Any) -> dict[str, Any]:
    """One validation error as the API reports it: its place, message and type, each cut short."""
    loc = [part if isinstance(part, int) else _cut(str(part), MAX_ERROR_PART_CHARS) for part in item.get("loc", ())]
    message = _cut(str(item.get("msg", "invalid")), MAX_ERROR_MESSAGE_CHARS)
    return {"loc": loc, "msg": message, "type": str(item.get("type", ""))}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def latest_key(request: Request, route: str) -> str | None:
    """The key of a request only its page's newest of the route matters for (None: a client that
    names itself not, a script: every request of its is answered)."""
    client = client_of(request)
    return f"{client}:{route}" if client else None


def client_of(request: Request) -> str:
    """The asking page's name (its ``X-CSP-Client`` header), or "" for a client that gives none
    or one that is not a short token."""
    value = request.headers.get(CLIENT_HEADER, "")
    return value if len(value) <= MAX_CLIENT_CHARS and value.replace("-", "").isalnum() else ""
