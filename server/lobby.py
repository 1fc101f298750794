"""The lobby: creates, finds, lists and resumes tables. One instance, built by `app.py`.

In a cluster each table is served by the one process holding its lease
(`server/store/leases.py`). The lobby resumes its own tables at start, renews their leases,
takes over tables whose owner died, answers requests for a table served elsewhere with
`moved` (and the owner's URL), and lists the public tables of every process (its own, and the
others' from the broker's retained lobby topics, `server/cluster/mirror.py`). Clients that
`watch_lobby` get each change of a public table pushed as it happens: the lobby stands
between its tables and the bus, so every lobby entry a table publishes (never a private
table's, `views.lobby_entry`) also reaches the watchers, and so does every entry the mirror
hears from the other processes.

It also follows tournament tables for spectators: a tournament's runner (another process)
writes them, so the lobby loads one when somebody watches it and reads its new events every
`tournament_poll_seconds` until its list ends; the table shows them as a live table would.
"""

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Protocol

import msgspec

from bots.pool import Decider
from server.core.actor import Publisher, Table
from server.core.commands import Followed, Reserve, User
from server.core.state import TableConfig, new_table, restore
from server.core.timers import MOVE_CLOCKS
from server.events import Player, TableEvent
from server.games import GameKind
from server.plain import Plain
from server.protocol import CreateTable, LobbyTable, TableInfo, encode
from server.settings import Settings
from server.store.db import Store, StoredTable
from server.store.leases import Leases
from server.store.outages import unless_unavailable
from server.tasks import log_failure

__all__ = ["FALLBACK_LEVEL", "Lobby", "LobbyError", "RemoteTables", "timeout_level"]

log = logging.getLogger(__name__)

TABLE_ID_BYTES = 6
INVITE_BYTES = 6
FALLBACK_LEVEL = "greedy"  # plays for a human when neither table nor server names a level


def timeout_level(table_level: str, server_level: str) -> str:
    """The bot that plays for a human who ran out of time or is away: the table's level (the
    one its creator chose for its bots), else the server's `timeout_bot`, but never `random`,
    whose moves would insult the player they stand in for."""
    return next(level for level in (table_level, server_level, FALLBACK_LEVEL) if level != "random")


class LobbyError(Exception):
    """A lobby request that cannot be granted; `code` is a protocol error code."""

    def __init__(self, code: str, message: str, url: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.url = url


class RemoteTables(Protocol):
    """The public tables other processes serve, as far as this one has heard."""

    def listing(self) -> list[TableInfo]: ...


Push = Callable[[bytes], None]  # queues an encoded message for one client


class Lobby:
    """Every table of this server, by id; the publisher its tables publish through."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        leases: Leases,
        pool: Decider,
        bus: Publisher,
        games: Mapping[str, GameKind],
        on_moves: Callable[[int], None] | None = None,
        remote: RemoteTables | None = None,
        on_deal_over: Callable[[str, int], None] | None = None,
    ) -> None:
        self.settings = settings
        self._on_deal_over = on_deal_over
        self.store = store
        self.leases = leases
        self.remote = remote
        self.pool = pool
        self.bus = bus
        self.games = games
        self.tables: dict[str, Table] = {}
        self._on_moves = on_moves
        self._tasks: set[asyncio.Task[None]] = set()
        self._claiming = asyncio.Lock()  # one claim-and-adopt at a time in this process
        self.watchers: dict[int, Push] = {}  # clients that watch the lobby
        # Told who is at a table after each command that may change it (presence; app.py).
        self.on_people: Callable[[Table], None] | None = None

    def publish(self, channel: str, table_id: str, message: object) -> None:
        """A table's public message: to the bus, and a lobby entry to the watchers too."""
        self.bus.publish(channel, table_id, message)
        table = self.tables.get(table_id)
        followed = table is not None and table.config.followed
        if channel == "lobby" and isinstance(message, TableInfo) and not followed:
            self.tell_watchers(message)

    def tell_watchers(self, info: TableInfo) -> None:
        """Push the changed public table `info` to every lobby watcher (encoded once)."""
        if info.private or not self.watchers:
            return
        text = encode(LobbyTable(table=info))
        for push in list(self.watchers.values()):
            push(text)

    def heard(self, info: TableInfo) -> None:
        """Another process's table changed (its lobby entry, from the mirror)."""
        if info.id not in self.tables:
            self.tell_watchers(info)

    async def watch(self, client: int, push: Push) -> list[TableInfo]:
        """Push every change of a public table to `client` from now on; returns the public
        tables now (listed after any await, so no change falls between the two)."""
        tables = await self.listing()
        self.watchers[client] = push
        return tables

    def unwatch(self, client: int) -> None:
        """The client is gone."""
        self.watchers.pop(client, None)

    async def restore(self) -> int:
        """Resume the unfinished tables nobody serves, and this node's own from before a
        restart, from their event logs; returns how many."""
        for stored in await self.leases.claim(own=True):
            self._adopt(stored)
        return len(self.tables)

    async def keep_leases(self) -> None:
        """Forever: renew this node's leases every third of their length, stop the tables
        it lost, and take over the tables of processes that died."""
        while True:
            await asyncio.sleep(self.settings.lease_seconds / 3)
            with unless_unavailable(log, "leases not renewed"):
                await self._renew_and_adopt()

    async def _renew_and_adopt(self) -> None:
        serving = [
            table
            for table in self.tables.values()
            if not table.broken and not table.config.followed and table.status != "finished"
        ]
        held = await self.leases.renew()
        for table in serving:
            if table.id not in held:
                await self._lose(table)
        async with self._claiming:
            for stored in await self.leases.claim():
                self._adopt(stored)

    def _adopt(self, stored: StoredTable) -> Table:
        """Serve a table just claimed: resume it from its events (or keep the copy in memory
        when it is up to date: this node held it all along) and announce it in the lobby."""
        table_id = str(stored.options["id"])
        last = stored.events[-1][0] if stored.events else 0
        old = self.tables.get(table_id)
        if old is not None:
            if not old.broken and old.seq == last:
                return old
            self._lost(old)  # out of date: another process served it meanwhile
        return self._launch(self._config(stored.options), stored.events)

    def _people(self, table: Table) -> None:
        if self.on_people is not None:
            self.on_people(table)

    def _lost(self, table: Table) -> None:
        """A table's append found that another process owns it now."""
        self._drop(table)
        self._spawn(self._lose(table), f"lose-{table.id}")

    def _drop(self, table: Table) -> None:
        """Serve `table` no more: nobody is at it on this process any more (presence)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._people(table)

    def _spawn(self, work: Coroutine[object, object, None], name: str) -> None:
        """Run `work` in the background until it ends or the lobby closes."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(log_failure)

    async def _lose(self, table: Table) -> None:
        """Stop serving `table` and send its clients to the process that serves it now."""
        self._drop(table)
        owner = None
        with contextlib.suppress(Exception):
            owner = await self.leases.owner(table.id)
        table.tell_moved(owner.url if owner is not None and owner.live else None)
        await table.stop()

    async def locate(self, table_id: str) -> Table:
        """The table `table_id` if this process serves it, taking it over if nobody does;
        raises LobbyError `moved` with the owner's URL when another process serves it."""
        table = self.tables.get(table_id)
        if table is not None and not table.broken:
            return table
        owner = await self.leases.owner(table_id)
        if owner is not None and not owner.live:
            async with self._claiming:  # not while this process's lease loop adopts it
                table = self.tables.get(table_id)
                if table is not None and not table.broken:
                    return table
                for stored in await self.leases.claim(table_id=table_id):
                    return self._adopt(stored)
            owner = await self.leases.owner(table_id)  # another process was quicker
        if owner is not None and owner.live and owner.node != self.leases.node:
            raise LobbyError(
                "moved",
                f"table {table_id} is served at {owner.url}: connect there and send this again",
                owner.url,
            )
        return self.get(table_id)

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
        if request.bot_level not in game.bots.names:
            raise LobbyError("unknown_bot", f"no bot {request.bot_level!r}")
        clocks = ", ".join(map(str, MOVE_CLOCKS))
        if request.move_seconds is not None and request.move_seconds not in MOVE_CLOCKS:
            raise LobbyError("bad_move_clock", f"move_seconds is one of {clocks} (0: no clock)")
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
            "host": user.name,
            "fill_bots_after": request.fill_bots_after,
            "fill_level": request.bot_level,
        }
        if request.move_seconds is not None:
            options["move_seconds"] = float(request.move_seconds)
        await self.store.create_table(
            str(options["id"]), request.game, options, self.leases.new_lease()
        )
        table = self._launch(self._config(options))
        return table.info(), table.config.invite

    async def open_drawn(
        self,
        tournament: str,
        game: str,
        rules: Plain,
        series_length: int,
        players: Sequence[Player],
    ) -> str:
        """Open a public table of the people's tournament `tournament` whose seats are drawn:
        `players` sit at once, by seat, and the list begins; returns its id. The bots among
        them play at the level they name, and for a player who is away."""
        kind = self.games[game]
        parsed = kind.parse_rules(dict(rules))
        level = next((p.bot for p in players if p.bot is not None), FALLBACK_LEVEL)
        options = {
            "id": secrets.token_urlsafe(TABLE_ID_BYTES),
            "game": game,
            "rules": kind.rules_options(parsed),
            "private": False,
            "invite": None,
            "series_length": series_length,
            "created_by": 0,
            "host": None,
            "fill_bots_after": None,
            "fill_level": level,
            "tournament": tournament,
        }
        await self.store.create_table(str(options["id"]), game, options, self.leases.new_lease())
        table = self._launch(self._config(options))
        table.submit(Reserve(tuple(players)))
        return table.id

    async def follow(self, table_id: str) -> None:
        """Load the tournament table `table_id` to be watched, if it is one and not loaded."""
        if table_id in self.tables:
            return
        stored = await self.store.tournament_table(table_id)
        if stored is None or table_id in self.tables:
            return
        table = self._launch(self._config(stored.options, followed=True), stored.events)
        self._spawn(self._poll(table), f"follow-{table_id}")

    async def _poll(self, table: Table) -> None:
        """Read the followed table's new events every `tournament_poll_seconds` until its
        list ends. A database that is away for a while (or an SQLite file locked by the
        runner's commit) is waited out."""
        seen = table.seq
        while table.status != "finished" and not table.broken:
            await asyncio.sleep(self.settings.tournament_poll_seconds)
            with unless_unavailable(log, f"following {table.id}"):
                seen = await self._catch_up(table, seen)

    async def _catch_up(self, table: Table, seen: int) -> int:
        """Hand the table the events after `seen` a page at a time; returns the last seq.
        A runner commits a whole game at once, and showing a spectator hundreds of events
        in one go would overflow its outbox (`outbox_size`) however fast it reads; while
        the next page is read, the spectators' connections send the last one."""
        page = max(1, self.settings.outbox_size // 4)
        while not table.broken:
            events = await self.store.events_after(table.id, seen, page)
            if events:
                seen = events[-1][0]
                table.submit(Followed(tuple(events)))
            if len(events) < page:
                break
        return seen

    def get(self, table_id: str) -> Table:
        """The table `table_id`; raises LobbyError("no_such_table")."""
        table = self.tables.get(table_id)
        if table is None or table.broken:
            raise LobbyError("no_such_table", f"there is no table {table_id!r}")
        return table

    async def listing(self) -> list[TableInfo]:
        """Public tables that wait or play, on this process and the others (those the broker
        announced whose lease holds: an entry of a table that ended or whose process died
        unnoticed is not listed)."""
        heard = [] if self.remote is None else self.remote.listing()
        heard = [info for info in heard if info.id not in self.tables]
        live = await self.leases.live({info.id for info in heard}) if heard else set()
        local = [  # after the await: what a watcher is told from now on starts from this
            t.info()
            for t in self.tables.values()
            if not t.config.private and not t.config.followed and t.status != "finished"
        ]
        return local + [info for info in heard if info.id in live and info.id not in self.tables]

    async def close(self) -> None:
        """Stop every table after its queued commands are done, then give up their leases
        so that another process takes them over at once."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*(table.stop() for table in self.tables.values()))
        with unless_unavailable(log, "leases not released"):
            await self.leases.release()

    def _config(self, options: Mapping[str, object], *, followed: bool = False) -> TableConfig:
        """A stored table's configuration: its creator's options (a table created without a
        move clock, or before tables had one, gets the server's) and the server's durations."""
        s = self.settings
        given = {"move_seconds": s.move_seconds, **options}
        level = str(given.get("fill_level", "random"))
        return TableConfig(
            **given,  # type: ignore[arg-type]
            followed=followed,
            grace_seconds=s.grace_seconds,
            timeout_bot=timeout_level(level, s.timeout_bot),
            resume_window=s.resume_window,
        )

    def _launch(self, config: TableConfig, events: Sequence[tuple[int, TableEvent]] = ()) -> Table:
        """Serve the table `config` describes, restored from its `events`; a public table
        announces itself in the lobby (`decide.wake`)."""
        kind = self.games[config.game]
        state = restore(new_table(config, kind, secrets.randbits(64), kind.bots.names), events)
        table = Table(
            state,
            self.store,
            self.pool,
            self,
            bot_delay=self.settings.bot_delay_seconds,
            bot_deadline=self.settings.bot_deadline_seconds,
            on_moves=self._on_moves,
            on_lost=self._lost,
            on_people=self._people,
            on_deal_over=self._on_deal_over,
        )
        self.tables[config.id] = table
        table.start()
        return table
