"""Load benchmark: N WebSocket clients playing Skat at 0.5 actions/s each against a real server.

The server runs as a subprocess (`tischrunde serve`, SQLite in a temp folder); this process is
the load client. Three clients share each table and play random legal moves; a client whose
turn it is waits so that it acts about every 2 s on average (0.5 actions/s per client at the
table's pace). Reported: p50/p99 latency from sending `act` to receiving the event of that
move on the same connection, server memory per idle connection (RSS growth after N clients
said hello, divided by N), and server CPU while playing. Loopback only; bounded in time.

    python -m bench.load --clients 1000 --seconds 30
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect

ACTIONS_PER_SECOND = 0.5
SEATS = 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Player:
    """One bench client: answers its turns, measures act -> own event latency."""

    def __init__(self, ws: ClientConnection, seat: int, rng: random.Random) -> None:
        self.ws = ws
        self.seat = seat
        self.rng = rng
        self.table = ""
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.pending: dict[int, float] = {}  # expected seq -> send time
        self.latencies: list[float] = []
        self.turn = asyncio.Event()
        self.measuring = False
        self.errors: list[str] = []
        self.acted_at = -1

    async def read(self) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            if message["type"] == "error":
                self.errors.append(message["code"])
            if message["type"] in ("event", "snapshot"):
                self.seq = max(self.seq, message["seq"])
                sent = self.pending.pop(message["seq"], None)
                if sent is not None and self.measuring:
                    self.latencies.append(time.perf_counter() - sent)
                if message.get("view"):
                    self.view = message["view"]
                    if self.view["to_move"] == self.seat and self.view["legal"]:
                        self.turn.set()

    def my_turn(self) -> bool:
        view = self.view
        return (
            view is not None
            and view["to_move"] == self.seat
            and bool(view["legal"])
            and self.seq != self.acted_at
        )

    async def play(self, stop: float) -> None:
        # Each of the table's three clients acts on its turn: one action per client per
        # 1 / ACTIONS_PER_SECOND seconds means a table-wide pace of SEATS * 0.5 actions/s.
        while time.monotonic() < stop:
            if not self.my_turn():
                self.turn.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.turn.wait(), stop - time.monotonic())
                continue
            await asyncio.sleep(self.rng.expovariate(SEATS * ACTIONS_PER_SECOND))
            if not self.my_turn() or self.view is None:
                continue
            legal = self.view["legal"]
            moves = [a for a in legal if a["type"] not in ("resign", "kontra", "re")] or legal
            self.acted_at = self.seq
            self.pending[self.seq + 1] = time.perf_counter()
            action = self.rng.choice(moves)
            await self.ws.send(
                json.dumps({"type": "act", "table": self.table, "seq": self.seq, "action": action})
            )


async def request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        reply: dict[str, Any] = json.loads(await ws.recv())
        if reply.get("id") == message.get("id"):
            return reply


async def run(clients: int, seconds: float, port: int, server: psutil.Process) -> dict[str, Any]:
    rng = random.Random(1)
    url = f"ws://127.0.0.1:{port}/ws"
    base_rss = server.memory_info().rss
    sockets: list[ClientConnection] = []
    for i in range(clients):
        ws = await connect(url, max_size=2**20)
        await request(ws, {"type": "hello", "id": 1, "version": 1})
        sockets.append(ws)
        if i % 500 == 499:
            print(f"  {i + 1} clients connected", file=sys.stderr)
    await asyncio.sleep(1)
    idle_rss = server.memory_info().rss
    players: list[Player] = []
    for start in range(0, clients - clients % SEATS, SEATS):
        group = sockets[start : start + SEATS]
        created = await request(
            group[0], {"type": "create_table", "id": 2, "game": "skat", "series_length": 200}
        )
        table = created["table"]["id"]
        for seat, ws in enumerate(group):
            player = Player(ws, seat, random.Random(rng.random()))
            player.table = table
            players.append(player)
            await request(ws, {"type": "join", "id": 3, "table": table, "seat": seat})
    readers = [asyncio.create_task(p.read()) for p in players]
    warmup = 5.0
    stop = time.monotonic() + warmup + seconds
    playing = [asyncio.create_task(p.play(stop)) for p in players]
    await asyncio.sleep(warmup)
    for p in players:
        p.measuring = True
    cpu_before = server.cpu_times()
    wall_before = time.monotonic()
    await asyncio.gather(*playing)
    cpu_after = server.cpu_times()
    wall = time.monotonic() - wall_before
    for task in readers:
        task.cancel()
    latencies = sorted(x for p in players for x in p.latencies)
    for ws in sockets:
        await ws.close()

    def pct(q: float) -> float:
        return (
            1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]
            if latencies
            else float("nan")
        )

    busy = (cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)
    return {
        "clients": clients,
        "actions": len(latencies),
        "errors": sum(len(p.errors) for p in players),
        "actions_per_second": round(len(latencies) / wall, 1),
        "p50_ms": round(pct(0.5), 1),
        "p99_ms": round(pct(0.99), 1),
        "kib_per_idle_connection": round((idle_rss - base_rss) / clients / 1024, 1),
        "server_cpu_percent": round(100 * busy / wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TISCHRUNDE_LOG_LEVEL": "WARNING", "TISCHRUNDE_RATE_BURST": "100"}
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite+aiosqlite:///{folder}/bench.db",
                "--bot-workers",
                "1",
            ],
            env=env,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1)
                    break
                time.sleep(0.1)
            report = asyncio.run(run(args.clients, args.seconds, port, psutil.Process(process.pid)))
            print(json.dumps(report))
        finally:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
