"""``backends``: the solvers, their versions, abilities and options."""

from __future__ import annotations

import argparse
import sys

from .. import api
from ..core.errors import ExitCode
from ..formats.documents import to_json
from .common import Reporter


def cmd_backends(args: argparse.Namespace, reporter: Reporter) -> int:
    rows = api.describe_backends()
    if args.format == "json":
        sys.stdout.write(to_json(rows))
        return ExitCode.OK
    lines = []
    for row in rows:
        mark = " (default)" if row["default"] else ""
        state = f"available, version {row['version']}" if row["available"] else "not installed"
        lines.append(f"{row['name']}{mark}: {state}; supports {', '.join(row['supports'])}")
        lines.append(f"    {row['description']}")
        if row["options"]:
            lines.append(f"    options: {'; '.join(row['options'])}")
    sys.stdout.write("\n".join(lines) + "\n")
    return ExitCode.OK
