"""Before any test imports the Skat solver: its numba cache is dropped if a source changed
(`bots.solver_cache`), as every entry point that may load the solver does."""

from bots.solver_cache import keep_fresh

keep_fresh()
