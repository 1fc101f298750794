"""Bot policies by name, for the command line, tables and tournaments.

Functions over a constant table (`bots_of`: each game's levels and its policy lookup), not a
registry anything adds to: callers ask for a policy by game and name and get a picklable
callable. Imports happen on demand so that asking for a cheap bot never loads the solver.

Skat levels, weakest first: `beginner` (rules a learner plays by, bots.skat.beginner), `club`,
`strong`, `expert` (Monte Carlo, bots.skat.levels), and `baseline`, the former `strong` frozen
for comparisons. A Monte Carlo level's bidding strategy can be chosen by name: `LEVEL:BIDDER`
(e.g. `strong:lms`, `club:knn`) is the level with that bidder (`bots.skat.bidders`) in place of
its default. `LEVEL-counted` is the Monte Carlo level with its time budgets off: every world
it asks for is solved, so its play depends only on the seed, not on the machine's load (for
paired comparisons; not offered to tables, whose bots must answer in time).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from bots.skat.bidders import BIDDERS

__all__ = [
    "SKAT_LEVELS",
    "SKAT_MONTE_CARLO_LEVELS",
    "SKAT_PLAYER_LEVELS",
    "SKAT_POLICIES",
    "TICHU_POLICIES",
    "GameBots",
    "bots_of",
    "counted_name",
    "player_levels",
    "policy",
    "policy_names",
    "skat_policy",
    "tichu_policy",
    "warm_up",
]

SKAT_LEVELS = ("beginner", "club", "strong", "expert", "baseline")
SKAT_MONTE_CARLO_LEVELS = SKAT_LEVELS[1:]
SKAT_POLICIES = ("random", "greedy", *SKAT_LEVELS)
SKAT_LEVEL_BIDDERS = tuple(
    f"{level}:{bidder}" for level in SKAT_MONTE_CARLO_LEVELS for bidder in BIDDERS
)
COUNTED = "-counted"
TICHU_POLICIES = ("random", "greedy", "classic", "strong")
# What a player picks from (`list_games`); the other names are for tests and tournaments.
SKAT_PLAYER_LEVELS = ("random", "greedy", "beginner", "club", "strong", "expert")


def counted_name(level: str) -> str:
    """The name of `level` with its time budgets off (`LEVEL-counted`); a level without
    budgets (no Monte Carlo search, e.g. `beginner`) is its own counted variant."""
    return level + COUNTED if level in SKAT_MONTE_CARLO_LEVELS else level


def skat_policy(name: str) -> Callable[..., Any]:
    """The Skat policy called `name` (or `LEVEL:BIDDER`); raises ValueError naming the known
    ones."""
    if ":" in name:
        return _level_with_bidder(name)
    if name.endswith(COUNTED) and name.removesuffix(COUNTED) in SKAT_MONTE_CARLO_LEVELS:
        from bots.skat.levels import LEVELS

        level = LEVELS[name.removesuffix(COUNTED)]
        return msgspec.structs.replace(level, seconds=None, skat_seconds=None)
    if name == "random":
        from bots.skat.baseline import random_policy

        return random_policy
    if name == "greedy":
        from bots.skat.greedy import greedy_policy

        return greedy_policy
    if name == "beginner":
        from bots.skat.beginner import beginner_policy

        return beginner_policy
    if name in SKAT_LEVELS:
        from bots.skat.levels import LEVELS

        return LEVELS[name]
    raise ValueError(f"unknown Skat bot {name!r}; known: {', '.join(SKAT_POLICIES)}")


def _level_with_bidder(name: str) -> Callable[..., Any]:
    level, bidder = name.split(":", 1)
    if level not in SKAT_MONTE_CARLO_LEVELS:
        known = ", ".join(SKAT_MONTE_CARLO_LEVELS)
        raise ValueError(f"unknown Skat level {level!r} in {name!r}; known: {known}")
    if bidder not in BIDDERS:
        raise ValueError(f"unknown Skat bidder {bidder!r} in {name!r}; known: {', '.join(BIDDERS)}")
    from bots.skat.levels import LEVELS

    return msgspec.structs.replace(LEVELS[level], bidder=bidder)


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


def warm_up() -> None:
    """Load what the strong bots need (the solver's compiled kernels and the bidding
    knowledge base) in a worker process.

    The server process never calls this: importing the solver compiles or loads jitted code,
    which belongs in the bot pool's workers only (docs/conventions.md section 1).
    """
    from bots.skat.knowledge import load_knowledge
    from bots.skat.montecarlo import shared_solver

    shared_solver()
    load_knowledge()


@dataclass(frozen=True)
class GameBots:
    """A game's bots: every level (`names`, for tests and tournaments), the levels a player
    picks from (`player_levels`, a subset), and the policy of a level by name."""

    names: tuple[str, ...]
    player_levels: tuple[str, ...]
    policy: Callable[[str], Callable[..., Any]]


_BOTS: dict[str, GameBots] = {
    "skat": GameBots(SKAT_POLICIES + SKAT_LEVEL_BIDDERS, SKAT_PLAYER_LEVELS, skat_policy),
    "tichu": GameBots(TICHU_POLICIES, TICHU_POLICIES, tichu_policy),
}


def bots_of(game: str) -> GameBots:
    """The bots of `game`; raises ValueError for a game without bots."""
    bots = _BOTS.get(game)
    if bots is None:
        raise ValueError(f"no bots for game {game!r}")
    return bots


def policy_names(game: str) -> tuple[str, ...]:
    """The bot levels of `game` (for Skat also every `LEVEL:BIDDER`); raises ValueError for
    an unknown game."""
    return bots_of(game).names


def player_levels(game: str) -> tuple[str, ...]:
    """The bot levels a player picks from at `game` (a subset of `policy_names`); raises
    ValueError for an unknown game."""
    return bots_of(game).player_levels


def policy(game: str, name: str) -> Callable[..., Any]:
    """The policy called `name` of `game`; raises ValueError for unknown games and names."""
    return bots_of(game).policy(name)
