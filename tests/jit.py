"""Tests that solve whole deals need the JIT: with `NUMBA_DISABLE_JIT=1` (the coverage job of
HOUSE_STYLE H6) they would run for hours, so they are skipped there."""

import numba
import pytest

__all__ = ["needs_jit"]

needs_jit = pytest.mark.skipif(
    bool(numba.config.DISABLE_JIT), reason="solves whole deals: too slow without the JIT"
)
