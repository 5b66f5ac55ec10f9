"""The compiled parts of the package: the search core (csp_crossword/search/_kernel.c, kernel/*.c)
and the .puz checksum (csp_crossword/formats/_checksum.c).

Everything else is configured in pyproject.toml. The extensions are optional: without a C
compiler the package installs without them and runs their pure-Python references.
"""

import platform
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

#: The pattern library (grids/ of the checkout) goes into the built package as csp_crossword/grids,
#: so that ``serve`` offers it after a pip install too (csp_crossword/web/patterns.py).
GRIDS = Path(__file__).resolve().parent / "grids"
GRID_FILES = ("*.txt", "*.json", "*.md")


class BuildWithPatterns(build_py):
    """build_py, with the checkout's grids/ copied into the package it builds."""

    def run(self) -> None:
        super().run()
        if not GRIDS.is_dir():  # an sdist without them: the package works, the page has none
            return
        target = Path(self.build_lib) / "csp_crossword" / "grids"
        for pattern in GRID_FILES:
            for source in GRIDS.rglob(pattern):
                destination = target / source.relative_to(GRIDS)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, destination)


def _machine_flags() -> list[str]:
    """-mpopcnt where the building machine has the instruction (every x86-64 made since about
    2008): the search counts words with it millions of times a second, and without the flag GCC
    calls a library routine instead. The package is compiled where it is installed."""
    if platform.machine() not in {"x86_64", "AMD64"}:
        return []
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            return ["-mpopcnt"] if " popcnt" in cpuinfo.read() else []
    except OSError:
        return []


setup(
    cmdclass={"build_py": BuildWithPatterns},
    ext_modules=[
        Extension(
            "csp_crossword.search._kernel",
            sources=[
                "csp_crossword/search/_kernel.c",
                "csp_crossword/search/kernel/propagate.c",
                "csp_crossword/search/kernel/values.c",
                "csp_crossword/search/kernel/learning.c",
                "csp_crossword/search/kernel/search.c",
                "csp_crossword/search/kernel/improve.c",
                "csp_crossword/search/kernel/optimum.c",
            ],
            depends=["csp_crossword/search/kernel/core.h", "csp_crossword/search/kernel/search.h"],
            # -ffp-contract=off: no fused multiply-add, so the look-ahead values are the very
            # doubles the Python reference computes (the same word order, the same fill)
            extra_compile_args=["-O3", "-ffp-contract=off", *_machine_flags()],
            optional=True,
        ),
        # the .puz checksum (csp_crossword/formats/puz_extras.py has the Python reference)
        Extension(
            "csp_crossword.formats._checksum",
            sources=["csp_crossword/formats/_checksum.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ],
)
