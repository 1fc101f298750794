"""Sessions stay with their owner and identities cost an attacker time: a session used on a
second connection replaces the first visibly, failed logins back off per account and per
address, guests are limited per address and overall, and guests that never played are
cleaned up."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import create_engine, func, select, text, update
from websockets.asyncio.client import connect

from server.app import App, running
from server.edge.guard import SESSION_REPLACED, Guard
from server.edge.limits import Backoff, Buckets
from server.settings import Settings
from server.store.migrate import alembic_config, upgrade
from server.store.models import sessions, users
from tests.server.client import UNIT, Client, bot_table, play, until
from tests.server.conftest import server_settings


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.asynccontextmanager
async def server(tmp_path: Path, **settings: Any) -> AsyncIterator[App]:
    async with running(server_settings(tmp_path, **settings)) as app:
        yield app


async def open_from(app: App, address: str, token: str | None = None) -> dict[str, Any]:
    """`hello` on a connection that a trusted proxy forwards from `address`: the reply."""
    headers = {"X-Forwarded-For": f"10.9.9.9, {address}"}  # the first entry is a claim
    async with connect(
        f"ws://127.0.0.1:{app.port}/ws", additional_headers=headers, proxy=None
    ) as ws:
        client = Client(ws)
        reply = await client.request("hello", version=1, token=token)
        client.reader.cancel()
        return reply


async def test_a_second_connection_with_the_session_replaces_the_first_visibly(
    app: App,
) -> None:
    first = await Client.open(app.port)
    table, _ = await bot_table(first)
    await first.wait_for(lambda m: m.get("view") is not None)
    watcher = await Client.open(app.port)
    await watcher.ok("watch", table=table)

    second = await Client.open(app.port, token=first.token)
    assert second.user == first.user
    notice = await first.wait_for(lambda m: m.get("code") == "session_replaced")
    assert notice["type"] == "error" and "id" not in notice
    await asyncio.wait_for(first.ws.wait_closed(), 10)
    assert first.ws.close_code == SESSION_REPLACED
    # The table is told whose device went quiet, and why.
    moved = await watcher.wait_for(lambda m: m["type"] == "session_moved")
    assert moved == {"type": "session_moved", "table": table, "seat": 0, "name": first.user["name"]}
    # The seat is the second connection's: it resumes (from one event back: that push
    # carries the seat's view) and plays the deal to its end.
    await second.ok("resume", table=table, seq=first.last_seq(table) - 1)
    await play({0: second}, table)

    # A user logged in on two devices has two sessions: neither replaces the other.
    await second.ok("register", name="anna", password="correct horse")
    phone = await Client.open(app.port)
    await phone.ok("login", name="anna", password="correct horse")
    assert (await second.request("ping"))["type"] == "pong"
    assert (await phone.request("ping"))["type"] == "pong"
    assert not any(m.get("code") == "session_replaced" for m in second.messages)


async def test_failed_logins_back_off_per_account(tmp_path: Path) -> None:
    lock = 10 * UNIT
    async with server(tmp_path, login_backoff_seconds=lock) as app:
        owner = await Client.open(app.port)
        await owner.ok("register", name="anna", password="correct horse")
        attacker = await Client.open(app.port)
        for _ in range(app.settings.login_failures_per_account):
            reply = await attacker.request("login", name="anna", password="wrong password")
            assert reply["code"] == "bad_credentials"
        # Locked: even the right password is not tried (30 wrong ones were accepted at full
        # speed before, and then the right one).
        locked = await attacker.request("login", name="ANNA", password="correct horse")
        assert locked["code"] == "too_many_attempts"
        other = await Client.open(app.port)
        assert (await other.request("register", name="bert", password="other horse"))[
            "type"
        ] == "welcome"
        assert (await attacker.request("login", name="bert", password="other horse"))[
            "type"
        ] == "welcome"  # the address is not locked yet: its limit is higher

        await until(lambda: app.guard.accounts.wait("anna") == 0)
        assert (await attacker.request("login", name="anna", password="wrong again"))[
            "code"
        ] == "bad_credentials"
        assert (await attacker.request("login", name="anna", password="correct horse"))[
            "code"
        ] == "too_many_attempts"  # the lock doubled
        await until(lambda: app.guard.accounts.wait("anna") == 0)
        assert (await owner.request("login", name="anna", password="correct horse"))[
            "type"
        ] == "welcome"
        assert app.guard.accounts.wait("anna") == 0  # a good login clears the count


async def test_failed_logins_back_off_per_address(tmp_path: Path) -> None:
    async with server(tmp_path, login_failures_per_address=3, login_backoff_seconds=60) as app:
        client = await Client.open(app.port)
        for name in ("anna", "bert", "carl"):
            reply = await client.request("login", name=name, password="guessing")
            assert reply["code"] == "bad_credentials"
        # Another account, the same address: locked.
        reply = await client.request("login", name="dora", password="guessing")
        assert reply["code"] == "too_many_attempts"


async def test_guests_are_limited_per_address_and_overall(tmp_path: Path) -> None:
    limits = {
        "trusted_proxies": "127.0.0.1",
        "guest_burst_per_address": 3,
        "guests_per_minute_per_address": 1e-6,
        "guest_burst": 5,
        "guests_per_minute": 1e-6,
    }
    async with server(tmp_path, **limits) as app:
        replies = [await open_from(app, "192.0.2.1") for _ in range(4)]
        assert [r["type"] for r in replies] == ["welcome"] * 3 + ["error"]
        assert replies[3]["code"] == "too_many_guests"
        # Coming back with a token is no new guest.
        token = replies[0]["token"]
        assert (await open_from(app, "192.0.2.1", token))["type"] == "welcome"
        # Another address has its own allowance, until the process's runs out.
        others = [await open_from(app, "192.0.2.2") for _ in range(3)]
        assert [r.get("code") for r in others] == [None, None, "too_many_guests"]
        async with app.store.engine.connect() as conn:
            guests = await conn.scalar(select(func.count()).select_from(users))
        assert guests == 5


async def test_guests_that_never_played_are_deleted_when_idle(tmp_path: Path) -> None:
    async with server(tmp_path, guest_days=1) as app:
        player, idle, connected, account = [await Client.open(app.port) for _ in range(4)]
        registered = await account.ok("register", name="anna", password="correct horse")
        created = await player.ok("create_table", game="skat")
        await player.ok("join", table=created["table"]["id"])
        await idle.close()
        await account.close()
        await until(lambda: len(app.connections) == 2)
        long_ago = datetime.now(UTC) - timedelta(days=2)
        async with app.store.engine.begin() as conn:
            await conn.execute(update(users).values(seen_at=long_ago))
            before = set(await conn.scalars(select(users.c.id)))

        deleted = await app.clean_up_guests()
        async with app.store.engine.connect() as conn:
            left = set(await conn.scalars(select(users.c.id)))
            count = select(func.count()).select_from(sessions)
            tokens = await conn.scalar(count.where(sessions.c.user_id == idle.user["id"]))
        assert deleted == len(before - left) >= 1
        # Gone: the guest who never sat down, with his session. Kept: the guest who sat
        # down, the one still connected, and the account.
        assert idle.user["id"] not in left and tokens == 0
        assert {player.user["id"], connected.user["id"], registered["user"]["id"]} <= left
        back = await Client.open(app.port, hello=False)
        assert (await back.request("hello", version=1, token=idle.token))["code"] == "bad_token"
        assert (await Client.open(app.port, token=player.token)).user == player.user


def test_backoff_locks_after_the_free_failures_doubling_and_forgets() -> None:
    clock = Clock()
    backoff = Backoff(free=2, first=1.0, longest=8.0, clock=clock)
    backoff.failed("a")
    assert backoff.wait("a") == 0
    backoff.failed("a")
    assert backoff.wait("a") == 1.0
    clock.now += 1.0
    backoff.failed("a")
    assert backoff.wait("a") == 2.0
    for _ in range(10):
        backoff.failed("a")
    assert backoff.wait("a") == 8.0  # never longer than the longest
    clock.now += 100.0
    backoff.failed("a")  # long after the last failure: counted from the start
    assert backoff.wait("a") == 0
    backoff.forget("a")
    assert backoff.wait("a") == 0 and "a" not in backoff.failures


def test_buckets_refill_per_key_and_forget_full_ones() -> None:
    clock = Clock()
    buckets = Buckets(rate=1.0, burst=2, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b")
    clock.now += 1.0
    assert buckets.take("a") and not buckets.take("a")


def test_the_client_address_comes_from_a_trusted_proxy_only() -> None:
    guard = Guard(Settings(trusted_proxies="127.0.0.1, 10.0.0.0/8"))
    assert guard.address("10.1.2.3", "203.0.113.9, 198.51.100.7") == "198.51.100.7"
    assert guard.address("127.0.0.1", None) == "127.0.0.1"
    assert guard.address("192.0.2.1", "198.51.100.7") == "192.0.2.1"  # not a proxy: a claim
    assert Guard(Settings(trusted_proxies="*")).address("192.0.2.1", "1.2.3.4") == "1.2.3.4"


def test_the_migration_counts_existing_users_as_seen_and_players_as_having_played(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0003")
    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    created = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        for user_id, name in ((1, "guest-sat"), (2, "guest-idle")):
            conn.execute(
                text(
                    "INSERT INTO users (id, name, kind, created_at)"
                    " VALUES (:id, :name, 'guest', :at)"
                ),
                {"id": user_id, "name": name, "at": created},
            )
        conn.execute(
            text(
                "INSERT INTO tables (id, game, config, status, created_at)"
                " VALUES ('t1', 'skat', '{}', 'playing', :at)"
            ),
            {"at": created},
        )
        payload = '{"kind":"seated","seat":0,"player":{"user_id":1,"name":"guest-sat"}}'
        conn.execute(
            text(
                "INSERT INTO game_events (table_id, seq, kind, version, payload, at)"
                " VALUES ('t1', 1, 'seated', 1, :payload, :at)"
            ),
            {"payload": payload, "at": created},
        )
    upgrade(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, seen_at, played_at FROM users ORDER BY id")).all()
    engine.dispose()
    assert [(r.id, r.seen_at is not None, r.played_at is not None) for r in rows] == [
        (1, True, True),
        (2, True, False),
    ]
