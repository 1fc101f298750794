"""Work other than play decisions that the bot pool runs in its workers, by name.

A task is looked up in the worker (its imports happen there, never in the server: the deal
analysis loads the solver) and called with a payload of engine types and plain data and a
seed. What comes back is plain data too (JSON bytes for the analysis), so the server never
has to import the module that made it. Play decisions always go first (`bots.pool`).

Deal analysis (`bots.skat.analysis`), a finished Skat `State` in every payload, the budget
as (card worlds, skat worlds):
* `skat_analysis_steps` (state) -> the number of steps;
* `skat_analysis_step` (state, step index, budget) -> the step's part, JSON;
* `skat_analysis_assemble` (state, parts as JSON, budget) -> the analysis, JSON.
"""

from typing import Any

__all__ = ["TASKS", "run_task"]

TASKS = ("skat_analysis_steps", "skat_analysis_step", "skat_analysis_assemble")


def run_task(name: str, payload: Any, seed: int) -> Any:
    """Run task `name` on `payload`; raises ValueError for an unknown task."""
    if name not in TASKS:
        raise ValueError(f"unknown task {name!r}; known: {', '.join(TASKS)}")
    import msgspec

    from bots.skat.analysis import Budget, Part, assemble, run_step, steps_of

    if name == "skat_analysis_steps":
        return len(steps_of(payload))
    final, detail, (card_worlds, skat_worlds) = payload
    budget = Budget(card_worlds=card_worlds, skat_worlds=skat_worlds)
    if name == "skat_analysis_step":
        return msgspec.json.encode(run_step(final, steps_of(final)[detail], budget, seed))
    parts = [msgspec.json.decode(raw, type=Part) for raw in detail]
    return msgspec.json.encode(assemble(final, parts, budget, seed))
