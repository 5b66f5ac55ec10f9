"""The ``csp-crossword`` command line: the entry point.

Results go to stdout; progress, statistics, warnings and errors to stderr. The parser is in
``parser.py``, one module per command family holds the handlers (``fill``, ``analyse``:
check/slots/candidates, ``count``: count/enumerate, ``layout``: generate/freeform, ``files``:
convert/render/export, ``backends``), and ``common.py`` what they share. Handlers turn the
arguments into keyword calls of the library API (``csp_crossword.api``). Exit codes:
``errors.ExitCode`` and docs/cli.md.
"""

from __future__ import annotations

import importlib
import sys

from ..errors import ExitCode, InputError


def main(argv: list[str] | None = None) -> int:
    from .common import Reporter
    from .parser import build_parser

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse exits 2 on usage errors, 0 on --help
        return int(stop.code or 0)
    reporter = Reporter(getattr(args, "quiet", False))
    try:
        module_name, _, function_name = args.handler.partition(":")
        handler = getattr(importlib.import_module(f"{__name__}.{module_name}"), function_name)
        return int(handler(args, reporter))
    except InputError as error:
        reporter.stop()
        print(f"csp-crossword: error: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:
        reporter.stop()
        print("csp-crossword: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK


__all__ = ["main"]
