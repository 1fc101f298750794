"""Time budgets for Monte Carlo decisions: solve worlds until the budget is spent.

A budget never cuts a decision below `MIN_WORLDS` worlds, so a slow machine plays weaker but
never blindly; without a budget every requested world is solved (and results depend only on
the seed).
"""

import time
from typing import Final

__all__ = ["MIN_WORLDS", "deadline_after", "out_of_time"]

MIN_WORLDS: Final = 4


def deadline_after(seconds: float | None) -> float | None:
    """The `time.perf_counter()` reading at which a budget of `seconds` ends (None: none)."""
    return None if seconds is None else time.perf_counter() + seconds


def out_of_time(deadline: float | None, solved: int) -> bool:
    """Whether to stop after `solved` worlds: the deadline passed and enough are solved."""
    return deadline is not None and solved >= MIN_WORLDS and time.perf_counter() > deadline
