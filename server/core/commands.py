"""What a table is asked to do: one type per command, from a client, a bot, a timer or the
log of a table another process writes. `decide` takes any of them."""

from dataclasses import dataclass

import msgspec

from server.events import Player, TableEvent
from server.plain import Plain

__all__ = [
    "Act",
    "AddBot",
    "BotMoved",
    "ClientId",
    "Command",
    "Disconnect",
    "Followed",
    "Join",
    "Leave",
    "Reserve",
    "Resume",
    "Say",
    "TimerFired",
    "TimerKey",
    "User",
    "Watch",
]

ClientId = int
TimerKey = tuple[str | int, ...]  # the timer's kind and what it is for (server/core/timers.py)


@dataclass(frozen=True)
class User:
    """An authenticated user as the table knows it; `bot`: a program (an external bot)."""

    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True)
class Join:
    client: ClientId
    user: User
    request_id: int | str | None
    seat: int | None
    invite: str | None


@dataclass(frozen=True)
class Watch:
    client: ClientId
    user: User
    request_id: int | str | None
    invite: str | None


@dataclass(frozen=True)
class Leave:
    client: ClientId
    user: User
    request_id: int | str | None


@dataclass(frozen=True)
class AddBot:
    client: ClientId
    user: User
    request_id: int | str | None
    seat: int
    level: str


@dataclass(frozen=True)
class Act:
    """A game action as the client sent it (the game's JSON, decoded once by the core).
    `ack_in_event`: the client speaks protocol v2, where the move's event to its connection
    carries `request_id` instead of an `ok` after it."""

    client: ClientId
    user: User
    request_id: int | str | None
    seq: int
    action: bytes
    ack_in_event: bool = False


@dataclass(frozen=True)
class Say:
    client: ClientId
    user: User
    request_id: int | str | None
    text: str


@dataclass(frozen=True)
class Resume:
    client: ClientId
    user: User
    request_id: int | str | None
    seq: int


@dataclass(frozen=True)
class Disconnect:
    """The client's connection closed (`replaced`: because another connection took its
    session, docs/protocol.md "Session")."""

    client: ClientId
    replaced: bool = False


@dataclass(frozen=True)
class BotMoved:
    """A bot's decision for `seat`, asked for when the table was at `seq`."""

    seat: int
    seq: int
    action: msgspec.Struct  # the game's action
    why: Plain | None = None  # the policy's diagnostics as plain data


@dataclass(frozen=True)
class TimerFired:
    """A timer started with `StartTimer(key, ...)` ran out (`server/core/timers.py`)."""

    key: TimerKey


@dataclass(frozen=True)
class Followed:
    """Events another process committed to a followed table (`TableConfig.followed`), in
    `seq` order; ones the core has already are skipped."""

    events: tuple[tuple[int, TableEvent], ...]


@dataclass(frozen=True)
class Reserve:
    """Seat drawn players and bots (a people's tournament's table): `players` by seat. The
    list starts at once; a player who is not there within the grace time gets a bot until
    he joins his seat."""

    players: tuple[Player, ...]


Command = (
    Join
    | Watch
    | Leave
    | AddBot
    | Act
    | Say
    | Resume
    | Disconnect
    | BotMoved
    | TimerFired
    | Followed
    | Reserve
)
