"""The compiled part of the package: the propagation loop (csp_crossword/search/_kernel.c).

Everything else is configured in pyproject.toml. The extension is optional: without a C compiler
the package installs without it and the search runs its pure-Python loop.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "csp_crossword.search._kernel",
            sources=["csp_crossword/search/_kernel.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
