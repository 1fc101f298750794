"""Protocol v1's messages for people's tournaments: open one, register, start, cancel, list,
and the push that tells a player his table (docs/protocol.md, "Tournaments for people").

The tournament itself travels as the `tournament` message of `watch_tournament`
(`TournamentInfo`). `server/protocol/__init__.py` joins these to `Request` and `Reply`.
"""

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from server.protocol.fields import BotLevel, GameName, PlayerName, TableId, TournamentId
from server.protocol.replies import TournamentInfo, _Reply
from server.protocol.requests import _Request

__all__ = [
    "MAX_DEALS",
    "MAX_SERIES_COUNT",
    "TOURNAMENT_REQUESTS",
    "CancelTournament",
    "CreateTournament",
    "ListTournaments",
    "RegisterTournament",
    "StartTournament",
    "TournamentList",
    "TournamentReply",
    "TournamentRequest",
    "TournamentSeat",
    "UnregisterTournament",
]

MAX_SERIES_COUNT = 12  # series (Skat) or rounds (Tichu) of one tournament
MAX_DEALS = 48  # deals per series: a Seeger-Fabian list is 36 (3-tables) or 48 (4-tables)
TournamentName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=60, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$(?!\n)")
]


class CreateTournament(_Request, tag="create_tournament"):
    """Accounts only: open a tournament that starts at `starts_at` (ISO 8601 with a time zone,
    at most a week ahead). Skat: `series` lists of `deals` deals each (36 or 48 as clubs play;
    fewer for a short round), seats drawn anew for every series, tables of `table_size` (3 or
    4). Tichu: `series` rounds of a match of `deals` deals at tables of 4, partners drawn each
    round, or with `partners` "fixed" drawn once (the first round's teams stay together and
    meet other teams). `fill_bots`: bots of `bot_level` take the places left over so every table has
    `table_size` seats (else Skat splits the field into tables of 3 and 4)."""

    name: TournamentName
    starts_at: datetime
    game: GameName = "skat"
    series: Annotated[int, msgspec.Meta(ge=1, le=MAX_SERIES_COUNT)] = 1
    deals: Annotated[int, msgspec.Meta(ge=1, le=MAX_DEALS)] = 36
    table_size: Literal[3, 4] = 3
    fill_bots: bool = True
    bot_level: BotLevel = "greedy"
    max_players: Annotated[int, msgspec.Meta(ge=3, le=64)] = 64
    partners: Literal["drawn", "fixed"] = "drawn"


class RegisterTournament(_Request, tag="register_tournament"):
    """Accounts only: play in the tournament (until it starts). Tichu with `partners`
    "fixed": `partner` names a registered player to play with; two who named each other are
    a pair and stay together, the others' partners are drawn. Registering again names
    another partner (or, without `partner`, none)."""

    tournament: TournamentId
    partner: PlayerName | None = None


class UnregisterTournament(_Request, tag="unregister_tournament"):
    """Take back one's registration (until it starts)."""

    tournament: TournamentId


class StartTournament(_Request, tag="start_tournament"):
    """The organiser only: start now instead of at `starts_at`."""

    tournament: TournamentId


class CancelTournament(_Request, tag="cancel_tournament"):
    """The organiser only: call off a tournament that has not started."""

    tournament: TournamentId


class ListTournaments(_Request, tag="list_tournaments"):
    """Every tournament, bots' and people's, newest first (a `tournament_list` reply)."""


TOURNAMENT_REQUESTS = (
    CreateTournament,
    RegisterTournament,
    UnregisterTournament,
    StartTournament,
    CancelTournament,
    ListTournaments,
)
TournamentRequest = (
    CreateTournament
    | RegisterTournament
    | UnregisterTournament
    | StartTournament
    | CancelTournament
    | ListTournaments
)


class TournamentList(_Reply, tag="tournament_list"):
    """Reply to `list_tournaments`."""

    tournaments: list[TournamentInfo]


class TournamentSeat(_Reply, tag="tournament_seat"):
    """Pushed to a registered player when a series starts: his table and seat (he `join`s
    it; a bot plays for him while he is away)."""

    tournament: str
    series: int
    table: TableId
    seat: int


TournamentReply = TournamentList | TournamentSeat
