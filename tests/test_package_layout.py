"""The package's layout is its pipeline: every module belongs to a stage folder, a stage imports
only itself and the stages before it, and no modules import each other in a circle.

Imports are read from the source (every ``import`` statement, those inside functions and under
``TYPE_CHECKING`` included), so a lazy import cannot hide a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "csp_crossword"

#: The stages in pipeline order: a module may import from its own stage and earlier ones only.
STAGES = (
    "core",
    "words",
    "verify",
    "search",
    "backends",
    "strategies",
    "analysis",
    "layout",
    "engines",
    "formats",
    "printing",
    "clues",
    "api",
    "batch",
    "web",
    "cli",
)
#: Modules outside any stage: the package's entry points (they may import any stage).
ENTRY_MODULES = {"csp_crossword", "csp_crossword.__main__", "csp_crossword.moved"}
#: About 400 lines a module at most (a little slack for a docstring or a table).
MAX_LINES = 430


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports (a ``from X import name`` of a submodule
    counts as importing that submodule)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    found.add(f"{target}.{alias.name}")
                elif target in modules:
                    found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
    found.discard(name)
    return found


def _graph() -> nx.DiGraph:
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in paths.items():
        graph.add_node(name)
        for target in _imports(path, name, set(paths)):
            graph.add_edge(name, target)
    return graph


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and module not in ENTRY_MODULES else None


def test_every_module_is_in_a_stage_folder():
    loose = [m for m in _graph() if m not in ENTRY_MODULES and _stage(m) not in STAGES]
    assert loose == []


def test_no_stage_imports_a_later_stage():
    order = {stage: k for k, stage in enumerate(STAGES)}
    wrong = []
    for source, target in _graph().edges:
        if source in ENTRY_MODULES or target == "csp_crossword":
            continue  # the entry points see every stage; the root package itself holds no code
        if target in ENTRY_MODULES or order[_stage(target)] > order[_stage(source)]:
            wrong.append(f"{source} -> {target}")
    assert wrong == []


def test_no_import_circles():
    graph = _graph()
    # ``from .. import __version__`` reads the root package, which imports nothing of the stages
    # when it loads (its API names are looked up on first use), so such an edge closes no circle.
    graph.remove_edges_from([(source, target) for source, target in graph.edges if target == "csp_crossword"])
    cycles = sorted(sorted(cycle) for cycle in nx.simple_cycles(graph))
    assert cycles == []


def test_modules_stay_small():
    long = {
        _module_name(path): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


@pytest.mark.parametrize("stage", STAGES)
def test_tests_mirror_the_package(stage):
    """Each stage folder has its test folder (tests/<stage>/)."""
    tests = PACKAGE.parent / "tests" / stage
    assert any(tests.glob("test_*.py")), f"no tests/{stage}/test_*.py"


def test_earlier_import_paths_give_the_same_modules():
    import importlib

    from csp_crossword.moved import MOVED

    for old, new in MOVED.items():
        module = importlib.import_module(old)
        assert module is importlib.import_module(new), old
        assert module.__spec__.name == new  # its own spec, so its relative imports keep working
    from csp_crossword.lexicon import Lexicon
    from csp_crossword.problem import build_problem

    assert build_problem.__module__ == "csp_crossword.search.problem"
    assert Lexicon.__module__ == "csp_crossword.words.lexicon"
    from csp_crossword.batch.worker import WordCache
    from csp_crossword.lexicon import SMALL_INDEX, STORED_BITS_RATIO, entry_glyphs

    assert entry_glyphs("CAT") == ("C", "A", "T") and SMALL_INDEX > 0 and STORED_BITS_RATIO > 0
    assert WordCache.__module__ == "csp_crossword.api.word_sources"
