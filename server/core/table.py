"""A table run in process, without an actor: the decider and its state in one object, for
the core's tests and the leak audit (production tables run in `server/core/actor.py`).

`handle(command)` is what the actor does with a command, minus the I/O: decide, take the
decision's table and `Live`, return its effects to carry out.
"""

import random
from collections.abc import Iterable

from server.core import views
from server.core.commands import Command
from server.core.decide import Decision, decide, wake
from server.core.effects import Effect
from server.core.state import Live, TableConfig, new_table, restore
from server.events import TableEvent
from server.games import GameKind
from server.protocol import TableInfo

__all__ = ["TableCore"]


class TableCore:
    """One table's state (its fields read through, `table.seq`), its `Live` and `handle`."""

    def __init__(
        self,
        config: TableConfig,
        game: GameKind,
        rng: random.Random,
        bot_levels: Iterable[str],
    ) -> None:
        self.table = new_table(config, game, rng.getrandbits(64), bot_levels)
        self.live = Live()

    def __getattr__(self, name: str) -> object:
        return getattr(self.table, name)

    def info(self) -> TableInfo:
        return views.table_info(self.table, self.live.viewers)

    def restore(self, events: Iterable[tuple[int, TableEvent]]) -> None:
        """Fold stored events (in `seq` order) into the table; nobody is connected."""
        self.table = restore(self.table, events)

    def wake(self) -> list[Effect]:
        return self._take(wake(self.table, self.live))

    def handle(self, command: Command) -> list[Effect]:
        """Effects of one command, in the order they must be carried out."""
        return self._take(decide(self.table, self.live, command))

    def _take(self, decision: Decision) -> list[Effect]:
        self.table, self.live = decision.table, decision.live
        return list(decision.effects)
