"""Table events: the append-only log, the truth about a table (docs/conventions.md section 8).

A table's state is the fold of its events; the server restarts by replaying them. Game payloads
(the deal, actions) are the game adapter's JSON, kept as `msgspec.Raw`, so this module stays
game-agnostic. `EVENT_VERSION` is stored with every event; bump it when a change here needs
old events read differently.

`Append` is what is committed in one transaction: new events and the projections they end (a
deal's result and record, a list's standings). The table core produces it, the tournament
runner builds it directly, and the store writes it: persistence knows these types, never the
core.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from server.plain import Plain
from server.standings import ListStanding

__all__ = [
    "EVENT_VERSION",
    "Append",
    "Chatted",
    "DealStarted",
    "GameOver",
    "ListOver",
    "Moved",
    "Player",
    "Seated",
    "SeriesEnded",
    "Status",
    "TableEvent",
    "TakenOver",
    "Vacated",
    "decode_event",
    "encode_event",
]

EVENT_VERSION = 1


class Player(msgspec.Struct, frozen=True):
    """Who sits on a seat: a user (`user_id`), a bot level (`bot`) or both (a rated bot user).
    `client_bot`: the user is a program playing over the protocol (it said so in `hello`)."""

    user_id: int | None
    name: str
    bot: str | None = None
    client_bot: bool = False


class Seated(msgspec.Struct, frozen=True, tag="seated", tag_field="kind"):
    """`player` took `seat` (a bot replacing a leaver during a list is also a `Seated`)."""

    seat: int
    player: Player


class Vacated(msgspec.Struct, frozen=True, tag="vacated", tag_field="kind"):
    """The seat was given up before the list began."""

    seat: int


class TakenOver(msgspec.Struct, frozen=True, tag="taken_over", tag_field="kind"):
    """A bot plays the seat while its owner is away (`bot` true), or the owner took it back."""

    seat: int
    bot: bool


class DealStarted(msgspec.Struct, frozen=True, tag="deal", tag_field="kind"):
    """Deal `number` (0-based) of the list; `start` holds every card: never sent as is."""

    number: int
    start: msgspec.Raw


class Moved(msgspec.Struct, frozen=True, tag="move", tag_field="kind", omit_defaults=True):
    """`seat` took `action` (the game's encoded action) in the running deal. `why` holds a
    bot's diagnostics for its move (what its policy reported); it may describe the bot's hidden
    cards, so `views.visible_event` shows it only to the seat itself until the deal is over."""

    seat: int
    action: msgspec.Raw
    why: dict[str, Any] | None = None


class Chatted(msgspec.Struct, frozen=True, tag="chat", tag_field="kind"):
    """A chat line; `seat` None for a spectator."""

    seat: int | None
    name: str
    text: str


class SeriesEnded(msgspec.Struct, frozen=True, tag="series_end", tag_field="kind"):
    """The list is complete; `standings` as the game adapter computes them, as plain data
    (`GameKind.decode_standings` reads them back)."""

    standings: list[dict[str, int]]


TableEvent = Seated | Vacated | TakenOver | DealStarted | Moved | Chatted | SeriesEnded
Status = Literal["waiting", "playing", "finished"]

# --- what is committed together: events and the projections they end ------------------


@dataclass(frozen=True)
class GameOver:
    """Projection written with the deal's last event: the result and the game record."""

    number: int
    result: Plain
    record: str | None
    players: tuple[Player | None, ...]


@dataclass(frozen=True)
class ListOver:
    """Projection written with the list's last event: standings for the ratings."""

    standings: Sequence[ListStanding]
    players: tuple[Player | None, ...]


@dataclass(frozen=True)
class Append:
    """Commit `events` (from `first_seq` on) and the projections in one transaction;
    `status` is the table's new status when these events changed it."""

    first_seq: int
    events: tuple[TableEvent, ...]
    games: tuple[GameOver, ...] = ()
    list_over: ListOver | None = None
    status: Status | None = None


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(TableEvent)


def encode_event(event: TableEvent) -> bytes:
    """The stored form of an event."""
    return _encoder.encode(event)


def decode_event(data: bytes | str, version: int = EVENT_VERSION) -> TableEvent:
    """An event from its stored form; raises ValueError for an unknown schema version."""
    if version != EVENT_VERSION:
        raise ValueError(f"event schema version {version} is not readable by this server")
    return _decoder.decode(data)
