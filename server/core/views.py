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
    "BotHint",
    "DealView",
    "MoveView",
    "SeatedView",
    "VisibleEvent",
    "visible_event",
]


class SeatedView(msgspec.Struct, frozen=True, tag="seated", tag_field="kind"):
    """A player took a seat (`bot`: a server bot's level; `client_bot`: a program playing
    over the protocol)."""

    seat: int
    name: str
    bot: str | None
    client_bot: bool = False


class DealView(msgspec.Struct, frozen=True, tag="deal", tag_field="kind"):
    """A deal began; the recipient's cards are in the accompanying view."""

    number: int


class BotHint(msgspec.Struct, frozen=True):
    """Why a bot made the move of event `seq`: its policy's diagnostics."""

    seq: int
    seat: int
    action: Any
    why: dict[str, Any]


class MoveView(msgspec.Struct, frozen=True, tag="move", tag_field="kind", omit_defaults=True):
    """`seat` acted; `action` is None when the recipient may not see it (another's discard).

    `why`: a bot's diagnostics for this move, only to the seat it played for (a human's seat
    played by a bot while he is away). `hints`: with the move that ends a deal, every bot
    move's diagnostics of that deal, to everyone (nothing is hidden any more).
    """

    seat: int
    action: Any
    why: dict[str, Any] | None = None
    hints: tuple[BotHint, ...] = ()


VisibleEvent = SeatedView | Vacated | TakenOver | DealView | MoveView | Chatted | SeriesEnded


def visible_event(
    event: TableEvent,
    viewer: int | None,
    game: GameKind,
    before: GameState | None,
    after: GameState | None,
    hints: tuple[BotHint, ...] = (),
    *,
    with_view: bool = True,
) -> tuple[VisibleEvent, Any]:
    """The event as `viewer` (a seat, or None for the public) may see it, and the viewer's
    view of the running deal after it (None when the event is not part of a deal).

    Args:
        before, after: the deal's state before and after the event (None outside a deal).
        hints: the bots' diagnostics of the deal, public once `after` is over.
        with_view: False skips the view (None then), the costly part, for the bus.
    """
    viewed = after if with_view else None
    if isinstance(event, Seated):
        player = event.player
        return SeatedView(event.seat, player.name, player.bot, player.client_bot), None
    if isinstance(event, DealStarted):
        view = game.view(viewed, viewer, history=False) if viewed is not None else None
        return DealView(event.number), view
    if isinstance(event, Moved):
        action = game.decode_action(event.action)
        hidden = before is not None and game.is_hidden(before, event.seat, action, viewer)
        view = game.view(viewed, viewer, history=False) if viewed is not None else None
        why = event.why if viewer == event.seat else None
        public = hints if after is not None and after.is_over else ()
        return MoveView(event.seat, None if hidden else action, why, public), view
    return event, None
