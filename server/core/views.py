"""Everything a table sends, and what each recipient may see of it: the one place where table
state becomes outgoing data (the redaction of docs/conventions.md section 5).

Seats get their own view, spectators and the MQTT bus the public one (`viewer=None`; a
private table's events and results are never published: the bus is public); an
information leak can only live here or in the engine's `observation`, and the leak tests aim
at exactly these two. Three ways out, all built here:

- `fan_out`: the events of one decision (its `Recent` records, however many), once per
  group of recipients with the same view (the seat's owner on every connection, all
  spectators together: each group's message is encoded once), the public copy for the bus,
  deal results and the lobby entry (public tables only);
- `missed`: the events after a `seq` for one reconnecting client, or a snapshot;
- `snapshot`: the whole table as one recipient may see it.

What a command shows only once it is decided (a snapshot, the missed events, the clock) is
asked for with a `Later` value and rendered by `render` from the state after it.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from server.core.commands import ClientId
from server.core.effects import Effect, Publish, Send
from server.core.state import BotHint, Live, Recent, TableState, Viewer
from server.events import (
    Chatted,
    DealStarted,
    GameOver,
    Moved,
    Seated,
    SeriesEnded,
    TakenOver,
    Vacated,
)
from server.games import GameKind
from server.protocol import Clock, Event, SeatInfo, Snapshot, TableInfo

__all__ = [
    "DealView",
    "Later",
    "MoveView",
    "SeatedView",
    "ShowClock",
    "ShowMissed",
    "ShowSnapshot",
    "VisibleEvent",
    "clock",
    "fan_out",
    "lobby_entry",
    "missed",
    "render",
    "snapshot",
    "snapshot_for",
    "table_info",
    "visible_event",
]

LOBBY_EVENTS = (Seated, Vacated, DealStarted, SeriesEnded)  # they change a lobby entry
Viewers = Mapping[ClientId, Viewer]


@dataclass(frozen=True)
class ShowSnapshot:
    """The table as `seat` sees it, and the running clock, to `client`."""

    client: ClientId
    seat: int | None


@dataclass(frozen=True)
class ShowMissed:
    """The events after `seq` as `seat` sees them (or a snapshot) to `client`."""

    client: ClientId
    seat: int | None
    seq: int


@dataclass(frozen=True)
class ShowClock:
    """The running move clock to everyone at the table."""


Later = ShowSnapshot | ShowMissed | ShowClock


def render(later: Later, table: TableState, live: Live) -> list[Effect]:
    """What `later` sends, from the state and the clients after the command."""
    if isinstance(later, ShowSnapshot):
        return snapshot_for(table, live, later.client, later.seat)
    if isinstance(later, ShowMissed):
        return missed(table, live, later.client, later.seat, later.seq)
    return clock(table, live, tuple(live.viewers))


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
    item: Recent, viewer: int | None, game: GameKind, *, with_view: bool = True
) -> tuple[VisibleEvent, Any]:
    """The event of `item` as `viewer` (a seat, or None for the public) may see it, and the
    viewer's view of the running deal after it (None when the event is not part of a deal).
    `with_view=False` skips the view (None then), the costly part, for the bus."""
    event = item.event
    viewed = item.after if with_view else None
    if isinstance(event, Seated):
        player = event.player
        return SeatedView(event.seat, player.name, player.bot, player.client_bot), None
    if isinstance(event, DealStarted):
        view = game.view(viewed, viewer, history=False) if viewed is not None else None
        return DealView(event.number), view
    if isinstance(event, Moved):
        before, after, action = item.before, item.after, item.action
        hidden = before is not None and game.is_hidden(before, event.seat, action, viewer)
        view = game.view(viewed, viewer, history=False) if viewed is not None else None
        why = event.why if viewer == event.seat else None
        public = item.hints if after is not None and after.is_over else ()
        return MoveView(event.seat, None if hidden else action, why, public), view
    return event, None


def fan_out(
    table: TableState,
    viewers: Viewers,
    records: Iterable[Recent],
    games: tuple[GameOver, ...] = (),
    ack: tuple[ClientId, int | str | None] | None = None,
) -> list[Effect]:
    """The events of `records` for every client in `viewers` (each its own view) and, for a
    public table, the bus, then its new lobby entry if it changed and the results of the
    deals in `games`. `ack` (a v2 move's client and request id): the first event goes to that
    connection with the request's `id`, as the answer to its `act`."""
    by_view: dict[int | None, list[ClientId]] = {}
    for client, viewer in viewers.items():
        by_view.setdefault(viewer.seat, []).append(client)
    table_id = table.config.id
    published = not table.config.private  # the bus is public: private tables stay off it
    effects: list[Effect] = []
    lobby_changed = False
    for item in records:
        public = None
        for viewer, clients in by_view.items():
            event, view = visible_event(item, viewer, table.game)
            if ack is not None and ack[0] in clients:
                clients = [c for c in clients if c != ack[0]]
                answer = Event(id=ack[1], table=table_id, seq=item.seq, event=event, view=view)
                effects.append(Send((ack[0],), answer))
            if clients:
                message = Event(table=table_id, seq=item.seq, event=event, view=view)
                effects.append(Send(tuple(clients), message))
            if viewer is None:
                public = event
        ack = None  # only the move's own event answers it
        lobby_changed |= isinstance(item.event, LOBBY_EVENTS)
        if not published:
            continue
        if public is None:  # no spectators: the bus needs the public event, not a view
            public, _ = visible_event(item, None, table.game, with_view=False)
        effects.append(Publish("table", Event(table=table_id, seq=item.seq, event=public)))
        if isinstance(item.event, SeriesEnded):
            effects.append(
                Publish("result", {"table": table_id, "standings": item.event.standings})
            )
    if lobby_changed:
        effects += lobby_entry(table, viewers)
    for game in games if published else ():
        effects.append(
            Publish("result", {"table": table_id, "deal": game.number, "result": game.result})
        )
    return effects


def lobby_entry(table: TableState, viewers: Viewers) -> list[Effect]:
    """The table's entry in the lobby of every server process, unless it is private."""
    return [] if table.config.private else [Publish("lobby", table_info(table, viewers))]


def missed(
    table: TableState, live: Live, client: ClientId, seat: int | None, seq: int
) -> list[Effect]:
    """Every event after `seq` as `seat` sees it, or a snapshot if they left the window."""
    gap = [item for item in table.recent if item.seq > seq]
    if table.seq - seq > len(gap):
        return snapshot_for(table, live, client, seat)
    table_id = table.config.id
    effects: list[Effect] = []
    for item in gap:
        event, view = visible_event(item, seat, table.game)
        effects.append(Send((client,), Event(table=table_id, seq=item.seq, event=event, view=view)))
    return effects + clock(table, live, (client,)) if gap else effects


def snapshot_for(table: TableState, live: Live, client: ClientId, seat: int | None) -> list[Effect]:
    return [Send((client,), snapshot(table, live.viewers, seat)), *clock(table, live, (client,))]


def clock(table: TableState, live: Live, clients: tuple[ClientId, ...]) -> list[Effect]:
    """The move clock for `clients`, while the game waits for humans on a move timer. Its
    `seconds` are the whole move time here; the actor, which runs the timer, says what is
    left when it sends it."""
    running = live.clock
    if running is None or running.seq != table.game_seq or table.status != "playing":
        return []
    if not clients:
        return []
    config = table.config
    message = Clock(
        table=config.id,
        seq=running.seq,
        seats=list(running.seats),
        seconds=config.move_seconds,
        bot=config.timeout_bot,
    )
    return [Send(clients, message)]


def snapshot(table: TableState, viewers: Viewers, seat: int | None) -> Snapshot:
    """The whole table as `seat` (None: a spectator) may see it."""
    game = table.game
    view = game.view(table.state, seat, history=True) if table.state is not None else None
    standings = game.standings(table.seat_count, table.results) if table.results else None
    return Snapshot(
        table=table_info(table, viewers),
        seq=table.seq,
        seat=seat,
        view=view,
        standings=standings,
        results=list(table.results) or None,
        chat=list(table.chat) or None,
    )


def table_info(table: TableState, viewers: Viewers) -> TableInfo:
    """Public metadata, for the lobby and snapshots (never cards)."""
    config = table.config
    return TableInfo(
        id=config.id,
        host=config.host,
        game=config.game,
        rules=table.game.rules_options(table.rules),
        seats=[_seat_info(table, s) for s in range(table.seat_count)],
        status=table.status,
        private=config.private,
        series_length=config.series_length,
        deal=max(table.deal_number, 0),
        spectators=sum(1 for v in viewers.values() if v.seat is None),
        move_seconds=round(config.move_seconds),
    )


def _seat_info(table: TableState, seat: int) -> SeatInfo:
    player = table.seats[seat]
    if player is None:
        return SeatInfo(seat)
    return SeatInfo(seat, player.name, player.bot, seat in table.away, player.client_bot)
