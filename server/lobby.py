"""The lobby: creates, finds, lists and resumes tables. One instance, built by `app.py`.

It also follows tournament tables for spectators: a tournament's runner (another process)
writes them, so the lobby loads one when somebody watches it and reads its new events every
`tournament_poll_seconds` until its list ends; the table shows them as a live table would.
"""

import asyncio
import random
import secrets
from collections.abc import Callable, Mapping

import msgspec

from bots.pool import Decider
from bots.registry import policy_names
from server.games import GameKind
from server.protocol import CreateTable, TableInfo
from server.settings import Settings
from server.store.db import Store
from server.table import Publisher, Table
from server.table_core import Followed, TableConfig, TableCore, User

__all__ = ["Lobby", "LobbyError"]

TABLE_ID_BYTES = 6
INVITE_BYTES = 6


class LobbyError(Exception):
    """A lobby request that cannot be granted; `code` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Lobby:
    """Every table of this server, by id."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        pool: Decider,
        bus: Publisher,
        games: Mapping[str, GameKind],
        on_moves: Callable[[int], None] | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.pool = pool
        self.bus = bus
        self.games = games
        self.tables: dict[str, Table] = {}
        self._on_moves = on_moves
        self._followers: set[asyncio.Task[None]] = set()

    async def restore(self) -> int:
        """Resume every unfinished table from its event log; returns how many."""
        for stored in await self.store.open_tables():
            config = self._config(stored.options)
            core = self._core(config)
            core.restore(stored.events)
            self._launch(core)
        return len(self.tables)

    async def create(self, user: User, request: CreateTable) -> tuple[TableInfo, str | None]:
        """Open a table for `request`; returns its public info and the invite code."""
        game = self.games.get(request.game)
        if game is None:
            known = ", ".join(sorted(self.games))
            raise LobbyError("unknown_game", f"no game {request.game!r}; known: {known}")
        try:
            rules = game.parse_rules(request.rules)
        except (msgspec.ValidationError, TypeError) as error:
            raise LobbyError("bad_rules", str(error)) from error
        if request.bot_level not in policy_names(request.game):
            raise LobbyError("unknown_bot", f"no bot {request.bot_level!r}")
        seats = game.seat_count(rules)
        options = {
            "id": secrets.token_urlsafe(TABLE_ID_BYTES),
            "game": request.game,
            "rules": game.rules_options(rules),
            "private": request.private,
            "invite": secrets.token_urlsafe(INVITE_BYTES) if request.private else None,
            "series_length": request.series_length
            or game.series_length(rules, self.settings.series_length(seats)),
            "created_by": user.id,
            "fill_bots_after": request.fill_bots_after,
            "fill_level": request.bot_level,
        }
        await self.store.create_table(str(options["id"]), request.game, options)
        core = self._core(self._config(options))
        self._launch(core)
        if not core.config.private:
            self.bus.publish("lobby", core.config.id, core.info())
        return core.info(), core.config.invite

    async def follow(self, table_id: str) -> None:
        """Load the tournament table `table_id` to be watched, if it is one and not loaded."""
        if table_id in self.tables:
            return
        stored = await self.store.tournament_table(table_id)
        if stored is None or table_id in self.tables:
            return
        core = self._core(self._config(stored.options, followed=True))
        core.restore(stored.events)
        table = self._launch(core)
        task = asyncio.create_task(self._poll(table), name=f"follow-{table_id}")
        self._followers.add(task)
        task.add_done_callback(self._followers.discard)

    async def _poll(self, table: Table) -> None:
        while table.core.status != "finished" and not table.broken:
            await asyncio.sleep(self.settings.tournament_poll_seconds)
            events = await self.store.events_after(table.id, table.core.seq)
            if events:
                table.submit(Followed(tuple(events)))

    def get(self, table_id: str) -> Table:
        """The table `table_id`; raises LobbyError("no_such_table")."""
        table = self.tables.get(table_id)
        if table is None or table.broken:
            raise LobbyError("no_such_table", f"there is no table {table_id!r}")
        return table

    def listing(self) -> list[TableInfo]:
        """Public tables that wait or play."""
        return [
            t.core.info()
            for t in self.tables.values()
            if not t.core.config.private
            and not t.core.config.followed
            and t.core.status != "finished"
        ]

    async def close(self) -> None:
        """Stop every table after its queued commands are done."""
        for task in list(self._followers):
            task.cancel()
        await asyncio.gather(*(table.stop() for table in self.tables.values()))

    def _config(self, options: Mapping[str, object], *, followed: bool = False) -> TableConfig:
        s = self.settings
        return TableConfig(
            **options,  # type: ignore[arg-type]
            followed=followed,
            grace_seconds=s.grace_seconds,
            move_seconds=s.move_seconds,
            timeout_bot=s.timeout_bot,
            resume_window=s.resume_window,
        )

    def _core(self, config: TableConfig) -> TableCore:
        game = self.games[config.game]
        rng = random.Random(secrets.randbits(64))
        return TableCore(config, game, rng, policy_names(config.game))

    def _launch(self, core: TableCore) -> Table:
        table = Table(
            core,
            self.store,
            self.pool,
            self.bus,
            bot_delay=self.settings.bot_delay_seconds,
            bot_deadline=self.settings.bot_deadline_seconds,
            on_moves=self._on_moves,
        )
        self.tables[core.config.id] = table
        table.start(core.wake())
        return table
