"""Benchmarks: `python -m bench.<name>` prints medians and ratios; figures go to
docs/benchmarks.md."""
