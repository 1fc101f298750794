"""Kill -9 under load, many times: no game lost, no accepted move lost, time to resume.

Starts the server as a subprocess, opens `--tables` Skat tables, each with one client playing
random legal moves and two random bots, and every `--interval` seconds kills the server with
SIGKILL and starts it again on the same database. The clients reconnect with their session
token and resume every table from the last event they saw. At the end every event any client
was told of is looked up in the database (same seq, same kind, same action): `moves lost` counts
those missing or different, `games lost` the tables that did not come back. Reported: kills,
moves the clients heard of, time from the kill to the server being ready again and to every
client having resumed (p50 and max).

With `--servers N` (N > 1) the same runs against a cluster of N server processes on one
database: each kill takes down one process (in turn) and it is started again only after its
tables went on elsewhere. Its clients reconnect to another process, follow `moved` to the
new owner and resume; the time to resume then includes the dead process's lease running out
(`--lease`, seconds).

    python -m bench.kill_resume --kills 20 --tables 20 [--db postgresql+asyncpg://...]
    python -m bench.kill_resume --kills 10 --tables 20 --servers 2 --db postgresql+asyncpg://...
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.store.models import game_events, tables

READY_PATIENCE = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: str, port: int, folder: Path, extra: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`tischrunde serve` on `port` with cheap bots; `extra` environment overrides."""
    env = {
        **os.environ,
        "TISCHRUNDE_BOT_DELAY_SECONDS": "0.05",
        "TISCHRUNDE_BOT_WORKERS": "1",
        "TISCHRUNDE_BOT_WARM_UP": "false",
        "TISCHRUNDE_GRACE_SECONDS": "600",
        "TISCHRUNDE_SERIES_3": "1000",
        "TISCHRUNDE_RATE_PER_SECOND": "1000",
        "TISCHRUNDE_RATE_BURST": "1000",
        # Every client comes from 127.0.0.1, and each is a new guest.
        "TISCHRUNDE_GUEST_BURST": "1e9",
        "TISCHRUNDE_GUEST_BURST_PER_ADDRESS": "1e9",
        "TISCHRUNDE_LOG_LEVEL": "ERROR",
        **(extra or {}),
    }
    log = (folder / "server.log").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--db", db],
        env=env,
        stdout=log,
        stderr=log,
    )


def wait_ready(port: int, server: subprocess.Popen[bytes] | None = None) -> None:
    """Until /readyz answers; raises if `server` exits first."""
    deadline = time.monotonic() + READY_PATIENCE
    while time.monotonic() < deadline:
        if server is not None and server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode} while starting")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.02)
    raise TimeoutError("the server did not become ready")


class Player:
    """One client at one table: plays seat 0, remembers every event it was told of."""

    def __init__(self, ports: list[int], seed: int) -> None:
        self.ports = ports
        self.next = seed  # creates its table on server `seed mod N`, then tries them in turn
        self.url: str | None = None  # where a `moved` sent it
        self.rng = random.Random(seed)
        self.token: str | None = None
        self.table = ""
        self.seen: dict[int, dict[str, Any]] = {}
        self.view: dict[str, Any] | None = None
        self.resumed = asyncio.Event()
        self.ids = 0

    async def _request(self, ws: ClientConnection, kind: str, **fields: Any) -> None:
        self.ids += 1
        await ws.send(json.dumps({"type": kind, "id": self.ids, **fields}))

    async def run(self) -> None:
        """Play forever; reconnect and resume whenever the server goes away."""
        while True:
            port = self.ports[self.next % len(self.ports)]
            url, self.url = self.url or f"ws://127.0.0.1:{port}/ws", None
            try:
                async with connect(url, proxy=None) as ws:
                    await self._session(ws)
            except (OSError, ConnectionClosed, KeyError):
                # KeyError: an error instead of the expected reply (the server was going down)
                self.next += 1
                await asyncio.sleep(0.05)

    async def _session(self, ws: ClientConnection) -> None:
        await self._request(ws, "hello", version=1, token=self.token)
        welcome = json.loads(await ws.recv())
        self.token = welcome["token"]
        if not self.table:
            await self._request(ws, "create_table", game="skat")
            self.table = json.loads(await ws.recv())["table"]["id"]
            await self._sit_down(ws)
        else:
            await self._request(ws, "resume", table=self.table, seq=max(self.seen, default=0))
        async for frame in ws:
            message = json.loads(frame)
            if message["type"] == "error" and message["code"] == "moved":
                self.url = message.get("url")  # served by another process: go there
                return
            if message["type"] == "error" and message["code"] in ("not_at_table", "not_seated"):
                # The server died between creating the table and seating us: sit down now.
                await self._sit_down(ws)
            elif message["type"] == "snapshot":
                self.view = message.get("view")
                self.resumed.set()
            elif message["type"] == "event":
                self.seen[message["seq"]] = message["event"]
                self.view = message.get("view")
                self.resumed.set()
            elif message["type"] == "ok":
                self.resumed.set()
            await self._maybe_act(ws)

    async def _sit_down(self, ws: ClientConnection) -> None:
        await self._request(ws, "join", table=self.table, seat=0)
        for seat in (1, 2):
            await self._request(ws, "add_bot", table=self.table, seat=seat, level="random")

    async def _maybe_act(self, ws: ClientConnection) -> None:
        view = self.view
        if view is None or view.get("phase") == "over" or view.get("to_move") != 0:
            return
        moves = [a for a in view["legal"] if a["type"] not in ("resign", "kontra", "re")]
        if moves:
            seq = max(self.seen, default=0)
            await self._request(ws, "act", table=self.table, seq=seq, action=self.rng.choice(moves))


async def audit(db: str, players: list[Player]) -> tuple[int, int, int]:
    """(moves heard of, moves lost, games lost), checked against the database."""
    engine = create_async_engine(db)
    heard = lost = games_lost = 0
    try:
        async with engine.connect() as conn:
            for player in players:
                rows = await conn.execute(
                    select(game_events.c.seq, game_events.c.payload).where(
                        game_events.c.table_id == player.table
                    )
                )
                stored = {row.seq: json.loads(row.payload) for row in rows}
                exists = await conn.execute(select(tables.c.id).where(tables.c.id == player.table))
                games_lost += exists.first() is None
                for seq, event in player.seen.items():
                    heard += event["kind"] == "move"
                    match = stored.get(seq)
                    if match is None or match["kind"] != event["kind"]:
                        lost += 1
                    elif event["kind"] == "move" and event.get("action") is not None:
                        lost += match["action"] != event["action"]
    finally:
        await engine.dispose()
    return heard, lost, games_lost


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    db = args.db or f"sqlite+aiosqlite:///{folder / 'kill.db'}"
    extra = {"TISCHRUNDE_LEASE_SECONDS": str(args.lease)}
    ports = [free_port() for _ in range(args.servers)]
    servers = {port: start_server(db, port, folder, extra) for port in ports}
    for port, server in servers.items():
        await asyncio.to_thread(wait_ready, port, server)
    players = [Player(ports, seed) for seed in range(args.tables)]
    tasks = [asyncio.create_task(p.run()) for p in players]
    ready_times: list[float] = []
    resume_times: list[float] = []
    for kill in range(args.kills):
        await asyncio.sleep(args.interval)
        victim = ports[kill % len(ports)]
        servers[victim].send_signal(signal.SIGKILL)
        servers[victim].wait()
        killed = time.perf_counter()
        for player in players:
            player.resumed.clear()
        if len(ports) == 1:  # restart at once: the clients have nowhere else to go
            servers[victim] = start_server(db, victim, folder, extra)
            await asyncio.to_thread(wait_ready, victim, servers[victim])
            ready_times.append(time.perf_counter() - killed)
        await asyncio.wait_for(asyncio.gather(*(p.resumed.wait() for p in players)), READY_PATIENCE)
        resume_times.append(time.perf_counter() - killed)
        if len(ports) > 1:  # its tables went on elsewhere; now it comes back, owning none
            servers[victim] = start_server(db, victim, folder, extra)
            await asyncio.to_thread(wait_ready, victim, servers[victim])
    await asyncio.sleep(args.interval)
    for server in servers.values():
        server.send_signal(signal.SIGKILL)
        server.wait()
    for task in tasks:
        task.cancel()
    heard, lost, games_lost = await audit(db, players)
    result: dict[str, Any] = {
        "database": db.split("://")[0],
        "servers": len(ports),
        "tables": args.tables,
        "kills": args.kills,
        "moves_heard": heard,
        "moves_lost": lost,
        "games_lost": games_lost,
    }
    if ready_times:
        result |= {"ready_s_p50": statistics.median(ready_times), "ready_s_max": max(ready_times)}
    return result | {
        "all_resumed_s_p50": statistics.median(resume_times),
        "all_resumed_s_max": max(resume_times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="kill -9 the server under load, many times")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between kills")
    parser.add_argument("--db", default="", help="database URL (default: SQLite in a temp dir)")
    parser.add_argument("--servers", type=int, default=1, help="server processes (a cluster)")
    parser.add_argument(
        "--lease", type=float, default=2.0, help="TISCHRUNDE_LEASE_SECONDS of the servers"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(run(args, Path(folder)))
    for key, value in result.items():
        shown = f"{value:.2f}" if isinstance(value, float) else value
        print(f"{key:<20} {shown}")


if __name__ == "__main__":
    main()
