"""A table without I/O: commands in, effects out (docs/conventions.md section 7).

`TableCore.handle(command)` checks a command, turns it into table events, folds them into the
table's state at once and returns the effects for `server/core/actor.py` to carry out in order
(`server/core/effects.py`). The core never awaits, never reads a clock and draws randomness
only from the `random.Random` it is given, so its tests need neither sockets nor a database.
On restart `restore` folds the stored events back in.

What each command does lives with its subject: `seating` (seats, spectators, reconnects,
chat), `moves` (the game, deals, asking bots), `timers` (fill, grace, move) and `views`
(everything sent); `state` is what the table knows and `batch` one command's work in progress.
"""

from collections.abc import Iterable

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
from server.core.state import TableState
from server.events import Append, TableEvent
from server.protocol import TableInfo

__all__ = ["TableCore"]


class TableCore(TableState):
    """One table's state and its rules of conduct; the single writer is the table's actor."""

    def info(self) -> TableInfo:
        """Public metadata, for the lobby and snapshots."""
        return views.table_info(self)

    def restore(self, events: Iterable[tuple[int, TableEvent]]) -> None:
        """Fold stored events (in `seq` order) into a fresh core; nobody is connected."""
        for seq, event in events:
            if seq != self.seq + 1:
                raise ValueError(f"table {self.config.id}: event {seq} follows {self.seq}")
            self.fold(event)

    def wake(self) -> list[Effect]:
        """Effects to run once the table is live (new or restored): its lobby entry, bots to
        ask, timers."""
        batch = Batch(self, self.status)
        if not self.config.followed:
            batch.after += views.lobby_entry(self)
        fill = timers.fill(self)
        if fill is not None:
            batch.later(fill)
        timers.time_absent(self, batch)
        moves.schedule(self, batch)
        return self._finish(batch)

    def handle(self, command: Command) -> list[Effect]:
        """Effects of one command, in the order they must be carried out."""
        if isinstance(command, Followed):
            return self._follow(command)
        batch = Batch(self, self.status)
        if self.config.followed and isinstance(command, Join | AddBot | Act | Say):
            batch.error(command, "watch_only", "a tournament table can only be watched")
        elif isinstance(command, Act):
            moves.act(self, command, batch)
        elif isinstance(command, BotMoved):
            moves.bot_moved(self, command, batch)
        elif isinstance(command, Join):
            seating.join(self, command, batch)
        elif isinstance(command, Watch):
            seating.watch(self, command, batch)
        elif isinstance(command, Resume):
            seating.resume(self, command, batch)
        elif isinstance(command, Leave):
            seating.leave(self, command, batch)
        elif isinstance(command, AddBot):
            seating.add_bot(self, command, batch)
        elif isinstance(command, Say):
            seating.say(self, command, batch)
        elif isinstance(command, Disconnect):
            seating.disconnect(self, command, batch)
        elif isinstance(command, Reserve):
            seating.reserve(self, command, batch)
        else:
            self._timer(command, batch)
        return self._finish(batch)

    def _timer(self, cmd: TimerFired, batch: Batch) -> None:
        kind = cmd.key[0]
        if kind == timers.FILL:
            seating.fill(self, batch)
        elif kind == timers.GRACE:
            seating.grace_over(self, cmd.key[1], batch)
        elif kind == timers.MOVE:
            moves.out_of_time(self, cmd.key[1], batch)

    def _follow(self, cmd: Followed) -> list[Effect]:
        """Fold committed events of a followed table and show them to its spectators (one at
        a time: a batch may be longer than the window of recent events)."""
        effects: list[Effect] = []
        for seq, event in cmd.events:
            if seq <= self.seq:
                continue
            if seq != self.seq + 1:
                raise ValueError(f"table {self.config.id}: event {seq} follows {self.seq}")
            self.fold(event)
            effects += views.fan_out(self, 1)
        return effects

    def _finish(self, batch: Batch) -> list[Effect]:
        """Order the batch: commit, then tell every client and the bus, then bots and timers."""
        effects: list[Effect] = []
        if batch.events:
            moves.start_if_full(self, batch)
            first = self.seq - len(batch.events) + 1
            changed = self.status if self.status != batch.status else None
            games = tuple(batch.games)
            effects.append(Append(first, tuple(batch.events), games, batch.list_over, changed))
            effects += views.fan_out(self, len(batch.events), games, batch.ack)
            moves.schedule(self, batch)
        self.clients.update(batch.attach)
        for item in batch.after:
            effects += item() if callable(item) else [item]
        return effects
