"""Wiring (docs/conventions.md section 7): build store, bot pool, bus, lobby, HTTP; then serve.

Start-up order: bind the port (its number names this process in the cluster), migrate the
database, start the bot pool, renew the lease, take and resume this process's tables and the
ones nobody serves, then listen. Shutdown (SIGTERM or `stop`): stop listening, let every table
finish what is queued (so every accepted move is committed), give up the tables' leases
(another process takes them over at once), close clients with 1012 (service restart), then
stop the pool, the bus and the store.
"""

import asyncio
import contextlib
import gc
import itertools
import logging
import signal
import socket
from collections.abc import AsyncIterator, Awaitable
from datetime import UTC, datetime, timedelta

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.frames import CloseCode

from bots.pool import BotPool, Decider
from server.analysis import Analyses
from server.cluster.bus import Bus, NoBus
from server.cluster.mirror import LobbyMirror
from server.cluster.node import node_name, node_url
from server.cluster.remote_bots import RemoteBots
from server.core.actor import Table
from server.edge.connection import Connection
from server.edge.guard import Guard
from server.edge.http import HttpRoutes
from server.edge.tournaments import TournamentWatch
from server.games import all_games
from server.lobby import Lobby
from server.metrics import Metrics
from server.settings import Settings
from server.social.hub import Social
from server.social.presence import Presence
from server.social.relay import Relay
from server.store.db import Store
from server.store.migrate import upgrade
from server.store.outages import unless_unavailable
from server.tasks import cancel
from server.tournament.people import PeopleTournaments

__all__ = ["App", "run", "running"]

log = logging.getLogger(__name__)
# Allocations between young collections, and how many of each generation before the next:
# the heap under load is mostly long-lived (tables' recent states, connections), and every
# pass over it pauses every table. The defaults (700, 10, 10) gave a full pass every few
# seconds at 1,000 clients, each 0.1-0.5 s; memory freed only by the collector is small.
GC_THRESHOLDS = (50_000, 20, 100)
GUEST_CLEANUP_SECONDS = 3600.0


class App:
    """One server process: its collaborators and its open connections."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        # Bound now, served once the tables are back: the port is part of the node's name.
        self.socket = socket.create_server((settings.host, settings.port), backlog=1024)
        bound = self.socket.getsockname()[1]
        self.node = node_name(settings, bound)
        self.url = node_url(settings, self.node, bound)
        self.store = Store.connect(settings.db, self.node)
        self.leases = self.store.leases(self.node, settings.lease_seconds)
        games = all_games()
        local = BotPool(
            settings.bot_workers,
            fallback="random",
            on_latency=self.metrics.observe_bot,
            warm_up=settings.bot_warm_up,
        )
        self.pool: Decider = local
        if settings.mqtt and settings.remote_bots_seconds > 0:
            self.pool = RemoteBots(settings.mqtt, local, games, settings.remote_bots_seconds)
        self.bus: Bus | NoBus = Bus(settings.mqtt) if settings.mqtt else NoBus()
        self.mirror = LobbyMirror(settings.mqtt) if settings.mqtt else None
        # Analyses run in this process's own workers, between their play decisions.
        self.analyses = Analyses(self.store, local, settings)
        self.lobby = Lobby(
            settings,
            self.store,
            self.leases,
            self.pool,
            self.bus,
            games,
            on_moves=self.metrics.count_moves,
            remote=self.mirror,
            on_deal_over=self._deal_over,
        )
        if self.mirror is not None:
            self.mirror.on_change = self.lobby.heard
        self.social_store = self.store.social
        self.social = Social(
            settings, self.social_store, self.lobby, self.metrics, Presence(), self.node
        )
        self.lobby.on_people = self._people
        self.relay = (
            Relay(settings.mqtt, self.bus, self.social, settings.lease_seconds)
            if isinstance(self.bus, Bus)
            else None
        )
        self.tournaments = TournamentWatch(self.store.tournaments, settings.tournament_poll_seconds)
        self.people_tournaments = PeopleTournaments(
            self.store.tournaments, self.lobby, self.tournaments, self.social.push_seat
        )
        self.http = HttpRoutes(self.store, self.tournaments, self.is_ready, self.render_metrics)
        self.guard = Guard(settings)
        self.connections: dict[int, Connection] = {}
        self.ready = False
        self.server: Server | None = None
        self._client_ids = itertools.count(1)
        self._background: list[asyncio.Task[None]] = []

    def _people(self, table: Table) -> None:
        """Who is at `table` changed: presence hears it (a private table as such only). At a
        finished table nobody plays any more, and at a table this process no longer serves
        (another took it over) nobody is any more: their people are back in the lobby."""
        served = self.lobby.tables.get(table.id) is table
        people = table.people() if served and table.status != "finished" else {}
        self.social.presence.at_table(table.id, table.config.private, people)

    def _deal_over(self, table_id: str, number: int) -> None:
        self.analyses.finished(table_id, number)
        self.people_tournaments.deal_over(table_id, number)

    def is_ready(self) -> bool:
        return self.ready

    def render_metrics(self) -> str:
        tables = self.lobby.tables.values()
        playing = sum(1 for t in tables if t.status == "playing")
        remote = sum(self.pool.by_worker.values()) if isinstance(self.pool, RemoteBots) else 0
        return self.metrics.render(len(self.lobby.tables), playing, remote)

    @property
    def port(self) -> int:
        if self.server is None:
            raise RuntimeError("the server is not listening")
        port: int = next(iter(self.server.sockets)).getsockname()[1]
        return port

    async def start(self) -> None:
        """Migrate, resume tables, start the pool and the bus, listen."""
        await asyncio.to_thread(upgrade, self.settings.db)
        self.store.start()
        try:
            await self.leases.register(self.url)
        except Exception:
            await self.store.close()
            self.socket.close()
            raise
        if self.settings.bot_warm_up:
            log.info(
                "starting the bot workers: loading the solver (a machine's first start "
                "compiles it, up to a minute)",
                extra={"workers": self.pool.size},
            )
        await self.pool.start()
        # The lease dates from `register`, before the warm-up (seconds; up to a minute on a
        # first start). Renewed only by the loop, a third of a lease after listening, it
        # would lapse with a warm-up over two thirds of a lease: peers would take the tables
        # this process restores and serves, and its clients would get `moved`.
        await self.leases.renew()
        self.bus.start()
        if self.mirror is not None:
            self.mirror.start()
        await self.social.start()
        if self.relay is not None:
            self.relay.start(self.social_store)
        resumed = await self.lobby.restore()
        await self.people_tournaments.start()
        # What exists now (modules, resumed tables) lives as long as the process: keep it out
        # of the collector's passes, and run them rarely (GC_THRESHOLDS).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self._background.append(asyncio.create_task(self.metrics.watch_loop_lag()))
        self._background.append(asyncio.create_task(self.lobby.keep_leases()))
        if self.settings.guest_days > 0:
            self._background.append(asyncio.create_task(self._keep_guests_clean()))
        self.server = await serve(
            self._serve_client,
            sock=self.socket,
            process_request=self.http.handler(),
            max_size=self.settings.max_frame_bytes,
            ping_interval=self.settings.ping_seconds,
            ping_timeout=self.settings.ping_seconds,
            max_queue=4,
            compression="deflate" if self.settings.compression else None,
        )
        self.ready = True
        log.info(
            "serving",
            extra={
                "host": self.settings.host,
                "port": self.port,
                "node": self.node,
                "url": self.url,
                "tables_resumed": resumed,
            },
        )

    async def stop(self) -> None:
        """Graceful shutdown; every accepted move is committed before clients are closed."""
        self.ready = False
        if self.server is not None:
            self.server.close(close_connections=False)
        # The lease loop first: running after the lobby released the tables, it would take
        # them back into this stopping process.
        for task in self._background:
            await cancel(task)
        await self.lobby.close()
        await asyncio.gather(
            *(
                c.ws.close(CloseCode.SERVICE_RESTART, "server restarting")
                for c in self.connections.values()
            ),
            return_exceptions=True,
        )
        if self.server is not None:
            await self.server.wait_closed()
        await self.people_tournaments.close()
        await self.tournaments.close()
        if self.relay is not None:
            await self.relay.close()
        await self.analyses.close()
        if self.mirror is not None:
            await self.mirror.close()
        await self.pool.close()
        await self.bus.close()
        await self.store.close()
        log.info("stopped")

    async def clean_up_guests(self) -> int:
        """Delete the guests who never sat at a table and were not seen for `guest_days`;
        returns how many. The guests connected here are seen now: every process does this
        for its own, so a guest connected anywhere is never deleted."""
        connected = (
            c.user.id
            for c in self.connections.values()
            if c.user is not None and c.user.kind == "guest"
        )
        await self.store.saw_guests(connected)
        idle_since = datetime.now(UTC) - timedelta(days=self.settings.guest_days)
        return await self.store.delete_idle_guests(idle_since)

    async def _keep_guests_clean(self) -> None:
        """`clean_up_guests` at start and every hour."""
        while True:
            with unless_unavailable(log, "idle guests not cleaned up"):
                deleted = await self.clean_up_guests()
                if deleted:
                    log.info("idle guests deleted", extra={"guests": deleted})
            await asyncio.sleep(GUEST_CLEANUP_SECONDS)

    def _serve_client(self, ws: ServerConnection) -> Awaitable[None]:
        """The handler of a connection: its `Connection.serve` itself, without a coroutine of
        our own around it (an idle connection holds one frame, as a bare handler does)."""
        peer = ws.remote_address[0] if ws.remote_address else ""
        forwarded = ws.request.headers.get("X-Forwarded-For") if ws.request else None
        ws.response = None  # the handshake is over: its response's headers (1 KiB) are not kept
        connection = Connection(
            next(self._client_ids),
            ws,
            self.lobby,
            self.store,
            self.settings,
            self.metrics,
            self.tournaments,
            self.guard,
            self.guard.address(str(peer), forwarded),
            social=self.social,
            analyses=self.analyses,
            people_tournaments=self.people_tournaments,
            registry=self.connections,
        )
        return connection.serve()


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[App]:
    """A started app, stopped on exit (tests use port 0 and read `app.port`)."""
    app = App(settings)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


async def run(settings: Settings) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with running(settings):
        await stop.wait()
