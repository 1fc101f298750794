"""Server to client: every reply and push of the protocol, tagged by `type`."""

from typing import Any

import msgspec

from server.protocol.fields import RequestId
from server.standings import ListStanding

__all__ = [
    "Analysis",
    "AnalysisProgress",
    "ChatLine",
    "Clock",
    "Error",
    "Event",
    "GameInfo",
    "Games",
    "Joined",
    "LeaderboardEntry",
    "LeaderboardReply",
    "LobbyTable",
    "Ok",
    "PeopleForm",
    "PlayedList",
    "Pong",
    "ProfileReply",
    "RamschTally",
    "Rating",
    "RatingPoint",
    "Reply",
    "RuleChoice",
    "RuleOption",
    "SeatInfo",
    "SessionMoved",
    "SkatStatistics",
    "Snapshot",
    "StandingsColumn",
    "TableCreated",
    "TableInfo",
    "Tables",
    "Tally",
    "Tournament",
    "TournamentInfo",
    "UserInfo",
    "Welcome",
]


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
    """Public metadata of a table (never cards); `host`: the name of the player who opened it
    (null: a tournament's table), for a readable table name; `move_seconds`: each human's
    time for a move (`create_table`'s move clock; 0: none)."""

    id: str
    game: str
    rules: dict[str, Any]
    seats: list[SeatInfo]
    status: str
    private: bool
    series_length: int
    deal: int
    spectators: int
    host: str | None = None
    move_seconds: int = 0


class RuleChoice(msgspec.Struct, frozen=True):
    """One value of a rule option: `label` is a catalogue key, with `{n}` the value."""

    value: int | str | None
    label: str


class RuleOption(msgspec.Struct, frozen=True):
    """A rule the create form offers under `create_table`'s `rules`: `control` is `check`
    (true or false), `radio` or `select` (one of `choices`; a null value leaves the rule
    out); `label` a catalogue key, `default` the form's first value."""

    name: str
    label: str
    control: str
    default: int | str | bool | None
    choices: list[RuleChoice] = []


class StandingsColumn(msgspec.Struct, frozen=True):
    """A column of the game's own in a tournament's standings: the row's `key`, its
    heading, and whether it is a share (shown as a percentage)."""

    key: str
    label: str
    share: bool


class PeopleForm(msgspec.Struct, frozen=True):
    """How the game's tournaments for people are set up, for the tournaments page: the table
    sizes it is played at, whether partners may stay together, the catalogue keys of the
    form's `series` and `deals` fields and of the standings' total, and whether standings rows
    carry the declarer games `won` and `lost`."""

    table_sizes: list[int]
    partners: bool
    series_label: str
    deals_label: str
    total_label: str
    declarer_games: bool


class GameInfo(msgspec.Struct, frozen=True):
    """A game this server hosts (`create_table`'s `game`), the bot levels a player picks
    from, and what a client needs to offer it: the create form's `rules`, its choices of
    `series_length` (empty: a table plays one match, its rounds inside) with the default,
    and the game's own columns in tournament standings (`count_unit`: what a row's `games`
    counts). `rules_label` is the catalogue key of the rules' heading."""

    name: str
    bots: list[str]
    rules_label: str = ""
    rules: list[RuleOption] = []
    series: list[int] = []
    series_default: int = 1
    count_unit: str = "games"
    columns: list[StandingsColumn] = []
    people: PeopleForm | None = None


class LeaderboardEntry(msgspec.Struct, frozen=True):
    """A player's rating: `ordinal` (mu - 3 sigma) orders the board. `guest`: a player
    without an account."""

    name: str
    bot: bool
    guest: bool
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


class Tally(msgspec.Struct, frozen=True):
    """Games of one kind a player took part in, and how many of them he won."""

    played: int
    won: int


class RamschTally(msgspec.Struct, frozen=True):
    """Ramsch deals a player played, and how many he lost (paid for)."""

    played: int
    lost: int


class SkatStatistics(msgspec.Struct, frozen=True):
    """A player's finished Skat lists counted: `deals` in them, his list `points`
    (Seeger-Fabian) in all, `per_list` and `per_36` deals; his own games by type
    (`declared`: suit, grand, null), the games he defended and Ramsch."""

    lists: int
    deals: int
    points: int
    per_list: float
    per_36: float
    declared: dict[str, Tally]
    defence: Tally
    ramsch: RamschTally


class SeriesTableInfo(msgspec.Struct, frozen=True):
    """A people's tournament's table: its series, the names by seat (`bot:LEVEL#N` for a
    bot's place) and its games played so far."""

    table: str
    series: int
    seats: list[str]
    played: int


class TournamentInfo(msgspec.Struct, frozen=True):
    """A tournament as everybody sees it: `standings` one row per player, best first
    (`player`, `games`, `total` and the game's own columns, see docs/tournaments.md), after
    `played` of `total` games; `tables` are its tables being played now (spectators `watch`
    them). A people's tournament (`organizer` set; status `open`, `running`, `finished` or
    `cancelled`) has `players` the registered people and adds its settings, every table
    it drew (`lists`) and, with fixed partners, the confirmed `pairs` (two players who named
    each other as partner; empty otherwise)."""

    id: str
    game: str
    status: str
    players: list[str]
    played: int
    total: int
    standings: list[dict[str, Any]]
    tables: list[str]
    name: str | None = None
    organizer: str | None = None
    starts_at: str | None = None
    settings: dict[str, Any] | None = None
    series_now: int | None = None
    lists: list[SeriesTableInfo] | None = None
    pairs: list[tuple[str, str]] | None = None


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
    """Reply to `profile`: `ratings` by game, `history` oldest first, `recent` newest first,
    `skat` statistics (null: no Skat list). Lists at private tables count only for viewers
    who sat there."""

    name: str
    bot: bool
    ratings: dict[str, Rating]
    history: list[RatingPoint]
    recent: list[PlayedList]
    skat: SkatStatistics | None = None


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
    then a bot of level `bot` (the table's, never `random`) takes each of their seats until
    its owner joins again. Pushed when the game starts waiting for
    humans (with the events that made it wait), and after a snapshot or a resume while it
    waits. It stops with the next event of the game."""

    table: str
    seq: int
    seats: list[int]
    seconds: float
    bot: str


class SessionMoved(_Reply, tag="session_moved", omit_defaults=True):
    """The player on `seat` took his session to another connection (the old one was closed
    with 4409): pushed to everybody at the table, so nobody wonders why his device went
    quiet. Not an event of the table's log: it changes nothing at the table."""

    table: str
    seat: int
    name: str


class Snapshot(_Reply, tag="snapshot"):
    """The whole table as the recipient may see it: after `join`, `watch` or a long `resume`.
    `results` are the finished deals' results of the list so far (public), `standings` their
    totals, `chat` the table's last chat lines, oldest first (so a reload or a restart keeps
    the conversation)."""

    table: TableInfo
    seq: int
    seat: int | None
    view: Any = None
    standings: list[ListStanding] | None = None
    results: list[Any] | None = None
    chat: list[ChatLine] | None = None


class AnalysisProgress(_Reply, tag="analysis_progress"):
    """Pushed while a deal's analysis is computed (with the `id` of the `analyze` that
    asked): `done` of `total` steps (the auction and skat, then one per card played)."""

    table: str
    deal: int
    done: int
    total: int


class Analysis(_Reply, tag="analysis"):
    """Reply to `analyze` once the analysis is there (at once when it was computed
    before): the deal's `DealAnalysis` (bots/skat/analysis/report.py)."""

    table: str
    deal: int
    analysis: dict[str, Any]


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
    | SessionMoved
    | Ok
    | Pong
    | Error
    | Event
    | Snapshot
    | AnalysisProgress
    | Analysis
)
