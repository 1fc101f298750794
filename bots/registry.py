"""Bot policies by name, for the command line, tables and tournaments.

A function, not a module-level registry: callers ask for a policy by game and name and get a
picklable callable. Imports happen on demand so that asking for a cheap bot never loads the
solver.
"""

from collections.abc import Callable
from typing import Any

__all__ = ["SKAT_POLICIES", "TICHU_POLICIES", "skat_policy", "tichu_policy"]

SKAT_POLICIES = ("random", "greedy")
TICHU_POLICIES = ("random", "greedy", "classic", "strong")


def skat_policy(name: str) -> Callable[..., Any]:
    """The Skat policy called `name`; raises ValueError naming the known ones."""
    if name == "random":
        from bots.skat.baseline import random_policy

        return random_policy
    if name == "greedy":
        from bots.skat.greedy import greedy_policy

        return greedy_policy
    raise ValueError(f"unknown Skat bot {name!r}; known: {', '.join(SKAT_POLICIES)}")


def tichu_policy(name: str) -> Callable[..., Any]:
    """The Tichu policy called `name`; raises ValueError naming the known ones."""
    if name == "random":
        from bots.tichu.baseline import random_policy

        return random_policy
    if name == "greedy":
        from bots.tichu.baseline import greedy_policy

        return greedy_policy
    if name == "classic":
        from bots.tichu.classic import ClassicPolicy

        return ClassicPolicy()
    if name == "strong":
        from bots.tichu.strong import StrongPolicy

        return StrongPolicy()
    raise ValueError(f"unknown Tichu bot {name!r}; known: {', '.join(TICHU_POLICIES)}")
