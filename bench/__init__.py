"""Benchmarks: `python -m bench.<name>` prints medians and ratios; figures go to
docs/benchmarks.md. Several load the Skat solver, so its numba cache is checked first
(`bots.solver_cache`)."""

from bots.solver_cache import keep_fresh

keep_fresh()
