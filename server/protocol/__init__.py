"""Protocol v2 (and v1): every message a client and the server exchange, as msgspec types.

This is the only place where the server reads or writes JSON. One JSON object per text frame,
tagged by `type`; a request may carry an `id` that its reply (or `error`) repeats. Table pushes
(`event`, `snapshot`) carry the table's `seq`. docs/protocol.md shows an example of every message
and docs/asyncapi.yaml describes them (a test checks that both agree with this module).
The versions differ only in how a move is answered: in v1 the mover gets `ok` after its
event, in v2 its event carries the `act`'s `id` and is the only answer.
"""

import re

import msgspec

from server.protocol.fields import (
    RequestId,
)
from server.protocol.replies import (
    Analysis,
    AnalysisProgress,
    ChatLine,
    Clock,
    Error,
    Event,
    GameInfo,
    Games,
    Joined,
    LeaderboardEntry,
    LeaderboardReply,
    LobbyTable,
    Ok,
    PeopleForm,
    PlayedList,
    Pong,
    ProfileReply,
    RamschTally,
    Rating,
    RatingPoint,
    RuleChoice,
    RuleOption,
    SeatInfo,
    SeriesTableInfo,
    SessionMoved,
    SkatStatistics,
    Snapshot,
    StandingsColumn,
    TableCreated,
    TableInfo,
    Tables,
    Tally,
    Tournament,
    TournamentInfo,
    UserInfo,
    Welcome,
)
from server.protocol.replies import Reply as TableReply
from server.protocol.requests import (
    Act,
    AddBot,
    Analyze,
    Chat,
    CreateTable,
    Hello,
    Join,
    Leaderboard,
    Leave,
    ListGames,
    ListTables,
    Login,
    Ping,
    Profile,
    Register,
    Rename,
    Resume,
    Watch,
    WatchLobby,
    WatchTournament,
)
from server.protocol.requests import Request as TableRequest
from server.protocol.social import SocialReply, SocialRequest
from server.protocol.tournaments import TournamentReply, TournamentRequest

__all__ = [
    "OLDEST_VERSION",
    "PROTOCOL_VERSION",
    "Act",
    "AddBot",
    "Analysis",
    "AnalysisProgress",
    "Analyze",
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
    "PeopleForm",
    "Ping",
    "PlayedList",
    "Pong",
    "Profile",
    "ProfileReply",
    "RamschTally",
    "Rating",
    "RatingPoint",
    "Register",
    "Rename",
    "Reply",
    "Request",
    "Resume",
    "RuleChoice",
    "RuleOption",
    "SeatInfo",
    "SeriesTableInfo",
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

PROTOCOL_VERSION = 2  # the newest version; a client says in `hello` which one it speaks
OLDEST_VERSION = 1  # deprecated: this release still serves v1 clients, the next will not
Request = TableRequest | SocialRequest | TournamentRequest
Reply = TableReply | SocialReply | TournamentReply


class _AnyId(msgspec.Struct, frozen=True):
    id: RequestId | None = None


_decoder = msgspec.json.Decoder(Request)
_id_decoder = msgspec.json.Decoder(_AnyId)
_STRING = r'"(?:[^"\\]|\\.)*"'
_SCALAR = rf'(?:{_STRING}|[^\s,{{}}\[\]"]+)'
_LEADING_ID = re.compile(rf'\s*\{{(?:\s*{_STRING}\s*:\s*{_SCALAR}\s*,)*?\s*"id"\s*:\s*({_SCALAR})')
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
    """The `id` of a frame that is no valid request, if it has a valid one (for the error),
    also when a value after it is nested too deeply to decode."""
    try:
        return _id_decoder.decode(frame).id
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    except RecursionError:
        return _leading_id(frame if isinstance(frame, str) else frame.decode(errors="replace"))


def _leading_id(text: str) -> RequestId | None:
    """The `id` of a JSON object whose members before it are plain values (as clients write a
    request: `type` and `id` first), found by one regular expression: nothing is descended
    into, so no nesting after it is too deep, and a flood of such frames costs little."""
    found = _LEADING_ID.match(text)
    if found is None:
        return None
    try:
        return _id_decoder.decode('{"id":' + found.group(1) + "}").id
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def encode(message: Reply) -> bytes:
    """The JSON of one server message, UTF-8 (sent as a text frame without decoding it)."""
    return _encoder.encode(message)


def action_json(request: Act) -> bytes:
    """The game action of an `act` as JSON, for the game to decode (`GameKind.decode_action`)."""
    return _encoder.encode(request.action)


def encode_public(message: object) -> bytes:
    """JSON of public data for the bus and HTTP (events, table infos, results, leaderboards)."""
    return _encoder.encode(message)
