"""Seeded random number generators: the only way the engines and bots draw randomness.

There is no global RNG anywhere; every caller passes a `numpy.random.Generator` or a seed.
"""

import numpy as np

__all__ = ["fresh_seed", "make_rng", "make_stream_rng", "shuffled"]

_SEED_BITS = 63  # seeds travel as JSON integers: keep them in int64


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator from `seed` (None draws fresh entropy)."""
    return np.random.default_rng(seed)


def make_stream_rng(seed: int, *stream: int) -> np.random.Generator:
    """An independent generator for the sub-stream `stream` of `seed` (e.g. one per round).

    Each stream is a pure function of (seed, stream), so a consumer can recreate any of them
    without replaying the others.
    """
    # what default_rng builds from a SeedSequence, without its dispatch (a deal per round)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=stream)))


def fresh_seed() -> int:
    """A new random seed from operating-system entropy (for games started without a seed)."""
    entropy = np.random.SeedSequence().entropy
    if not isinstance(entropy, int):  # numpy documents an int when drawn from the OS
        raise TypeError("unexpected SeedSequence entropy")
    return entropy % (1 << _SEED_BITS)


def shuffled(items: list[int], rng: np.random.Generator) -> list[int]:
    """A uniformly shuffled copy of `items`."""
    order = rng.permutation(len(items))
    return [items[int(i)] for i in order]
