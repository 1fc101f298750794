"""The games this server hosts, each behind one adapter (`GameKind`, `server/games/kind.py`):
`SkatGame` and `TichuGame`. Adapters are built when needed (`all_games`), never at import time."""

from collections.abc import Iterable

from server.games.kind import GameKind, GameState, TournamentPlay
from server.games.skat import SkatGame
from server.games.tichu import TichuGame

__all__ = [
    "GameKind",
    "GameState",
    "SkatGame",
    "TichuGame",
    "TournamentPlay",
    "all_games",
    "game_kind",
    "games_by_name",
]


def games_by_name(kinds: Iterable[GameKind]) -> dict[str, GameKind]:
    """Adapters keyed by name."""
    return {kind.name: kind for kind in kinds}


def all_games() -> dict[str, GameKind]:
    """An adapter of every game this server hosts, keyed by name."""
    return games_by_name([SkatGame(), TichuGame()])


def game_kind(name: str) -> GameKind:
    """The adapter of the game `name`; raises ValueError for a game this server does not host."""
    kinds = all_games()
    if name not in kinds:
        raise ValueError(f"no game {name!r}; known: {', '.join(sorted(kinds))}")
    return kinds[name]
