"""Benchmarks: `python -m bench.<name>` prints medians and ratios; figures go to
docs/benchmarks.md. Several load the Skat solver: after editing it, drop its stale numba cache
first with `make solver-cache` (`python -m bots.solver_cache`); `make bench` does. Importing a
benchmark touches no files."""
