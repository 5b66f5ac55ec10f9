"""The compiled part of the package: the search core (csp_crossword/search/_kernel.c, kernel/*.c).

Everything else is configured in pyproject.toml. The extension is optional: without a C compiler
the package installs without it and the search runs its pure-Python reference.
"""

from setuptools import Extension, setup

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
            ],
            depends=["csp_crossword/search/kernel/core.h", "csp_crossword/search/kernel/search.h"],
            # -ffp-contract=off: no fused multiply-add, so the look-ahead values are the very
            # doubles the Python reference computes (the same word order, the same fill)
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
