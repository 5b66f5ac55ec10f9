"""``backends``: the solvers, their versions, abilities and options."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..backends import DEFAULT, get_backend, names
from ..backends.options import describe_options
from ..documents import to_json
from ..errors import ExitCode
from .common import Reporter


def cmd_backends(args: argparse.Namespace, reporter: Reporter) -> int:
    rows: list[dict[str, Any]] = []
    for name in names():
        cls = get_backend(name)
        available = cls.available()
        rows.append(
            {
                "name": name,
                "default": name == DEFAULT,
                "available": available,
                "version": cls.version() if available else None,
                "supports": sorted(cls.supports),
                "description": cls.description,
                "options": describe_options(cls.Options),
            }
        )
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
