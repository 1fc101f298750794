"""Killing the server at any moment loses no accepted move (SIGKILL of a real subprocess), on
SQLite and PostgreSQL; a graceful SIGTERM closes clients with 1012 after persisting."""

import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from server.store.models import game_events
from server.tasks import cancel
from tests.server.client import PATIENCE, UNIT, Client, play, until
from tests.server.conftest import require_service
from tests.server.services import free_port

PG_PORT = 5432
# A server process's start (imports, migrations) takes seconds of CPU: on a loaded machine
# many more than an in-process wait (`PATIENCE`) allows; as LiveServer (tests/web) waits.
START_PATIENCE = 120.0
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


@contextlib.contextmanager
def server_process(
    db: str, port: int, tmp_path: Path, **settings: object
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `tischrunde serve` on `port`; `settings` become `TISCHRUNDE_*` variables."""
    env = {
        **os.environ,
        "TISCHRUNDE_BOT_DELAY_SECONDS": str(UNIT),
        "TISCHRUNDE_BOT_WORKERS": "1",
        "TISCHRUNDE_GRACE_SECONDS": str(1000 * UNIT),
        "TISCHRUNDE_SERIES_3": "3",
        "TISCHRUNDE_LOG_LEVEL": "WARNING",
        **{f"TISCHRUNDE_{name.upper()}": str(value) for name, value in settings.items()},
    }
    log_path = tmp_path / f"server-{port}.log"
    log = log_path.open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--db", db],
        env=env,
        stdout=log,
        stderr=log,
        cwd=tmp_path,
    )
    try:
        wait_ready(port, process)
        yield process
    except BaseException:
        # What the process said goes into the failure's captured output.
        print(f"--- server on port {port}:", log_path.read_text()[-4000:])
        raise
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        log.close()


def wait_ready(port: int, process: subprocess.Popen[bytes]) -> None:
    import time

    deadline = time.monotonic() + START_PATIENCE
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited during start-up")
        url = f"http://127.0.0.1:{port}/readyz"
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as response:
            if response.status == 200:
                return
        time.sleep(0.05)
    raise TimeoutError("the server did not become ready")


@contextlib.asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    require_service(PG_PORT, "PostgreSQL")
    import asyncpg

    name = f"tischrunde_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{PG_PORT}/{name}"
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


def events_by_seq(client: Client, table: str) -> dict[int, Any]:
    return {
        m["seq"]: m["event"]
        for m in client.messages
        if m.get("table") == table and m["type"] == "event"
    }


async def stored_events(db: str, table: str) -> dict[int, Any]:
    """The table's committed events, read straight from the database."""
    engine = create_async_engine(db)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(game_events.c.seq, game_events.c.payload).where(
                        game_events.c.table_id == table
                    )
                )
            ).all()
    finally:
        await engine.dispose()
    return {row.seq: json.loads(row.payload) for row in rows}


async def kill_and_resume(db: str, tmp_path: Path) -> None:
    port = free_port()
    with server_process(db, port, tmp_path) as process:
        human = await Client.open(port)
        created = await human.ok("create_table", game="skat")
        table = created["table"]["id"]
        await human.ok("join", table=table)
        await human.ok("add_bot", table=table, seat=1)
        await human.ok("add_bot", table=table, seat=2)
        # Play a while (past the first few events, however slow the machine), then kill the
        # server while the bots are at it.
        playing = asyncio.create_task(play({0: human}, table, deals=2))
        await until(lambda: len(events_by_seq(human, table)) > 5 or playing.done())
        await asyncio.wait({playing}, timeout=20 * UNIT)
        await cancel(playing)
        process.send_signal(signal.SIGKILL)
        process.wait()
    seen = events_by_seq(human, table)
    assert len(seen) > 5
    stored = await stored_events(db, table)
    # Persist, then tell: every event the client heard of is committed, as it was told.
    for seq, event in seen.items():
        assert stored[seq]["kind"] == event["kind"], seq
        if event["kind"] == "move" and event["action"] is not None:
            assert stored[seq]["action"] == event["action"], seq
    with server_process(db, port, tmp_path):
        back = await Client.open(port, token=human.token)
        back.messages[:0] = human.messages  # a client keeps what it saw
        await back.ok("resume", table=table, seq=human.last_seq(table))
        resumed = [m["seq"] for m in back.messages[len(human.messages) :] if m["type"] == "event"]
        assert resumed == list(range(max(seen) + 1, max(seen) + 1 + len(resumed)))
        await play({0: back}, table, deals=3)
        await back.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")


async def test_sigkill_on_sqlite_loses_no_accepted_move(tmp_path: Path) -> None:
    await kill_and_resume(f"sqlite+aiosqlite:///{tmp_path / 'kill.db'}", tmp_path)


async def test_sigkill_on_postgresql_loses_no_accepted_move(tmp_path: Path) -> None:
    async with postgres_database() as url:
        await kill_and_resume(url, tmp_path)


async def test_sigterm_persists_then_closes_clients_with_1012(tmp_path: Path) -> None:
    port = free_port()
    with server_process(f"sqlite+aiosqlite:///{tmp_path / 'term.db'}", port, tmp_path) as process:
        client = await Client.open(port)
        await client.ok("create_table", game="skat")
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(client.ws.wait_closed(), PATIENCE)
        assert client.ws.close_code == 1012
        assert process.wait(timeout=PATIENCE) == 0


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
