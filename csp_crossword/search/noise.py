"""The seeded noise of the search's value order, the same in Python and in the compiled core.

A counter-based generator (the SplitMix64 output function over seed + k x the golden ratio
constant; Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
the k-th uniform number depends only on the seed and k, so numpy can draw a whole array at
once and the C core (``kernel/values.c``) draws the very same numbers one by one. A draw is
2 x (u1 + u2 + u3) - 3: mean 0, standard deviation 1, bell-shaped, computed with additions
only, so every implementation gives the same doubles (a logarithm or a cosine could differ in
its last bit between libm and numpy).

>>> noise = Noise(7)
>>> first = [noise.draw() for _ in range(3)]
>>> again = Noise(7).draws(3).tolist()
>>> first == again
True
"""

from __future__ import annotations

from typing import Any

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB
#: Uniforms per draw.
PER_DRAW = 3


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * MIX_1) & MASK
    z = ((z ^ (z >> 27)) * MIX_2) & MASK
    return z ^ (z >> 31)


class Noise:
    """The generator of one search, seeded."""

    def __init__(self, seed: int):
        self.key = seed & MASK
        self.counter = 0

    def _uniform(self) -> float:
        self.counter += 1
        return (_mix((self.key + self.counter * GOLDEN) & MASK) >> 11) * 2.0**-53

    def draw(self) -> float:
        a = self._uniform()
        b = self._uniform()
        c = self._uniform()
        return 2.0 * ((a + b) + c) - 3.0

    def draws(self, n: int) -> Any:
        """The next ``n`` draws as a numpy array (the same numbers as n calls of :meth:`draw`)."""
        import numpy as np

        k = np.arange(self.counter + 1, self.counter + 1 + PER_DRAW * n, dtype=np.uint64)
        self.counter += PER_DRAW * n
        with np.errstate(over="ignore"):
            z = np.uint64(self.key) + k * np.uint64(GOLDEN)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX_1)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX_2)
            z = z ^ (z >> np.uint64(31))
        uniforms = (z >> np.uint64(11)).astype(np.float64) * 2.0**-53
        triples = uniforms.reshape(n, PER_DRAW)
        return 2.0 * ((triples[:, 0] + triples[:, 1]) + triples[:, 2]) - 3.0
