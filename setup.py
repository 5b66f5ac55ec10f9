"""The compiled parts of the package: the search core (csp_crossword/search/_kernel.c, kernel/*.c)
and the .puz checksum (csp_crossword/formats/_checksum.c).

Everything else is configured in pyproject.toml. The extensions are optional: without a C
compiler the package installs without them and runs their pure-Python references.
"""

import platform

from setuptools import Extension, setup


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
    ]
)
