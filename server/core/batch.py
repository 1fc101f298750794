"""The effects of one command while it is handled: events first (folded in at once, so later
checks in the same command see them), everything else for after the commit."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from server.core.commands import ClientId
from server.core.effects import Effect, Send
from server.core.state import TableState, Viewer
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
    """One command's work in progress on `table`; `status` is the table's before it."""

    table: TableState
    status: Status
    events: list[TableEvent] = field(default_factory=list)
    games: list[GameOver] = field(default_factory=list)
    list_over: ListOver | None = None
    attach: dict[ClientId, Viewer] = field(default_factory=dict)
    # (client, request id) of a v2 move: its first event answers the request (`views.fan_out`)
    ack: tuple[ClientId, int | str | None] | None = None
    after: list[Effect | Callable[[], list[Effect]]] = field(default_factory=list)

    def emit(
        self,
        event: TableEvent,
        action: msgspec.Struct | None = None,
        state: GameState | None = None,
    ) -> None:
        """Record `event` and fold it in now (`TableState.fold`)."""
        self.events.append(event)
        self.table.fold(event, action, state)

    def later(self, effect: Effect | Callable[[], list[Effect]]) -> None:
        """Run `effect` after the commit; a callable is called then (it sees the new state
        and the clients the command attached)."""
        self.after.append(effect)

    def reply(self, client: ClientId, message: Reply) -> None:
        self.after.append(Send((client,), message))

    def error(self, command: _FromClient, code: str, message: str) -> None:
        """Refuse `command`: one error reply to its client, nothing else changes."""
        self.reply(command.client, Error(id=command.request_id, code=code, message=message))
