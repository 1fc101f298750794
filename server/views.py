"""What one recipient may see of a table event: the single redaction function (HOUSE_STYLE D).

Seats get their own view, spectators and the MQTT bus `viewer=None`. Nothing else in the server
turns a table event into outgoing data, so an information leak can only live here or in the
engine's `observation`, and the leak tests aim at exactly these two.
"""

from typing import Any

import msgspec

from server.events import (
    Chatted,
    DealStarted,
    Moved,
    Seated,
    SeriesEnded,
    TableEvent,
    TakenOver,
    Vacated,
)
from server.games import GameKind, GameState

__all__ = [
    "DealView",
    "MoveView",
    "SeatedView",
    "VisibleEvent",
    "visible_event",
]


class SeatedView(msgspec.Struct, frozen=True, tag="seated", tag_field="kind"):
    """A player took a seat."""

    seat: int
    name: str
    bot: str | None


class DealView(msgspec.Struct, frozen=True, tag="deal", tag_field="kind"):
    """A deal began; the recipient's cards are in the accompanying view."""

    number: int


class MoveView(msgspec.Struct, frozen=True, tag="move", tag_field="kind"):
    """`seat` acted; `action` is None when the recipient may not see it (another's discard)."""

    seat: int
    action: Any


VisibleEvent = SeatedView | Vacated | TakenOver | DealView | MoveView | Chatted | SeriesEnded


def visible_event(
    event: TableEvent,
    viewer: int | None,
    game: GameKind,
    before: GameState | None,
    after: GameState | None,
) -> tuple[VisibleEvent, Any]:
    """The event as `viewer` (a seat, or None for the public) may see it, and the viewer's
    view of the running deal after it (None when the event is not part of a deal).

    Args:
        before, after: the deal's state before and after the event (None outside a deal).
    """
    if isinstance(event, Seated):
        return SeatedView(event.seat, event.player.name, event.player.bot), None
    if isinstance(event, DealStarted):
        view = game.view(after, viewer, history=False) if after is not None else None
        return DealView(event.number), view
    if isinstance(event, Moved):
        action = game.decode_action(event.action)
        hidden = before is not None and game.is_hidden(before, event.seat, action, viewer)
        view = game.view(after, viewer, history=False) if after is not None else None
        return MoveView(event.seat, None if hidden else action), view
    return event, None
