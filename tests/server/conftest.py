"""Fixtures: a real server in-process on a free port, with a fresh SQLite database; private
PostgreSQL and Mosquitto instances for tests that stop and start them."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.app import App, running
from server.settings import Settings
from tests.server.client import UNIT
from tests.server.services import PrivateBroker, PrivatePostgres, missing


def server_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "host": "127.0.0.1",
        "port": 0,
        "db": f"sqlite+aiosqlite:///{tmp_path / 'test.db'}",
        "grace_seconds": 10 * UNIT,
        "bot_delay_seconds": 0.0,
        "bot_deadline_seconds": 100 * UNIT,
        "bot_workers": 1,
        "bot_warm_up": False,  # the tests' bots are cheap; the solver loads where used
        "series_3": 1,
        "series_4": 1,
        "log_level": "WARNING",
        # Every client of a test comes from 127.0.0.1: no guest limit (test_guard.py sets one).
        "guest_burst": 1e9,
        "guest_burst_per_address": 1e9,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    async with running(server_settings(tmp_path)) as started:
        yield started


def require_service(port: int, name: str) -> None:
    """Skip when a real service the test needs is absent; under CI=true fail instead."""
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        missing(f"{name} is not running on 127.0.0.1:{port}")


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_db_app(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[App]:
    """A server on SQLite, and one on a private PostgreSQL cluster."""
    overrides: dict[str, object] = {}
    if request.param == "postgresql":
        cluster = PrivatePostgres()
        request.addfinalizer(cluster.remove)
        cluster.start()
        overrides["db"] = cluster.url
    async with running(server_settings(tmp_path, **overrides)) as app:
        yield app


@pytest.fixture
def broker() -> Iterator[PrivateBroker]:
    instance = PrivateBroker()
    instance.start()
    try:
        yield instance
    finally:
        instance.remove()


@pytest.fixture(scope="session")
def solver_compiled() -> None:
    """The Skat solver's machine code in numba's cache before a test starts server or worker
    processes that skip their warm-up: on a cold cache each of them compiles it for itself
    (about 25 s of one core each), which on two cores outlasts the test's patience."""
    from bots.registry import warm_up

    warm_up()
