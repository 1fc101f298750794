"""Test-session hooks."""

import pytest

from bots.solver_cache import keep_fresh


def pytest_configure(config: pytest.Config) -> None:
    """Before collection imports any test module (and so the Skat solver): drop the solver's
    numba cache if a source changed since it was written (`bots.solver_cache`), so the tests
    never run stale machine code after an edit."""
    keep_fresh()
