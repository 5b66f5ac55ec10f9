"""The folder of every ready index and cache the word lists keep: ``$XDG_CACHE_HOME/csp-crossword``
(default ``~/.cache/csp-crossword``)."""

from __future__ import annotations

import os


def cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "csp-crossword")
