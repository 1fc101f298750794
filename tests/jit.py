"""Tests that solve whole deals need the JIT: with `NUMBA_DISABLE_JIT=1` (`make unit-nojit`, part
of `make test`; docs/conventions.md section 10.6) they would run for hours, so they skip there."""

import numba
import pytest

__all__ = ["needs_jit"]

needs_jit = pytest.mark.skipif(
    bool(numba.config.DISABLE_JIT), reason="solves whole deals: too slow without the JIT"
)
