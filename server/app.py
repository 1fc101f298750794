"""Wiring: build the store, bot pool, bus, lobby and HTTP routes, then serve (HOUSE_STYLE F).

Start-up order: migrate the database, resume every table from its event log, start the bot
pool, then listen. Shutdown (SIGTERM or `stop`): stop listening, let every table finish what
is queued (so every accepted move is committed), close clients with 1012 (service restart),
then stop the pool, the bus and the store.
"""

import asyncio
import contextlib
import gc
import itertools
import logging
import signal
from collections.abc import AsyncIterator

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.frames import CloseCode

from bots.pool import BotPool, Decider
from server.bus import Bus, NoBus
from server.connection import Connection
from server.games import SkatGame, TichuGame, games_by_name
from server.http import HttpRoutes
from server.lobby import Lobby
from server.metrics import Metrics
from server.remote_bots import RemoteBots
from server.settings import Settings
from server.store.db import Store
from server.store.migrate import upgrade
from server.tournaments import TournamentWatch

__all__ = ["App", "run", "running"]

log = logging.getLogger(__name__)
# Allocations between young collections, and how many of each generation before the next:
# the heap under load is mostly long-lived (tables' recent states, connections), and every
# pass over it pauses every table. The defaults (700, 10, 10) gave a full pass every few
# seconds at 1,000 clients, each 0.1-0.5 s; memory freed only by the collector is small.
GC_THRESHOLDS = (50_000, 20, 100)


class App:
    """One server process: its collaborators and its open connections."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.store = Store.connect(settings.db)
        games = games_by_name([SkatGame(), TichuGame()])
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
        self.lobby = Lobby(
            settings,
            self.store,
            self.pool,
            self.bus,
            games,
            on_moves=self.metrics.count_moves,
        )
        self.tournaments = TournamentWatch(self.store.engine, settings.tournament_poll_seconds)
        self.http = HttpRoutes(self.store, self.tournaments, self.is_ready, self.render_metrics)
        self.connections: dict[int, Connection] = {}
        self.ready = False
        self.server: Server | None = None
        self._client_ids = itertools.count(1)
        self._background: list[asyncio.Task[None]] = []

    def is_ready(self) -> bool:
        return self.ready

    def render_metrics(self) -> str:
        tables = self.lobby.tables.values()
        playing = sum(1 for t in tables if t.core.status == "playing")
        return self.metrics.render(len(self.lobby.tables), playing)

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
        if self.settings.bot_warm_up:
            log.info(
                "starting the bot workers: loading the solver (a machine's first start "
                "compiles it, up to a minute)",
                extra={"workers": self.pool.size},
            )
        await self.pool.start()
        self.bus.start()
        resumed = await self.lobby.restore()
        # What exists now (modules, resumed tables) lives as long as the process: keep it out
        # of the collector's passes, and run them rarely (GC_THRESHOLDS).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self._background.append(asyncio.create_task(self.metrics.watch_loop_lag()))
        self.server = await serve(
            self._serve_client,
            self.settings.host,
            self.settings.port,
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
            extra={"host": self.settings.host, "port": self.port, "tables_resumed": resumed},
        )

    async def stop(self) -> None:
        """Graceful shutdown; every accepted move is committed before clients are closed."""
        self.ready = False
        if self.server is not None:
            self.server.close(close_connections=False)
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
        for task in self._background:
            task.cancel()
        await self.tournaments.close()
        await self.pool.close()
        await self.bus.close()
        await self.store.close()
        log.info("stopped")

    async def _serve_client(self, ws: ServerConnection) -> None:
        connection = Connection(
            next(self._client_ids),
            ws,
            self.lobby,
            self.store,
            self.settings,
            self.metrics,
            self.tournaments,
        )
        self.connections[connection.id] = connection
        self.metrics.connections += 1
        self.metrics.connections_total += 1
        try:
            await connection.serve()
        finally:
            self.metrics.connections -= 1
            del self.connections[connection.id]


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
