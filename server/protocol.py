"""Protocol v1: every message a client and the server exchange, as msgspec types.

This is the only place where the server reads or writes JSON. One JSON object per text frame,
tagged by `type`; a request may carry an `id` that its reply (or `error`) repeats. Table pushes
(`event`, `snapshot`) carry the table's `seq`. docs/protocol.md shows an example of every message
and docs/asyncapi.yaml describes them (a test checks that both agree with this module).
"""

from typing import Annotated, Any

import msgspec

__all__ = [
    "PROTOCOL_VERSION",
    "Act",
    "AddBot",
    "Chat",
    "ChatLine",
    "Clock",
    "CreateTable",
    "Error",
    "Event",
    "GameInfo",
    "Games",
    "Hello",
    "Join",
    "Joined",
    "Leaderboard",
    "LeaderboardEntry",
    "LeaderboardReply",
    "Leave",
    "ListGames",
    "ListTables",
    "LobbyTable",
    "Login",
    "Ok",
    "Ping",
    "PlayedList",
    "Pong",
    "Profile",
    "ProfileReply",
    "Rating",
    "RatingPoint",
    "Register",
    "Rename",
    "Reply",
    "Request",
    "Resume",
    "SeatInfo",
    "Snapshot",
    "TableCreated",
    "TableInfo",
    "Tables",
    "Tournament",
    "TournamentInfo",
    "UserInfo",
    "Watch",
    "WatchLobby",
    "WatchTournament",
    "Welcome",
    "action_json",
    "decode_request",
    "encode",
    "encode_public",
    "request_id",
]

PROTOCOL_VERSION = 1

# Every string a client sends is bounded and free of control characters, and every number has
# a range (docs/protocol.md, "Limits"): what reaches the lobby, the tables and the database is
# checked here once, so SQLite and PostgreSQL can never answer the same request differently.
SAFE_INTEGER = 2**53 - 1  # JavaScript's largest exact integer: any client can count to it
MAX_SEQ = 2**31 - 1  # the database's integer
MAX_SERIES = 200  # deals in a list
MAX_ACTION_NUMBER = 1000  # numbers inside a game action (a Skat bid, a Tichu seat)
END = r"$(?!\n)"  # the end of the string (Python's `$` alone also matches before a final \n)
ID_PATTERN = r"^[A-Za-z0-9_-]+" + END  # table ids, invites, tokens: what token_urlsafe writes
TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*" + END  # no control character (NUL, newline, ...)

RequestId = (
    Annotated[int, msgspec.Meta(ge=-SAFE_INTEGER, le=SAFE_INTEGER)]
    | Annotated[str, msgspec.Meta(max_length=64, pattern=TEXT_PATTERN)]
)
TableId = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=ID_PATTERN)]
Invite = Annotated[str, msgspec.Meta(max_length=64, pattern=ID_PATTERN)]
Token = Annotated[str, msgspec.Meta(max_length=128, pattern=ID_PATTERN)]
# A name is checked by server/names.py (any script, normalised, 2-24 characters: `bad_name`
# with a reason); here only bounded, as every string.
Name = Annotated[str, msgspec.Meta(max_length=64, pattern=TEXT_PATTERN)]
Password = Annotated[str, msgspec.Meta(min_length=8, max_length=128, pattern=TEXT_PATTERN)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=7)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
DealNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_SERIES - 1)]
BotLevel = Annotated[
    str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.:-]+" + END)
]
GameName = Annotated[str, msgspec.Meta(min_length=1, max_length=16, pattern=r"^[a-z0-9_]+" + END)]
TournamentId = Annotated[str, msgspec.Meta(min_length=1, max_length=16, pattern=ID_PATTERN)]
Word = Annotated[str, msgspec.Meta(max_length=32, pattern=TEXT_PATTERN)]
PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=TEXT_PATTERN)]
# A game's rule options and actions are flat objects of plain values: no nesting to decode
# (a frame nested a thousand levels deep is refused at the first level too deep), and the
# game checks names and ranges (its Rules and Action types, docs/asyncapi.yaml).
RuleOptions = Annotated[dict[Word, Word | int | bool | None], msgspec.Meta(max_length=16)]
ActionNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_ACTION_NUMBER)]
Cards = Annotated[list[Word], msgspec.Meta(max_length=16)]
ActionFields = Annotated[
    dict[Word, Word | ActionNumber | bool | Cards | None], msgspec.Meta(min_length=1, max_length=8)
]


class _Request(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    id: RequestId | None = None


class Hello(_Request, tag="hello"):
    """First message of a connection: the protocol version and, to resume, a session token.
    `bot`: the client is a program (someone's own bot); its seats show as bots and its ratings
    count as a bot's."""

    version: Annotated[int, msgspec.Meta(ge=0, le=999)]
    token: Token | None = None
    bot: bool = False


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
    `fill_bots_after` seconds if given."""

    game: GameName = "skat"
    rules: RuleOptions = msgspec.field(default_factory=dict)
    private: bool = False
    series_length: Annotated[int, msgspec.Meta(ge=1, le=MAX_SERIES)] | None = None
    fill_bots_after: Annotated[float, msgspec.Meta(ge=0, le=3600)] | None = None
    bot_level: BotLevel = "random"


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
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=TEXT_PATTERN)]


class Resume(_Request, tag="resume"):
    """After a reconnect: every event of the table after `seq` (or a snapshot if too many)."""

    table: TableId
    seq: Seq


class Leaderboard(_Request, tag="leaderboard"):
    """The best rated players of a game."""

    game: GameName = "skat"


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
    | Ping
)

# --- server to client ------------------------------------------------------------------


class _Reply(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    id: RequestId | None = None


class UserInfo(msgspec.Struct, frozen=True):
    """Who a connection is: guests have server-chosen names."""

    id: int
    name: str
    guest: bool


class SeatInfo(msgspec.Struct, frozen=True):
    """A seat as everybody sees it. `away`: its owner is disconnected and a bot plays it.
    `bot` is the level of a server bot; `client_bot` marks a user that is a program."""

    seat: int
    name: str | None = None
    bot: str | None = None
    away: bool = False
    client_bot: bool = False


class TableInfo(msgspec.Struct, frozen=True):
    """Public metadata of a table (never cards)."""

    id: str
    game: str
    rules: dict[str, Any]
    seats: list[SeatInfo]
    status: str
    private: bool
    series_length: int
    deal: int
    spectators: int


class GameInfo(msgspec.Struct, frozen=True):
    """A game this server hosts (`create_table`'s `game`) and the bot levels it offers."""

    name: str
    bots: list[str]


class LeaderboardEntry(msgspec.Struct, frozen=True):
    """A player's rating: `ordinal` (mu - 3 sigma) orders the board."""

    name: str
    bot: bool
    mu: float
    sigma: float
    ordinal: float
    lists: int


class Rating(msgspec.Struct, frozen=True):
    """A player's rating in one game (`ordinal`: mu - 3 sigma) after `lists` rated lists."""

    mu: float
    sigma: float
    ordinal: float
    lists: int


class RatingPoint(msgspec.Struct, frozen=True):
    """A rating of `game` as it was after the list that ended `at` (ISO 8601)."""

    game: str
    at: str
    mu: float
    sigma: float
    ordinal: float


class PlayedList(msgspec.Struct, frozen=True):
    """A finished list (Tichu: match): the player's seat, rank and points, its `deals`."""

    table: str
    game: str
    finished_at: str
    seat: int
    rank: int
    points: int
    deals: int


class TournamentInfo(msgspec.Struct, frozen=True):
    """A bot tournament as everybody sees it: `standings` one row per player, best first
    (`player`, `games`, `total`, `mean`, `ci95` and the game's own columns, see
    docs/tournaments.md), after `played` of `total` games; `tables` are its tables being
    played now (spectators `watch` them)."""

    id: str
    game: str
    status: str
    players: list[str]
    played: int
    total: int
    standings: list[dict[str, Any]]
    tables: list[str]


class Welcome(_Reply, tag="welcome"):
    """Reply to `hello`, `register`, `login`, `rename`: identity and the token that resumes it."""

    version: int
    user: UserInfo
    token: str


class Games(_Reply, tag="games"):
    """Reply to `list_games`."""

    games: list[GameInfo]


class Tables(_Reply, tag="tables"):
    """Reply to `list_tables` and `watch_lobby`."""

    tables: list[TableInfo]


class LobbyTable(_Reply, tag="lobby_table"):
    """Pushed to lobby watchers (`watch_lobby`): a public table was created or changed (a
    seat taken or freed, a deal begun, a list finished). Status `finished`: it left the
    lobby."""

    table: TableInfo


class TableCreated(_Reply, tag="table_created"):
    """Reply to `create_table`; `invite` only for private tables."""

    table: TableInfo
    invite: str | None = None


class Joined(_Reply, tag="joined"):
    """Reply to `join`: the seat taken. A `snapshot` follows."""

    table: str
    seat: int


class LeaderboardReply(_Reply, tag="leaderboard"):
    """Reply to `leaderboard`."""

    game: str
    entries: list[LeaderboardEntry]


class ProfileReply(_Reply, tag="profile"):
    """Reply to `profile`: `ratings` by game, `history` oldest first, `recent` newest first."""

    name: str
    bot: bool
    ratings: dict[str, Rating]
    history: list[RatingPoint]
    recent: list[PlayedList]


class Tournament(_Reply, tag="tournament"):
    """Reply to `watch_tournament`, and pushed without `id` as the tournament goes on."""

    tournament: TournamentInfo


class Ok(_Reply, tag="ok"):
    """Reply to a request that has nothing else to say (`act`, `leave`, `chat`, ...)."""


class Pong(_Reply, tag="pong"):
    """Reply to `ping`."""


class Error(_Reply, tag="error", omit_defaults=True):
    """A request failed; `code` is stable (docs/protocol.md lists them), `message` for people.

    With code `moved`, `url` is where the server process serving table `table` listens (None:
    reconnect as before, after a moment): the client connects there and sends its request
    again, or `resume`s. With code `bad_name`, `reason` says what is wrong with the name
    (server/names.py `problem`), for the client to say in its language."""

    code: str
    message: str
    url: str | None = None
    table: str | None = None
    reason: str | None = None


class Event(_Reply, tag="event"):
    """Something happened at a table. `event` is what the recipient may see of it; `view` is
    the recipient's view of the game after it (its observation without the history), if a
    deal is running."""

    table: str
    seq: int
    event: Any
    view: Any = None


class ChatLine(msgspec.Struct, frozen=True):
    """A line of a table's chat as a snapshot repeats it: the `seq` of its `chat` event and
    who said it (`seat` None: a spectator)."""

    seq: int
    seat: int | None
    name: str
    text: str


class Clock(_Reply, tag="clock"):
    """The move clock: `seats` are to act on the game as of `seq` within `seconds` from now;
    then a bot of level `bot` plays for each of them. Pushed when the game starts waiting for
    humans (with the events that made it wait), and after a snapshot or a resume while it
    waits. It stops with the next event of the game."""

    table: str
    seq: int
    seats: list[int]
    seconds: float
    bot: str


class Snapshot(_Reply, tag="snapshot"):
    """The whole table as the recipient may see it: after `join`, `watch` or a long `resume`.
    `results` are the finished deals' results of the list so far (public), `standings` their
    totals, `chat` the table's last chat lines, oldest first (so a reload or a restart keeps
    the conversation)."""

    table: TableInfo
    seq: int
    seat: int | None
    view: Any = None
    standings: Any = None
    results: list[Any] | None = None
    chat: list[ChatLine] | None = None


Reply = (
    Welcome
    | Games
    | Tables
    | TableCreated
    | Joined
    | LeaderboardReply
    | ProfileReply
    | Tournament
    | LobbyTable
    | Clock
    | Ok
    | Pong
    | Error
    | Event
    | Snapshot
)


class _AnyId(msgspec.Struct, frozen=True):
    id: RequestId | None = None


_decoder = msgspec.json.Decoder(Request)
_id_decoder = msgspec.json.Decoder(_AnyId)
_encoder = msgspec.json.Encoder()


def decode_request(frame: str | bytes) -> Request:
    """Parse one client frame; raises msgspec.DecodeError (bad JSON, or nested deeper than
    the decoder's stack allows) or msgspec.ValidationError (valid JSON, not a valid
    request)."""
    try:
        return _decoder.decode(frame)
    except RecursionError:
        # A value msgspec had to skip (before the `type` tag) nested a thousand levels deep.
        raise msgspec.DecodeError("JSON nested too deeply") from None


def request_id(frame: str | bytes) -> RequestId | None:
    """The `id` of a frame that is no valid request, if it has a valid one (for the error)."""
    try:
        return _id_decoder.decode(frame).id
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def encode(message: Reply) -> str:
    """The JSON text of one server message."""
    return _encoder.encode(message).decode()


def action_json(request: Act) -> bytes:
    """The game action of an `act` as JSON, for the game to decode (`GameKind.decode_action`)."""
    return _encoder.encode(request.action)


def encode_public(message: object) -> bytes:
    """JSON of public data for the bus and HTTP (events, table infos, results, leaderboards)."""
    return _encoder.encode(message)
