"""One command's work in progress: events first (evolved at once, so later checks in the same
command see them), everything else for after the commit, as data (`Later`).

A batch starts from the table's state and the actor's `Live` and never changes either: it
evolves its own `table` and keeps its own copies of the viewers and the asked seats, which
become the next `Live` when the decision is made (`server/core/decide.py`).
"""

from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from server.core.commands import ClientId
from server.core.effects import Effect, Send
from server.core.state import Live, Recent, TableState, TurnClock, Viewer, evolve_recorded
from server.core.views import Later
from server.events import GameOver, ListOver, Status, TableEvent
from server.games import GameState
from server.protocol import Error, Reply

__all__ = ["Batch"]


class _FromClient(Protocol):
    """A command a client sent: who, and the id its reply repeats."""

    @property
    def client(self) -> ClientId: ...

    @property
    def request_id(self) -> int | str | None: ...


@dataclass
class Batch:
    """One command's work in progress on `table`; `status` is the table's before it.

    `viewers` are the clients connected now (a command that detaches one removes it at once);
    `attach` the clients it connects, which join them after the events are shown."""

    table: TableState
    status: Status
    viewers: dict[ClientId, Viewer]
    asked: set[int]
    clock: TurnClock | None
    records: list[Recent] = field(default_factory=list)
    games: list[GameOver] = field(default_factory=list)
    list_over: ListOver | None = None
    attach: dict[ClientId, Viewer] = field(default_factory=dict)
    # (client, request id) of a v2 move: its first event answers the request (`views.fan_out`)
    ack: tuple[ClientId, int | str | None] | None = None
    after: list[Effect | Later] = field(default_factory=list)

    @classmethod
    def start(cls, table: TableState, live: Live) -> "Batch":
        return cls(table, table.status, dict(live.viewers), set(live.asked), live.clock)

    @property
    def events(self) -> tuple[TableEvent, ...]:
        return tuple(item.event for item in self.records)

    def emit(
        self,
        event: TableEvent,
        action: msgspec.Struct | None = None,
        state: GameState | None = None,
    ) -> None:
        """Record `event` and evolve the batch's table with it (`state.evolve`)."""
        self.table, item = evolve_recorded(self.table, event, action, state)
        self.records.append(item)

    def later(self, effect: Effect | Later) -> None:
        """Carry out `effect` after the commit; a `Later` is rendered then, from the state
        after the command and with the clients it attached."""
        self.after.append(effect)

    def reply(self, client: ClientId, message: Reply) -> None:
        self.after.append(Send((client,), message))

    def error(self, command: _FromClient, code: str, message: str) -> None:
        """Refuse `command`: one error reply to its client, nothing else changes."""
        self.reply(command.client, Error(id=command.request_id, code=code, message=message))
