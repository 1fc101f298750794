"""The database and the broker go away during play and come back: the server holds or refuses
with `store_unavailable` (never acknowledging an unsaved move), keeps running, and recovers by
itself. Each test runs its own real PostgreSQL cluster or Mosquitto broker on a free port, so
stopping it disturbs nothing else on the machine."""

import asyncio
import contextlib
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.app import running
from tests.server.client import PATIENCE, UNIT, Client, play
from tests.server.conftest import server_settings


def missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, and CI=true forbids skipping")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PrivatePostgres:
    """A throwaway PostgreSQL cluster (trust auth) that a test may stop and start at will."""

    def __init__(self) -> None:
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not binaries:
            missing("PostgreSQL's server binaries (pg_ctl, initdb) are not installed")
        self.bin = Path(binaries[-1]).parent
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tischrunde-pg-"))
        self.data = self.root / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args], check=True, capture_output=True
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


async def until(condition: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(UNIT / 10)

    await asyncio.wait_for(poll(), PATIENCE)


async def seated_with_bots(client: Client, game: str = "skat") -> str:
    created = await client.ok("create_table", game=game, series_length=1)
    table = str(created["table"]["id"])
    await client.ok("join", table=table)
    await client.ok("add_bot", table=table, seat=1, level="random")
    await client.ok("add_bot", table=table, seat=2, level="random")
    return table


def my_move(client: Client, table: str) -> dict[str, Any] | None:
    """A legal action for seat 0 if it is on turn now."""
    view = client.latest_view(table)
    if view is None or view["phase"] == "over" or view["to_move"] != 0:
        return None
    moves = [a for a in view["legal"] if a["type"] not in ("resign", "kontra", "re")]
    return moves[0] if moves else None


async def stored_seqs(url: str, table: str) -> list[int]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT seq FROM game_events WHERE table_id = :t ORDER BY seq"), {"t": table}
            )
            return [row.seq for row in rows]
    finally:
        await engine.dispose()


async def test_a_move_made_while_the_database_is_down_is_held_until_stored(
    postgres: PrivatePostgres, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, db=postgres.url, bot_delay_seconds=UNIT)
    async with running(settings) as app:
        human = await Client.open(app.port)
        table = await seated_with_bots(human)
        await until(lambda: my_move(human, table) is not None)
        move = my_move(human, table)
        seen = human.last_seq(table)

        await asyncio.to_thread(postgres.stop)
        act = asyncio.create_task(human.request("act", table=table, seq=seen, action=move))
        await until(lambda: app.lobby.tables[table].holding)
        chat = await human.request("chat", table=table, text="still there?")
        assert chat["type"] == "error" and chat["code"] == "store_unavailable"
        create = await human.request("create_table", game="tichu")
        assert create["type"] == "error" and create["code"] == "store_unavailable"
        assert not act.done()  # never acknowledged while unsaved
        assert human.last_seq(table) == seen  # and nobody heard of it

        await asyncio.to_thread(postgres.start)
        reply = await act
        assert reply["type"] == "ok"
        await until(lambda: not app.lobby.tables[table].holding)
        assert human.last_seq(table) > seen
        await play({0: human}, table, deals=1)
        client_seqs = sorted(
            {m["seq"] for m in human.messages if m.get("table") == table and m["type"] == "event"}
        )
        await human.close()
    stored = await stored_seqs(postgres.url, table)
    assert stored == list(range(1, len(stored) + 1))
    assert set(client_seqs) <= set(stored) and client_seqs[-1] == stored[-1]


async def test_the_lobby_refuses_with_store_unavailable_and_recovers(
    postgres: PrivatePostgres, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, db=postgres.url)
    async with running(settings) as app:
        await asyncio.to_thread(postgres.stop)
        guest = await Client.open(app.port, hello=False)
        hello = await guest.request("hello", version=1)
        assert hello["type"] == "error" and hello["code"] == "store_unavailable"
        await asyncio.to_thread(postgres.start)
        hello = await guest.request("hello", version=1)
        assert hello["type"] == "welcome", hello
        created = await guest.request("create_table", game="skat")
        assert created["type"] != "error", created
        await guest.close()


class PrivateBroker:
    """A throwaway Mosquitto on a free port."""

    def __init__(self) -> None:
        program = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
        if program is None:
            missing("mosquitto is not installed")
        self.program = str(program)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.program, "-p", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            time.sleep(0.05)
        raise TimeoutError("mosquitto did not listen")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def broker() -> Iterator[PrivateBroker]:
    instance = PrivateBroker()
    instance.start()
    try:
        yield instance
    finally:
        instance.stop()


async def watch_events(port: int, table: str, into: list[dict[str, Any]]) -> None:
    """Collect the table's MQTT events, reconnecting whenever the broker goes away."""
    while True:
        try:
            async with aiomqtt.Client("127.0.0.1", port) as subscriber:
                await subscriber.subscribe(f"tischrunde/v1/tables/{table}/events", qos=1)
                async for message in subscriber.messages:
                    into.append(json.loads(bytes(message.payload)))  # type: ignore[arg-type]
        except aiomqtt.MqttError:
            await asyncio.sleep(UNIT)


async def test_play_goes_on_while_the_broker_restarts_and_publishing_resumes(
    broker: PrivateBroker, tmp_path: Path
) -> None:
    settings = server_settings(
        tmp_path, mqtt=f"mqtt://127.0.0.1:{broker.port}", bot_delay_seconds=UNIT
    )
    async with running(settings) as app:
        await until(lambda: app.bus.connected)
        human = await Client.open(app.port)
        created = await human.ok("create_table", game="skat", series_length=2)
        table = str(created["table"]["id"])
        published: list[dict[str, Any]] = []
        watcher = asyncio.create_task(watch_events(broker.port, table, published))
        await asyncio.sleep(10 * UNIT)  # let the subscriber subscribe
        await human.ok("join", table=table)
        await human.ok("add_bot", table=table, seat=1, level="random")
        await human.ok("add_bot", table=table, seat=2, level="random")
        await play({0: human}, table, deals=1)
        await until(lambda: bool(published))

        await asyncio.to_thread(broker.stop)
        await until(lambda: not app.bus.connected)
        before = len(published)
        await play({0: human}, table, deals=2)  # the server plays on without its broker
        assert human.latest_view(table)["phase"] == "over"

        await asyncio.to_thread(broker.start)
        await until(lambda: app.bus.connected)
        await until(lambda: not app.bus._queue)
        ended = human.last_seq(table)
        await until(lambda: any(m.get("seq") == ended for m in published))
        assert len(published) > before
        watcher.cancel()
        await human.close()
