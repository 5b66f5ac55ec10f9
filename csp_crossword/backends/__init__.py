"""Backend registry: name -> backend class, imported lazily; the first entry is the default.

>>> names()[0]
'ac'
>>> get_backend("ac").name
'ac'
"""

from __future__ import annotations

import importlib

from .base import Backend

#: Backend name -> "module:Class". The first entry is the default backend.
REGISTRY: dict[str, str] = {
    "ac": "csp_crossword.backends.ac:ACBackend",
    "auto": "csp_crossword.backends.auto:AutoBackend",
    "cpsat": "csp_crossword.backends.cpsat:CpSatBackend",
    "pyconstraint": "csp_crossword.backends.pyconstraint:PyConstraintBackend",
}

DEFAULT = next(iter(REGISTRY))


def names() -> list[str]:
    return list(REGISTRY)


def get_backend(name: str) -> type[Backend]:
    """The backend class registered under ``name`` (KeyError when there is none)."""
    module_name, _, class_name = REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module_name), class_name)
