"""Statistics both games' tournament standings use: a mean's confidence interval, and the
difference between two players per deal (duplicate deals pair up)."""

import itertools
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

from server.plain import Plain

__all__ = ["ci95", "paired_differences"]

_Z95: Final = 1.96
_SPREAD: Final = 2  # values needed for a standard deviation


def ci95(values: Sequence[float]) -> float:
    """The half width of the mean's 95% confidence interval (0 for fewer than two values)."""
    if len(values) < _SPREAD:
        return 0.0
    array = np.asarray(values, dtype=np.float64)
    return float(_Z95 * array.std(ddof=1) / np.sqrt(len(array)))


def paired_differences(deals: Iterable[dict[str, list[int]]]) -> list[Plain]:
    """Per pair of players (a before b by name): a's mean score minus b's per deal, averaged
    over the deals both played, with its 95% confidence interval over deals. Each item of
    `deals` holds one deal's scores per player (in every seating it was played). Duplicate
    deals cancel the cards' luck, so this interval is far narrower than the difference of the
    two players' own intervals."""
    by_pair: dict[tuple[str, str], list[float]] = {}
    for scores in deals:
        means = {player: float(np.mean(values)) for player, values in scores.items()}
        for a, b in itertools.combinations(sorted(means), 2):
            by_pair.setdefault((a, b), []).append(means[a] - means[b])
    return [
        {"a": a, "b": b, "deals": len(diffs), "mean": float(np.mean(diffs)), "ci95": ci95(diffs)}
        for (a, b), diffs in sorted(by_pair.items())
    ]
