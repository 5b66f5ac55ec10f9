"""Backend registry: name -> backend class, imported lazily; the first entry is the default.

A new backend is one module with a :class:`Backend` subclass plus one line here (or one call to
:func:`register`); every front end finds it through this table.

>>> names()[0]
'ac'
>>> get_backend("ac").name
'ac'
>>> get_backend("nope")
Traceback (most recent call last):
...
csp_crossword.core.errors.InputError: unknown backend 'nope'; choose from: ac, auto, cpsat, pyconstraint
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError

if TYPE_CHECKING:
    from .base import Backend, Enumeration, SolveCall
    from .options import NoOptions

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


def register(name: str, target: str) -> None:
    """Add a backend (``"package.module:Class"``) under ``name``; it is imported when first used."""
    REGISTRY[name] = target


def get_backend(name: str) -> type[Backend]:
    """The backend class registered under ``name`` (InputError, a clear message, when none is)."""
    if name not in REGISTRY:
        raise InputError(f"unknown backend {name!r}; choose from: {', '.join(REGISTRY)}")
    module_name, _, class_name = REGISTRY[name].partition(":")
    backend: type[Backend] = getattr(importlib.import_module(module_name), class_name)
    return backend


def backends_for(job: str) -> Iterator[str]:
    """Names of the registered backends that can do ``job`` (``fill``, ``prove``, ...)."""
    return (name for name in REGISTRY if job in get_backend(name).supports)


def __getattr__(name: str) -> Any:
    # The base classes are imported on first use: the command line's parser reads the registry's
    # names and default, and should not pay for the problem and search modules.
    if name in ("Backend", "Enumeration", "SolveCall"):
        from . import base

        return getattr(base, name)
    if name == "NoOptions":
        from .options import NoOptions

        return NoOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT",
    "REGISTRY",
    "Backend",
    "Enumeration",
    "NoOptions",
    "SolveCall",
    "backends_for",
    "get_backend",
    "names",
    "register",
]
