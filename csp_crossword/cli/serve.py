"""``serve``: the web constructor (docs/web.md)."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import threading
import time
from typing import Any

from ..core.errors import ExitCode, InputError
from .common import Reporter

#: How often the start-up message waits to see the server listening.
ANNOUNCE_POLL_SECONDS = 0.1


def cmd_serve(args: argparse.Namespace, reporter: Reporter) -> int:
    try:
        import uvicorn

        from ..web import app, jobs, overrides, patterns, security, wordlists  # noqa: F401 (the web extra is here)
    except ImportError as error:
        raise InputError(
            f"serve needs the web extra: pip install 'csp-crossword[web]' ({error.name} is missing)"
        ) from None
    for path in args.words or []:
        if not os.path.isfile(path):
            raise InputError("no such word list", path)
    for folder in args.patterns or []:
        if not os.path.isdir(folder):
            raise InputError("no such pattern folder", folder)
    if not 0 < args.port < 65536:
        raise InputError(f"--port must be from 1 to 65535 (got {args.port})")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise InputError("--workers must be 1 or more")
    if args.overrides_dir is not None and os.path.exists(args.overrides_dir) and not os.path.isdir(args.overrides_dir):
        raise InputError("not a folder", args.overrides_dir)
    listener = bound_socket(args.host, args.port)  # a port in use is said now, not after the warm-up
    try:
        return _serve(args, reporter, listener, workers, uvicorn)
    finally:
        listener.close()


def bound_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` and ``port``, for uvicorn to listen on; InputError (exit 2)
    when the port is in use or not ours to take."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn chooses
    listener = socket.socket(family, socket.SOCK_STREAM)
    # as uvicorn sets it: a port left in TIME_WAIT by a server just stopped is free again; on
    # Linux it still refuses a port another socket listens on
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use: pick another with --port") from None
        if error.errno == errno.EACCES:
            raise InputError(f"port {port} is not open to this user: pick one above 1023 with --port") from None
        if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
            raise InputError(f"--host {host}: not an address of this machine ({error.strerror})") from None
        raise InputError(f"cannot listen on {host}:{port} ({error.strerror or error})") from None
    return listener


def _serve(args: argparse.Namespace, reporter: Reporter, listener: socket.socket, workers: int, uvicorn: Any) -> int:
    """Load the word lists and patterns, warm the solver processes up, then serve on ``listener``
    until Ctrl-C."""
    from ..web.app import ServerState, create_app
    from ..web.jobs import JobPool
    from ..web.overrides import overrides_folder
    from ..web.patterns import PatternLibrary
    from ..web.security import allowed_names
    from ..web.wordlists import WordListStore

    store = WordListStore(args.words, overrides_dir=args.overrides_dir, clue_db=args.clue_db)
    store.lexicon("builtin", "en", False)  # loaded before the first request, not during it
    for list_id, source in store.files.items():
        store.lexicon(list_id, "en", False)  # a bad --words file is reported now, not in the page
        reporter.info(f"word list {source.name}: ready")
    patterns = PatternLibrary(args.patterns)  # None: the checkout's grids/ folder when there is one
    offered = len(patterns.patterns())  # read now: a slow folder delays the start, not a request
    skipped = (
        f" ({patterns.skipped} file(s) skipped: not a grid, or larger than the page edits)" if patterns.skipped else ""
    )
    reporter.info(f"patterns: {offered} from {', '.join(str(d) for d in patterns.dirs) or 'no folder'}{skipped}")
    by_name = os.path.abspath(overrides_folder()) == store.overrides.folder  # what --overrides NAME looks in
    how = "--overrides NAME" if by_name else f"--overrides {os.path.join(store.overrides.folder, 'NAME.txt')}"
    reporter.info(f"overrides sets: {store.overrides.folder} (the CLI reads one with {how})")
    url = f"http://{page_host(args.host)}:{args.port}/"

    def ready() -> None:
        reporter.info(f"csp-crossword serving on {url} with {workers} solver process(es); Ctrl-C stops it")
        if args.open:
            import webbrowser

            webbrowser.open(url)

    hosts = allowed_names(args.allow_host, args.host)
    app = create_app(ServerState(JobPool(workers), store, patterns=patterns), hosts=hosts)
    reporter.info(f"warming up {workers} solver process(es)...")
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))

    def announce() -> None:
        # "serving" (and the browser) only once the socket listens and the workers are warm
        while not server.started and not server.should_exit:
            time.sleep(ANNOUNCE_POLL_SECONDS)
        if server.started:
            ready()

    threading.Thread(target=announce, name="csp-crossword-announce", daemon=True).start()
    server.run(sockets=[listener])
    return ExitCode.OK


def page_host(host: str) -> str:
    """The host of the page's address: a wildcard address names no host (this machine's loopback
    serves it), and an IPv6 address goes in brackets."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host
