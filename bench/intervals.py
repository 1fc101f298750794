"""The 95 % interval the benchmarks print: mean ± 1.96 standard errors (normal over samples)."""

from collections.abc import Sequence
from typing import Final

import numpy as np

__all__ = ["mean_interval"]

Z95: Final = 1.96


def mean_interval(values: Sequence[float], *, signed: bool = False, digits: int = 3) -> str:
    """`mean ± half-width` of `values` ("-" for fewer than two); `signed` shows the sign."""
    data = np.array(values, dtype=np.float64)
    if len(data) < 2:
        return "-"
    half = Z95 * data.std(ddof=1) / np.sqrt(len(data))
    sign = "+" if signed else ""
    return f"{data.mean():{sign}.{digits}f} ± {half:.{digits}f}"
