"""Remote bot workers (`tischrunde bot-worker`) over a real Mosquitto: two worker processes
share the requests of a server's bot seats, and when both are gone the server decides locally
and play goes on."""

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.app import running
from tests.server.client import PATIENCE, UNIT, Client, play, until
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker


def start_worker(broker: PrivateBroker, name: str, account: str = "") -> subprocess.Popen[str]:
    """A bot worker on `broker`, logged in as `account` (`user:password`) if given; the URL
    goes in the environment, as a password should."""
    login = f"{account}@" if account else ""
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "server.cli", "bot-worker"),
            *("--workers", "1", "--no-warm-up", "--name", name, "--log-level", "INFO"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TISCHRUNDE_MQTT": f"mqtt://{login}127.0.0.1:{broker.port}",
        },
    )


def wait_taking_requests(worker: subprocess.Popen[str]) -> None:
    """Block until the worker logs that it subscribed (its later lines are few)."""
    assert worker.stderr is not None
    for line in worker.stderr:
        if "taking requests" in line:
            return
    raise RuntimeError(f"the worker exited with {worker.wait()}")


@pytest.fixture
def workers(broker: PrivateBroker, solver_compiled: None) -> Iterator[list[subprocess.Popen[str]]]:
    started = [start_worker(broker, name) for name in ("w1", "w2")]
    try:
        yield started
    finally:
        for worker in started:
            worker.kill()
            worker.wait()


async def test_two_workers_share_the_bots_and_the_server_falls_back_without_them(
    broker: PrivateBroker, workers: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    for worker in workers:
        await asyncio.wait_for(asyncio.to_thread(wait_taking_requests, worker), PATIENCE)
    settings = server_settings(
        tmp_path,
        mqtt=f"mqtt://127.0.0.1:{broker.port}",
        remote_bots_seconds=PATIENCE / 4,
        series_3=2,
    )
    async with running(settings) as app:
        remote = app.pool
        human = await Client.open(app.port)
        created = await human.ok("create_table", game="skat")
        table = created["table"]["id"]
        await human.ok("join", table=table)
        await human.ok("add_bot", table=table, seat=1, level="greedy")
        await human.ok("add_bot", table=table, seat=2, level="random")
        await play({0: human}, table, deals=1)
        assert set(remote.by_worker) == {"w1", "w2"}  # the broker spread the requests
        assert remote.local_decisions == 0

        for worker in workers:
            worker.kill()
            worker.wait()
        remote.remote_seconds = 2 * UNIT  # no worker will answer: do not wait long
        game = asyncio.create_task(play({0: human}, table, deals=2))
        await until(lambda: remote.local_decisions > 0)
        answered = sum(remote.by_worker.values())  # replies in flight at the kill are in
        await game
        assert sum(remote.by_worker.values()) == answered
        await human.close()
