"""The web constructor's routes (FastAPI). See docs/web.md for the API.

Solver work goes to the :class:`~.jobs.JobPool`; quick requests run on threads, at most
:data:`MAX_QUICK_REQUESTS` at once (429 beyond). Bodies are capped by :class:`BodyLimit` (413);
bad input is a 4xx ``{"detail": ...}`` that says what is wrong.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

from fastapi import FastAPI, File, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..core.errors import InputError, LoadTimeout
from . import pages
from .jobs import Job, JobPool, PoolFull
from .models import (
    MAX_TIME_LIMIT,
    MAX_WEB_GRID_SIDE,
    CandidatesRequest,
    CluesRequest,
    GridRequest,
    JobRequest,
    PrintRequest,
    SaveRequest,
)
from .wordlists import MAX_UPLOAD_BYTES, WordListStore

#: The largest request body, in bytes (a word-list upload plus its form fields).
MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
#: Quick requests (analysis, candidates, files) served at once, and how many more may wait for
#: them; beyond that, 429. They share one interpreter lock: more at once would only make each
#: one slower, and a short wait keeps the answers quick (a page asks for several at a time).
#: benchmarks/web_load.py, 20 candidate clients beside 8 fill clients: 6 waiting gave a median
#: of 310 ms, 2 waiting 145 ms.
MAX_QUICK_REQUESTS = 2
MAX_QUICK_WAITING = 2
#: Seconds between two looks at a job for its event stream.
EVENT_POLL_SECONDS = 0.1
#: Seconds a client is told to wait before trying again after a 429 or 503.
RETRY_AFTER_SECONDS = 2

T = TypeVar("T")


@dataclass
class ServerState:
    """What the routes share: the job pool, the word lists and the quick-request gate."""

    pool: JobPool
    store: WordListStore
    prepared: pages.PreparedProblems = field(default_factory=pages.PreparedProblems)
    quick: QuickGate = field(default_factory=lambda: QuickGate(MAX_QUICK_REQUESTS, MAX_QUICK_WAITING))


class Busy(Exception):
    """Too many quick requests at once."""


class QuickGate:
    """At most ``running`` quick requests at once and ``waiting`` more in line (:class:`Busy`
    beyond). Used from the event loop only."""

    def __init__(self, running: int, waiting: int):
        self.slots = asyncio.Semaphore(running)
        self.waiting = waiting
        self.in_line = 0

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        if self.slots.locked():
            if self.in_line >= self.waiting:
                raise Busy("the server is busy: try again in a moment")
            self.in_line += 1
            try:
                await self.slots.acquire()
            finally:
                self.in_line -= 1
        else:
            await self.slots.acquire()
        try:
            return await run_in_threadpool(function, *args)
        finally:
            self.slots.release()


class BodyLimit:
    """ASGI middleware: a request whose body is over ``limit`` bytes gets 413, whether it says
    its length up front or not."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _too_large(self.limit, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _BodyTooLarge:
            await _too_large(self.limit, send)


class _BodyTooLarge(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    body = json.dumps({"detail": f"the request body is over {limit // (1024 * 1024)} MB"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def create_app(state: ServerState) -> FastAPI:
    """The app; the pool is started and stopped with it."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.pool.start()
        try:
            yield
        finally:
            state.pool.shutdown()

    app = FastAPI(title="csp-crossword", version=__version__, lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    _add_error_handlers(app)
    static = resources.files("csp_crossword.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    async def quick(function: Callable[..., T], *args: Any) -> T:
        return await state.quick.run(function, *args)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static.joinpath("index.html")))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        counts = state.pool.counts()
        return {
            "status": "ok",
            "version": __version__,
            "workers": counts["workers"],
            "jobs": {"running": counts["running"], "queued": counts["queued"]},
        }

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        from ..formats import FILE_FORMATS
        from ..words.builtin import LANGUAGES

        return {
            "max_grid_side": MAX_WEB_GRID_SIDE,
            "max_time_limit": MAX_TIME_LIMIT,
            "languages": list(LANGUAGES),
            "formats": [f.name for f in FILE_FORMATS.values()],
            "wordlists": state.store.offered(),
            "max_upload_bytes": MAX_UPLOAD_BYTES,
        }

    @app.post("/api/analyse")
    async def analyse(request: GridRequest) -> dict[str, Any]:
        return await quick(lambda: pages.analyse(request.grid.to_grid()))

    @app.post("/api/candidates")
    async def candidates(request: CandidatesRequest) -> dict[str, Any]:
        return await quick(pages.candidates, request, state.store, state.prepared)

    @app.post("/api/clues")
    async def clues(request: CluesRequest) -> dict[str, Any]:
        return await quick(pages.clues, request, state.store)

    @app.post("/api/jobs", status_code=202)
    async def submit(body: JobRequest) -> dict[str, Any]:
        request = body.root
        source = None
        if request.kind != "freeform":
            request.grid.to_grid()  # a malformed grid is the request's fault: 400 now, not a failed job
            source = state.store.source(request.words, request.lang, request.allow_offensive)
        job = state.pool.submit(request.kind, request.model_dump(), source, request.time_limit)
        return job.to_dict()

    @app.get("/api/jobs/{job_id}")
    async def job_status(job_id: str) -> dict[str, Any]:
        job: Job = _job(state, job_id)
        return job.to_dict()

    @app.delete("/api/jobs/{job_id}")
    async def cancel(job_id: str) -> dict[str, Any]:
        _job(state, job_id)
        job = state.pool.cancel(job_id)
        assert job is not None  # it was there a moment ago; finished jobs stay for a while
        return job.to_dict()

    @app.get("/api/jobs/{job_id}/events")
    async def events(job_id: str, request: Request) -> StreamingResponse:
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
    async def upload_list(file: UploadFile = File(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's way
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        name = file.filename or "upload.txt"
        list_id, lexicon, warnings = await quick(state.store.add_upload, name, data)
        return {"id": list_id, "name": name, "entries": len(lexicon), "warnings": warnings}

    @app.post("/api/open")
    async def open_file(file: UploadFile = File(...)) -> dict[str, Any]:  # noqa: B008 - FastAPI's way
        data = await file.read(pages.MAX_PUZZLE_FILE_BYTES + 1)
        return await quick(pages.open_puzzle, file.filename or "upload", data)

    @app.post("/api/save")
    async def save(request: SaveRequest) -> Response:
        data, name = await quick(pages.save, request.puzzle, request.format)
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(data, media_type="application/octet-stream", headers=headers)

    @app.post("/api/print")
    async def print_page(request: PrintRequest) -> Response:
        data = await quick(pages.render, request.puzzle, request.format, request.solution)
        media = {"pdf": "application/pdf", "svg": "image/svg+xml", "html": "text/html; charset=utf-8"}
        return Response(data, media_type=media[request.format])

    return app


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
            return JSONResponse({"detail": str(error) or type(error).__name__}, status_code=status, headers=headers)

        return answer

    app.add_exception_handler(InputError, handler(400))
    app.add_exception_handler(LoadTimeout, handler(400))
    app.add_exception_handler(_NotFound, handler(404))
    app.add_exception_handler(Busy, handler(429, retry=True))
    app.add_exception_handler(PoolFull, handler(503, retry=True))

    async def invalid(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        problems = []
        for item in error.errors()[:5]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
        return JSONResponse(
            {"detail": "; ".join(problems), "errors": json.loads(json.dumps(error.errors(), default=str))},
            status_code=422,
        )

    app.add_exception_handler(RequestValidationError, invalid)
