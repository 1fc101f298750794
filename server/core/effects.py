"""What a command makes happen, in the order `server/core/actor.py` carries it out: `Append`
(commit; nothing after it runs before the commit), then `Send` and `Publish`, then `AskBot`
and `StartTimer`."""

from dataclasses import dataclass
from typing import Literal

import msgspec

from server.core.commands import ClientId, TimerKey
from server.events import Append
from server.protocol import Reply

__all__ = ["AskBot", "Effect", "Publish", "Send", "StartTimer"]


@dataclass(frozen=True)
class Send:
    """`message` to each of `clients` (encoded once for all of them)."""

    clients: tuple[ClientId, ...]
    message: Reply


@dataclass(frozen=True)
class Publish:
    """Public information for the bus: a table event, the lobby entry or a result."""

    channel: Literal["table", "lobby", "result"]
    message: object  # public data: `encode_public` encodes it


@dataclass(frozen=True)
class AskBot:
    """Ask bot `level` for `seat`'s decision on `observation`; the answer comes back as
    `BotMoved(seat, seq, ...)`."""

    seat: int
    level: str
    observation: msgspec.Struct  # the seat's observation in the game's own type
    seed: int
    seq: int


@dataclass(frozen=True)
class StartTimer:
    """Feed `TimerFired(key)` back after `seconds` (a timer with the same key is replaced)."""

    key: TimerKey
    seconds: float


Effect = Append | Send | Publish | AskBot | StartTimer
