"""Work other than play decisions that the bot pool runs in its workers, by name.

A task is looked up in the worker (its imports happen there, never in the server) and called
with a payload of plain data and a seed. Play decisions always go first (`bots.pool`).
"""

from typing import Any

__all__ = ["TASKS", "run_task"]

TASKS = ("skat_analysis_step",)


def run_task(name: str, payload: Any, seed: int) -> Any:
    """Run task `name`: `skat_analysis_step` takes (finished state, step, budget) and returns
    the step's part (`bots.skat.analysis`). Raises ValueError for an unknown task."""
    if name == "skat_analysis_step":
        from bots.skat.analysis import run_step

        final, step, budget = payload
        return run_step(final, step, budget, seed)
    raise ValueError(f"unknown task {name!r}; known: {', '.join(TASKS)}")
