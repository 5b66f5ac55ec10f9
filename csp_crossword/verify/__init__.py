"""The independent verifier: every fill is checked here before anything returns or writes it.

It reads only the grid and the word list (``core`` and ``words``), never the search's own data,
so a bug in propagation or a backend cannot vouch for itself.
"""

from .fill import pattern_problems, verify_fill

__all__ = ["pattern_problems", "verify_fill"]
