"""Benchmarks: each module prints medians and ratios; figures go in docs/benchmarks.md."""
