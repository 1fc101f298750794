"""Standings as every game reports them, typed. A finished list: each seat's `points` rank the list
and rate it (`server.ratings`). A game adds its own columns in a subclass (Skat: the
Seeger-Fabian totals, `server/games/skat.py`); encoded, a standing is the JSON object clients
and the database have always seen."""

import msgspec

__all__ = ["ListStanding", "TournamentRow"]


class ListStanding(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A seat's place in a list: `points` (higher is better), and its `team` where partners
    share a result (Tichu), None where everybody plays alone (Skat)."""

    seat: int
    points: int
    team: int | None = None


class TournamentRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player's row in a tournament's standings: `games` played (what they count is the
    game's `count_unit`), the `total` score, the `mean` per game with its 95 % confidence
    interval `ci95`. A game adds its own columns in a subclass (`TournamentPlay.columns`)."""

    player: str
    games: int
    total: int
    mean: float
    ci95: float
