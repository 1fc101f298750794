"""Client to server: every request of the protocol, tagged by `type`."""

from typing import Annotated

import msgspec

from server.protocol.fields import (
    MAX_SERIES,
    TEXT_PATTERN,
    ActionFields,
    BotLevel,
    ChatText,
    DealNumber,
    GameName,
    Invite,
    Name,
    Password,
    PlayerName,
    RequestId,
    RuleOptions,
    Seat,
    Seq,
    TableId,
    Token,
    TournamentId,
)

__all__ = [
    "Act",
    "AddBot",
    "Analyze",
    "Chat",
    "CreateTable",
    "Hello",
    "Join",
    "Leaderboard",
    "Leave",
    "ListGames",
    "ListTables",
    "Login",
    "Ping",
    "Profile",
    "Register",
    "Rename",
    "Request",
    "Resume",
    "Watch",
    "WatchLobby",
    "WatchTournament",
]


class _Request(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    id: RequestId | None = None


class Hello(_Request, tag="hello"):
    """First message of a connection: the protocol version and, to resume, a session token.
    `bot`: the client is a program (someone's own bot); its seats show as bots and its ratings
    count as a bot's. `language`: the language the player reads (ISO 639-1, `de`, `en`); a
    new guest's name is in it (`Gast-...` for `de`, `guest-...` otherwise)."""

    version: Annotated[int, msgspec.Meta(ge=0, le=999)]
    token: Token | None = None
    bot: bool = False
    language: Annotated[str, msgspec.Meta(pattern="^[a-z]{2}$")] | None = None


class Register(_Request, tag="register"):
    """Create an account and log in as it."""

    name: Name
    password: Password


class Login(_Request, tag="login"):
    """Log in to an account."""

    name: Name
    password: Annotated[str, msgspec.Meta(max_length=128, pattern=TEXT_PATTERN)]


class Rename(_Request, tag="rename"):
    """A guest chooses the name other players see (seats already taken keep the old one)."""

    name: Name


class ListGames(_Request, tag="list_games"):
    """The games this server hosts and their bot levels."""


class ListTables(_Request, tag="list_tables"):
    """Public tables that wait for players or are being played."""


class WatchLobby(_Request, tag="watch_lobby"):
    """The public tables now (a `tables` reply), then a `lobby_table` push whenever one is
    created or changes, until the connection closes."""


class CreateTable(_Request, tag="create_table"):
    """Open a table. `rules` are the game's rule options (for Skat the fields of
    `engine.skat.rules.Rules`, `players` 3 or 4). Bots fill empty seats after
    `fill_bots_after` seconds if given. `move_seconds`: each human's time for a move, one of
    0 (no clock), 20, 40 or 120; absent, the server's default. When it runs out a bot of the
    table's level plays the seat until its owner takes it back."""

    game: GameName = "skat"
    rules: RuleOptions = msgspec.field(default_factory=dict)
    private: bool = False
    series_length: Annotated[int, msgspec.Meta(ge=1, le=MAX_SERIES)] | None = None
    fill_bots_after: Annotated[float, msgspec.Meta(ge=0, le=3600)] | None = None
    bot_level: BotLevel = "random"
    move_seconds: int | None = None


class Join(_Request, tag="join"):
    """Take a seat (the first free one if `seat` is absent); private tables need `invite`."""

    table: TableId
    seat: Seat | None = None
    invite: Invite | None = None


class Leave(_Request, tag="leave"):
    """Give up one's seat (a bot plays it for the rest of the list) or stop watching."""

    table: TableId


class Watch(_Request, tag="watch"):
    """Watch a table as a spectator: public information only."""

    table: TableId
    invite: Invite | None = None


class AddBot(_Request, tag="add_bot"):
    """Seat a bot of `level` on an empty seat."""

    table: TableId
    seat: Seat
    level: BotLevel = "random"


class Act(_Request, tag="act"):
    """A game action (the game's tagged action, e.g. `{"type": "play", "card": "JC"}`), based on
    the table state at `seq`."""

    table: TableId
    seq: Seq
    action: ActionFields


class Chat(_Request, tag="chat"):
    """Say something at the table."""

    table: TableId
    text: ChatText


class Resume(_Request, tag="resume"):
    """After a reconnect: every event of the table after `seq` (or a snapshot if too many)."""

    table: TableId
    seq: Seq


class Leaderboard(_Request, tag="leaderboard"):
    """The best rated players of a game; with `people` only those with an account (no bots,
    no guests)."""

    game: GameName = "skat"
    people: bool = False


class Profile(_Request, tag="profile"):
    """A player's ratings, their history and his latest lists (the profile page); any user's
    name, a bot level's (`bot:strong`) too."""

    name: PlayerName


class WatchTournament(_Request, tag="watch_tournament"):
    """Follow a bot tournament: a `tournament` reply now, then a `tournament` push (without
    `id`) whenever a game is committed, until the connection closes."""

    tournament: TournamentId


class Ping(_Request, tag="ping"):
    """Application-level liveness check."""


class Analyze(_Request, tag="analyze"):
    """Analyse finished Skat deal `deal` of `table` (every bid, discard and card graded;
    docs/bots.md "Deal analysis"): `analysis_progress` pushes while it is computed, then
    `analysis` with the result. Who may see the deal's record may ask (a private table's
    players, or with its invite)."""

    table: TableId
    deal: DealNumber
    invite: Invite | None = None


Request = (
    Hello
    | Register
    | Login
    | Rename
    | ListGames
    | ListTables
    | WatchLobby
    | CreateTable
    | Join
    | Leave
    | Watch
    | AddBot
    | Act
    | Chat
    | Resume
    | Leaderboard
    | Profile
    | WatchTournament
    | Analyze
    | Ping
)
