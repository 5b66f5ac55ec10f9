"""Import paths of modules that now live in a stage folder keep working.

``import csp_crossword.problem`` (or ``from csp_crossword.lexicon import Lexicon``) gives the very
module object of its new home (:data:`MOVED`), so code written against the earlier flat layout,
pickles naming it and the examples in older notes still run. New code imports the new paths.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

#: Earlier import path -> the module's home now.
MOVED: dict[str, str] = {
    **{
        f"csp_crossword.{name}": f"csp_crossword.{stage}.{name}"
        for stage, names in (
            ("core", ("errors", "deadline", "limits", "files", "glyphs", "grid", "result")),
            (
                "words",
                ("lexicon", "ready_file", "builtin", "wordlists", "crossword_list", "overrides", "ngrams", "numeric"),
            ),
            (
                "search",
                ("graph", "problem", "propagation", "propagation_kernel", "lookahead", "minizinc"),
            ),
            ("strategies", ("quality", "improvement")),
            ("analysis", ("checking", "unsat_core", "counting")),
            ("formats", ("documents", "fillin")),
            ("printing", ("rendering", "page_layout", "grid_drawing")),
            ("api", ("portfolio",)),
        )
        for name in names
    },
    "csp_crossword.batch.engines": "csp_crossword.engines",
    "csp_crossword.batch.engines.local": "csp_crossword.engines.local",
    "csp_crossword.batch.engines.ray_engine": "csp_crossword.engines.ray_engine",
}


class _AliasLoader:
    """Hands out the module already imported under its new name (an importlib loader; not
    derived from ``importlib.abc.Loader``, whose import costs 10 ms of every start-up)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The module ran under its own name; running it again would make a second copy. The
        # import system has just given it the old name's spec: its own goes back, so its relative
        # imports, importlib.reload and find_spec keep seeing its real home.
        module.__spec__ = self.spec


class MovedModuleFinder:
    """Finds the earlier paths of :data:`MOVED` (and only those): an importlib meta path finder."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        home = MOVED.get(fullname)
        if home is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", _AliasLoader(home)))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once per interpreter."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())
