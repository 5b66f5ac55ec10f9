"""What keeps a local server safe from the other pages a browser has open.

A server on 127.0.0.1 is reachable from any web page the user visits: a page can post a form to
it, and with DNS rebinding (a name of the attacker's that resolves to 127.0.0.1) it can even read
the answers. So every request passes :class:`RequestGuard` (an ASGI middleware):

* its ``Host`` must be one of the allowed names (the loopback names by default, more with
  ``serve --allow-host``): a rebound name is refused;
* a state-changing request (POST, PUT, PATCH, DELETE) from a browser must come from the page
  itself: an ``Origin`` header, when present, names an allowed host; without one, a browser's
  ``Sec-Fetch-Site`` must say the request is the page's own. Scripts (httpx, curl) send neither
  header and are let through: they are not a web page in the user's browser;
* the body is at most ``limit`` bytes, counted as it comes, with or without a declared length
  (413 beyond);
* every answer carries the security headers of :data:`SECURITY_HEADERS`, among them a content
  security policy that allows the page's own files only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The names a server on the loopback interface answers to by default.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Methods that change the server's state (jobs, uploads, word lists): their origin is checked.
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Sec-Fetch-Site values of a request the page made itself (``none``: typed in the address bar).
OWN_FETCH_SITES = frozenset({"same-origin", "none"})
#: The page loads its own scripts, styles and images only; nothing may frame it. Printed pages open
#: as blob: documents, which inherit this policy: their PDF viewer is an object, allowed from blob:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self' blob:; font-src 'self'; object-src 'self' blob:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
#: The longest piece of a request an error answer quotes (a host name, an origin).
QUOTE_CHARS = 80


def host_name(value: str) -> str:
    """The name part of a Host header or an origin's netloc: no port, no brackets, lower case."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8000
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def allowed_names(extra: Iterable[str] = (), bind_host: str | None = None) -> frozenset[str]:
    """The loopback names, the ``extra`` ones and the address the server binds to (unless it is a
    wildcard address, which names no host)."""
    names = {host_name(n) for n in LOOPBACK_HOSTS}
    names.update(host_name(n) for n in extra if n.strip())
    if bind_host and bind_host not in ("0.0.0.0", "::", ""):
        names.add(host_name(bind_host))
    return frozenset(names)


def host_port(netloc: str, scheme: str = "http") -> int | None:
    """The port of a Host header or an origin's netloc (the scheme's default when none is given)."""
    netloc = netloc.strip()
    tail = netloc.rsplit("]", 1)[-1] if netloc.startswith("[") else netloc
    if tail.count(":") == 1:
        port = tail.rsplit(":", 1)[1]
        return int(port) if port.isdigit() else None
    return 443 if scheme == "https" else 80


def _quote(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "..."


class RequestGuard:
    """ASGI middleware: Host allow-list, origin check, body limit, security headers. Bodies are at
    most ``limit`` bytes on the ``upload_paths`` (files) and ``json_limit`` elsewhere."""

    def __init__(self, app: ASGIApp, limit: int, hosts: frozenset[str], json_limit: int, upload_paths: frozenset[str]):
        self.app = app
        self.upload_limit = limit
        self.json_limit = json_limit
        self.upload_paths = upload_paths
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        refusal = self.refusal(scope["method"], headers)
        if refusal is not None:
            await answer(send, *refusal)
            return
        limit = self.upload_limit if scope.get("path") in self.upload_paths else self.json_limit
        declared = headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            await answer(send, 413, too_large(limit))
            return
        if scope["method"] in STATE_CHANGING:
            # Read the whole body here, counted: an app that meets an oversized body while it
            # parses a form answers 400, and the client must hear 413 whatever the route.
            body = await self.read_body(receive, limit)
            if body is None:
                await answer(send, 413, too_large(limit))
                return
            receive = replay(body, receive)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers") or []) + list(SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, with_headers)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why a request is refused (status, reason), or None."""
        host = host_name(headers.get("host", ""))
        if host not in self.hosts:
            return 400, (
                f"this server does not answer to the host name {_quote(host)!r}; "
                "start it with --allow-host NAME to allow it"
            )
        if method not in STATE_CHANGING:
            return None
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            # Same port too: a page of another local server (a notebook on localhost:8888) is
            # another site, even on an allowed name.
            if (
                origin == "null"
                or parts.scheme not in ("http", "https")
                or host_name(parts.netloc) not in self.hosts
                or host_port(parts.netloc, parts.scheme) != host_port(headers.get("host", ""), parts.scheme)
            ):
                return 403, f"requests from another site ({_quote(origin)}) may not change this server's state"
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in OWN_FETCH_SITES:
            return 403, f"a {_quote(site)} request may not change this server's state"
        return None

    async def read_body(self, receive: Receive, limit: int) -> bytes | None:
        """The whole request body, or None once it passes the limit."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def too_large(limit: int) -> str:
    return f"the request body is over {limit // (1024 * 1024)} MB"


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives ``body`` once, then what the client sends next (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def answer(send: Send, status: int, detail: str) -> None:
    """A JSON ``{"detail": ...}`` answer, with the security headers."""
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + list(SECURITY_HEADERS)})
    await send({"type": "http.response.body", "body": body})
