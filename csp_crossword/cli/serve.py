"""``serve``: the web constructor (docs/web.md)."""

from __future__ import annotations

import argparse
import os

from ..core.errors import ExitCode, InputError
from .common import Reporter


def cmd_serve(args: argparse.Namespace, reporter: Reporter) -> int:
    try:
        import uvicorn

        from ..web.app import ServerState, create_app
        from ..web.jobs import JobPool
        from ..web.wordlists import WordListStore
    except ImportError as error:
        raise InputError(
            f"serve needs the web extra: pip install 'csp-crossword[web]' ({error.name} is missing)"
        ) from None
    for path in args.words or []:
        if not os.path.isfile(path):
            raise InputError("no such word list", path)
    if not 0 < args.port < 65536:
        raise InputError(f"--port must be from 1 to 65535 (got {args.port})")
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise InputError("--workers must be 1 or more")
    store = WordListStore(args.words)
    store.lexicon("builtin", "en", False)  # loaded before the first request, not during it
    for list_id, source in store.files.items():
        store.lexicon(list_id, "en", False)  # a bad --words file is reported now, not in the page
        reporter.info(f"word list {source.name}: ready")
    app = create_app(ServerState(JobPool(workers), store))
    url = f"http://{args.host}:{args.port}/"
    reporter.info(f"csp-crossword serving on {url} with {workers} solver process(es); Ctrl-C stops it")
    if args.open:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return ExitCode.OK
