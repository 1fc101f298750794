"""The table as a decider: `decide(table, live, command) -> Decision`, a pure function.

A decision checks a command against the table's state (`state.TableState`, a value) and the
actor's `Live` (who is connected, which bots think, the move clock) and says what follows:
the events to commit, the next state (those events evolved into the table by
`state.evolve`, the same fold a restore and a followed table use), the next `Live`, and the
effects in the order the actor carries them out (`server/core/effects.py`), all of them
data. It never awaits, never reads a clock, draws its seeds from the table's secret
(`state.draw`) and changes neither of its inputs, so its tests need neither sockets nor a
database.

What each command does lives with its subject: `seating` (seats, spectators, reconnects,
chat), `moves` (the game, deals, asking bots), `timers` (fill, grace, move) and `views`
(everything sent, built from the decision's own events).
"""

from dataclasses import dataclass

from server.core import moves, seating, timers, views
from server.core.batch import Batch
from server.core.commands import (
    Act,
    AddBot,
    BotMoved,
    Command,
    Disconnect,
    Followed,
    Join,
    Leave,
    Reserve,
    Resume,
    Say,
    TimerFired,
    Watch,
)
from server.core.effects import Effect
from server.core.state import Live, TableState, evolve_recorded
from server.events import Append, TableEvent

__all__ = ["Decision", "decide", "wake"]

LATER = (views.ShowSnapshot, views.ShowMissed, views.ShowClock)  # `views.Later`, for isinstance


@dataclass(frozen=True)
class Decision:
    """What a command makes of a table: its new `events` (none for a refusal; a followed
    table's are committed elsewhere), the table and the `Live` after them, and the effects."""

    events: tuple[TableEvent, ...]
    table: TableState
    live: Live
    effects: tuple[Effect, ...]


def wake(table: TableState, live: Live) -> Decision:
    """What a table does once it is live (new or restored): its lobby entry, bots to ask,
    timers."""
    batch = Batch.start(table, live)
    if not table.config.followed:
        batch.after += views.lobby_entry(table, batch.viewers)
    fill = timers.fill(table)
    if fill is not None:
        batch.later(fill)
    timers.time_absent(batch)
    moves.schedule(batch)
    return _finish(batch)


def decide(table: TableState, live: Live, command: Command) -> Decision:
    """The decision on one command."""
    batch = Batch.start(table, live)
    if isinstance(command, Followed):
        return _follow(command, batch)
    if table.config.followed and isinstance(command, Join | AddBot | Act | Say):
        batch.error(command, "watch_only", "a tournament table can only be watched")
    elif isinstance(command, Act):
        moves.act(command, batch)
    elif isinstance(command, BotMoved):
        moves.bot_moved(command, batch)
    elif isinstance(command, Join):
        seating.join(command, batch)
    elif isinstance(command, Watch):
        seating.watch(command, batch)
    elif isinstance(command, Resume):
        seating.resume(command, batch)
    elif isinstance(command, Leave):
        seating.leave(command, batch)
    elif isinstance(command, AddBot):
        seating.add_bot(command, batch)
    elif isinstance(command, Say):
        seating.say(command, batch)
    elif isinstance(command, Disconnect):
        seating.disconnect(command, batch)
    elif isinstance(command, Reserve):
        seating.reserve(command, batch)
    else:
        _timer(command, batch)
    return _finish(batch)


def _timer(cmd: TimerFired, batch: Batch) -> None:
    kind = cmd.key[0]
    if kind == timers.FILL:
        seating.fill(batch)
    elif kind == timers.GRACE:
        seating.grace_over(int(cmd.key[1]), batch)
    elif kind == timers.MOVE:
        moves.out_of_time(int(cmd.key[1]), batch)


def _follow(cmd: Followed, batch: Batch) -> Decision:
    """Evolve a followed table with the events its own process committed (those it has
    not yet) and show them to its spectators, all of them at once."""
    records = []
    table = batch.table
    for seq, event in cmd.events:
        if seq <= table.seq:
            continue
        if seq != table.seq + 1:
            raise ValueError(f"table {table.config.id}: event {seq} follows {table.seq}")
        table, item = evolve_recorded(table, event)
        records.append(item)
    effects = views.fan_out(table, batch.viewers, records) if records else []
    return Decision((), table, _live(batch), tuple(effects))


def _finish(batch: Batch) -> Decision:
    """Order the batch: commit, then tell every client and the bus, then bots and timers."""
    effects: list[Effect] = []
    events: tuple[TableEvent, ...] = ()
    if batch.records:
        moves.start_if_full(batch)
        table = batch.table
        events = batch.events
        first = table.seq - len(events) + 1
        changed = table.status if table.status != batch.status else None
        games = tuple(batch.games)
        effects.append(Append(first, events, games, batch.list_over, changed))
        effects += views.fan_out(table, batch.viewers, batch.records, games, batch.ack)
        moves.schedule(batch)
    batch.viewers.update(batch.attach)
    live = _live(batch)
    for item in batch.after:
        if isinstance(item, LATER):
            effects += views.render(item, batch.table, live)
        else:
            effects.append(item)
    return Decision(events, batch.table, live, tuple(effects))


def _live(batch: Batch) -> Live:
    return Live(batch.viewers, frozenset(batch.asked), batch.clock)
