"""What the load benchmarks share (bench/load.py, bench/people.py): the server processes they
start and measure (`start_server`, `Servers`, `wait_ready`, `fresh_database`), the CPU of the
local services, free ports, and a client's request and reply."""

import asyncio
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection

__all__ = [
    "Servers",
    "free_port",
    "fresh_database",
    "receive_all",
    "request",
    "service_cpu_seconds",
    "start_server",
    "wait_listening",
    "wait_ready",
]


async def request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        reply: dict[str, Any] = json.loads(await ws.recv())
        if reply.get("id") == message.get("id"):
            return reply


def receive_all(pipes: list[Connection]) -> list[Any]:
    return [pipe.recv() for pipe in pipes]


class Servers:
    """The server processes, measured as one."""

    def __init__(self, processes: list[psutil.Process]) -> None:
        self.processes = processes

    def rss(self) -> int:
        return sum(p.memory_info().rss for p in self.processes)

    def cpu_seconds(self) -> float:
        return sum(p.cpu_times().user + p.cpu_times().system for p in self.processes)


def service_cpu_seconds(name: str) -> float:
    """CPU seconds so far of every process called `name` on this machine (the local
    PostgreSQL's backends, Mosquitto): what the database and the broker spend on the load."""
    total = 0.0
    for process in psutil.process_iter(["name", "cpu_times"]):
        times = process.info["cpu_times"]
        if process.info["name"] == name and times is not None:
            total += times.user + times.system
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, db: str, mqtt: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "TISCHRUNDE_LOG_LEVEL": "WARNING",
        "TISCHRUNDE_RATE_BURST": "100",
        "TISCHRUNDE_MQTT": mqtt,
        # Every client comes from 127.0.0.1, and each is a new guest.
        "TISCHRUNDE_GUEST_BURST": "1e9",
        "TISCHRUNDE_GUEST_BURST_PER_ADDRESS": "1e9",
    }
    command = ["serve", "--port", str(port), "--db", db, "--bot-workers", "1"]
    return subprocess.Popen([sys.executable, "-m", "server.cli", *command], env=env)


def wait_listening(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def wait_ready(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1)
            return
        time.sleep(0.1)
    raise TimeoutError(f"the server on port {port} did not become ready")


@contextlib.contextmanager
def fresh_database(postgres: str | None, folder: str) -> Iterator[str]:
    """A SQLite file in `folder`, or a new database on the PostgreSQL server at `postgres`
    (dropped afterwards): a cluster's servers would otherwise take over old runs' tables."""
    if postgres is None:
        yield f"sqlite+aiosqlite:///{folder}/bench.db"
        return
    import asyncpg

    name = f"tischrunde_load_{secrets.token_hex(4)}"

    async def admin(statement: str) -> None:
        connection = await asyncpg.connect(postgres)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://{postgres.split('://', 1)[1].rsplit('/', 1)[0]}/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE "{name}" WITH (FORCE)'))
