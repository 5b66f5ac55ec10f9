"""The ``/api/overrides`` routes (docs/web.md "Overrides sets"): list, create, read, edit,
delete and export the named overrides sets of :mod:`.overrides`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .models import OverridesBatch, OverridesChange, OverridesCreate
from .overrides import (
    MAX_SET_ENTRIES,
    MAX_SETS,
    SET_SUFFIX,
    Change,
    OverridesStore,
    SetExists,
    SetNotFound,
    checked_name,
)


def add_routes(app: FastAPI, store: OverridesStore) -> None:
    """The ``/api/overrides`` routes (docs/web.md). File work is small and quick: the routes are
    plain functions, run on FastAPI's threads."""

    def answer(status: int) -> Any:
        async def handler(request: Request, error: Exception) -> JSONResponse:
            return JSONResponse({"detail": str(error)}, status_code=status)

        return handler

    app.add_exception_handler(SetNotFound, answer(404))
    app.add_exception_handler(SetExists, answer(409))

    def as_change(model: OverridesChange) -> Change:
        return Change(model.action, model.word, model.score)

    @app.get("/api/overrides")
    def list_sets() -> dict[str, Any]:
        return {"sets": store.summary(), "max_sets": MAX_SETS, "max_entries": MAX_SET_ENTRIES}

    @app.post("/api/overrides", status_code=201)
    def create_set(body: OverridesCreate) -> dict[str, Any]:
        store.create(body.name)
        return store.describe(body.name)

    @app.get("/api/overrides/{name}")
    def get_set(name: str) -> dict[str, Any]:
        return store.describe(checked_name(name))

    @app.delete("/api/overrides/{name}")
    def delete_set(name: str) -> dict[str, Any]:
        store.delete(checked_name(name))
        return {"deleted": name}

    @app.post("/api/overrides/{name}/entries")
    def change_one(name: str, body: OverridesChange) -> dict[str, Any]:
        store.change(checked_name(name), [as_change(body)])
        return store.describe(name)

    @app.post("/api/overrides/{name}/batch")
    def change_many(name: str, body: OverridesBatch) -> dict[str, Any]:
        store.change(checked_name(name), [as_change(c) for c in body.changes])
        return store.describe(name)

    @app.get("/api/overrides/{name}/export")
    def export_set(name: str) -> Response:
        content = store.content(checked_name(name))
        headers = {"Content-Disposition": f'attachment; filename="{name}{SET_SUFFIX}"'}
        return Response(content.data, media_type="text/plain; charset=utf-8", headers=headers)

    @app.post("/api/overrides/{name}/export")
    def export_set_post(name: str) -> Response:  # the page downloads through a POST, as for /api/save
        return export_set(name)
