"""Seeded random number generators: the only way the engines and bots draw randomness.

There is no global RNG anywhere; every caller passes a `numpy.random.Generator` or a seed.
"""

import numpy as np

__all__ = ["make_rng", "shuffled"]


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator from `seed` (None draws fresh entropy)."""
    return np.random.default_rng(seed)


def shuffled(items: list[int], rng: np.random.Generator) -> list[int]:
    """A uniformly shuffled copy of `items`."""
    order = rng.permutation(len(items))
    return [items[int(i)] for i in order]
