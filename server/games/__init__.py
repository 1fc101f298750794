"""The games this server hosts, each behind one adapter (`GameKind`, `server/games/kind.py`):
`SkatGame` and `TichuGame`. Adapters are built when needed (`all_games`), never at import time."""

from collections.abc import Iterable

from server.games.kind import (
    GameKind,
    GameState,
    Outcome,
    Schedule,
    ScheduleFlags,
    TournamentPlay,
)
from server.games.skat import SkatGame
from server.games.tichu import TichuGame
from server.protocol import GameInfo

__all__ = [
    "GameKind",
    "GameState",
    "Outcome",
    "Schedule",
    "ScheduleFlags",
    "SkatGame",
    "TichuGame",
    "TournamentPlay",
    "all_games",
    "game_info",
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


def game_info(kind: GameKind) -> GameInfo:
    """What a client needs to offer the game `kind` (`list_games`)."""
    return GameInfo(
        kind.name,
        list(kind.bots.player_levels),
        rules_label=kind.rules_label,
        rules=list(kind.rule_options),
        series=list(kind.series_choices),
        series_default=kind.series_default,
        count_unit=kind.tournament.count_unit,
        columns=list(kind.tournament.columns),
        people=kind.people,
    )
