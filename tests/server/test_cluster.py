"""Several server processes on one database: each table is served by the process holding its
lease; the others redirect to it with `moved`, take its tables over when it stops or stalls,
and list its public tables (heard over the broker). In-process servers here; the kill -9 of
real processes is in test_cluster_processes.py."""

import asyncio
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import create_async_engine

from bots.pool import BotPool
from server.app import App, running
from server.store.leases import NodeNameTaken
from server.store.migrate import alembic_config
from server.store.models import game_events, nodes, tables
from tests.server.client import UNIT, Client, play, until
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker
from tests.server.test_restart import postgres_database


async def seated_table(client: Client, bots: tuple[int, ...] = (1, 2)) -> str:
    """A Skat table created by `client`, who sits at seat 0, with bots at `bots`."""
    created = await client.ok("create_table", game="skat")
    table: str = created["table"]["id"]
    await client.ok("join", table=table, seat=0)
    for seat in bots:
        await client.ok("add_bot", table=table, seat=seat, level="random")
    return table


async def owner_of(app: App, table: str) -> str | None:
    async with app.store.engine.connect() as conn:
        owner: str | None = await conn.scalar(select(tables.c.owner).where(tables.c.id == table))
        return owner


async def seqs(app: App, table: str) -> list[int]:
    async with app.store.engine.connect() as conn:
        found = await conn.scalars(
            select(game_events.c.seq)
            .where(game_events.c.table_id == table)
            .order_by(game_events.c.seq)
        )
        return list(found)


async def test_a_table_served_elsewhere_answers_moved_with_the_owners_url(tmp_path: Path) -> None:
    async with running(server_settings(tmp_path)) as a, running(server_settings(tmp_path)) as b:
        assert a.node != b.node
        host = await Client.open(b.port)
        created = await host.ok("create_table", game="skat")
        table = created["table"]["id"]
        assert await owner_of(a, table) == b.node

        guest = await Client.open(a.port)
        reply = await guest.request("join", table=table, seat=1)
        assert reply["type"] == "error" and reply["code"] == "moved", reply
        assert reply["url"] == b.url == f"ws://127.0.0.1:{b.port}/ws"
        assert table not in a.lobby.tables  # nothing changed where it was refused

        there = await Client.open(0, url=reply["url"], token=guest.token)
        joined = await there.ok("join", table=table, seat=1)
        assert joined["type"] == "joined"
        assert await owner_of(a, table) == b.node
        for client in (host, guest, there):
            await client.close()


async def test_a_second_process_with_a_live_process_name_refuses_to_start(
    tmp_path: Path,
) -> None:
    async with running(server_settings(tmp_path, node="twin")) as first:
        second = App(server_settings(tmp_path, node="twin"))
        with pytest.raises(NodeNameTaken, match="twin"):
            await second.start()
        assert await owner_of(first, "no-table") is None  # the first goes on unharmed
        client = await Client.open(first.port)
        await client.ok("create_table", game="skat")
        await client.close()


async def test_a_graceful_stop_hands_the_tables_to_another_process_at_once(
    tmp_path: Path,
) -> None:
    settings = server_settings(tmp_path, series_3=2)
    async with running(settings) as survivor:
        first = App(settings)
        await first.start()
        human = await Client.open(first.port)
        table = await seated_table(human)
        await play({0: human}, table, deals=1)
        heard = human.last_seq(table)
        await first.stop()  # drains, releases the lease, closes clients with 1012
        assert human.ws.close_code == 1012
        assert await owner_of(survivor, table) is None

        back = await Client.open(survivor.port, token=human.token)
        back.messages[:0] = human.messages
        await back.ok("resume", table=table, seq=heard)
        assert await owner_of(survivor, table) == survivor.node
        await play({0: back}, table, deals=2)
        await back.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
        stored = await seqs(survivor, table)
        assert stored == list(range(1, len(stored) + 1))
        await back.close()


async def test_a_stalled_owner_cannot_commit_after_another_process_took_over(
    tmp_path: Path,
) -> None:
    # The first process never renews in this test (its lease loop sleeps for ages), as if it
    # had stalled; the lease runs out and the second process takes the table.
    slow = server_settings(tmp_path, lease_seconds=3600)
    async with running(slow) as stalled, running(server_settings(tmp_path)) as other:
        human = await Client.open(stalled.port)
        table = await seated_table(human, bots=(1,))
        # Seat 2 is empty: the table waits, nothing is in flight.
        before = await seqs(other, table)
        async with other.store.engine.begin() as conn:  # its lease runs out
            await conn.execute(update(nodes).where(nodes.c.id == stalled.node).values(seen_at=0))
        taken = await other.lobby.locate(table)
        assert taken.id == table and await owner_of(other, table) == other.node

        # The stalled process still thinks it serves the table: its next append is fenced,
        # and the request is answered with `moved`.
        reply = await human.request("add_bot", table=table, seat=2, level="random")
        assert reply["code"] == "moved" and reply["table"] == table, reply
        assert reply["url"] == other.url
        assert await seqs(other, table) == before  # nothing of the stalled process landed
        assert table not in stalled.lobby.tables

        there = await Client.open(0, url=reply["url"], token=human.token)
        await there.ok("resume", table=table, seq=human.last_seq(table))
        await there.ok("add_bot", table=table, seat=2, level="random")
        await play({0: there}, table, deals=1)
        assert (await seqs(other, table))[: len(before)] == before
        await human.close()
        await there.close()


async def test_a_process_with_a_slow_warm_up_keeps_the_tables_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot pool's warm-up takes most of a lease (a fresh container compiling the solver).
    # Had the lease been renewed only by its loop, a third of a lease after listening, the
    # peer would see the process dead meanwhile and take the table its client just created.
    lease = 40 * UNIT
    settings = server_settings(tmp_path, lease_seconds=lease)
    async with running(settings) as peer:
        warm_up = BotPool.start

        async def slow_warm_up(pool: BotPool) -> None:
            await warm_up(pool)
            await asyncio.sleep(0.9 * lease)

        monkeypatch.setattr(BotPool, "start", slow_warm_up)
        async with running(settings) as slow:
            host = await Client.open(slow.port)
            table = (await host.ok("create_table", game="skat"))["table"]["id"]
            await asyncio.sleep(0.2 * lease)  # a lease after the start, before the loop renews
            assert await peer.leases.claim(table_id=table) == []
            assert await owner_of(peer, table) == slow.node
            await host.close()


async def test_every_process_lists_the_public_tables_of_all(
    tmp_path: Path, broker: PrivateBroker
) -> None:
    # Long leases: neither process renews or takes over tables while the test looks.
    settings = server_settings(tmp_path, mqtt=f"mqtt://127.0.0.1:{broker.port}", lease_seconds=3600)
    async with running(settings) as a, running(settings) as b:
        on_a = await Client.open(a.port)
        on_b = await Client.open(b.port)
        here = (await on_a.ok("create_table", game="skat"))["table"]["id"]
        there = (await on_b.ok("create_table", game="tichu"))["table"]["id"]
        private = (await on_b.ok("create_table", game="skat", private=True))["table"]["id"]

        async def listed(client: Client) -> set[str]:
            reply = await client.ok("list_tables")
            return {t["id"] for t in reply["tables"]}

        async def both_see_both() -> bool:
            return {here, there} <= await listed(on_a) and {here, there} <= await listed(on_b)

        for _ in range(200):
            if await both_see_both():
                break
            await asyncio.sleep(0.05)
        assert await both_see_both()
        assert private not in await listed(on_a) | await listed(on_b)

        # The tables of a process gone without a word drop out once its lease runs out,
        # though the broker still holds their entries.
        async with a.store.engine.begin() as conn:
            await conn.execute(update(nodes).where(nodes.c.id == b.node).values(seen_at=0))
        await until(lambda: there in a.mirror.tables if a.mirror else False)
        assert there not in await listed(on_a)
        for client in (on_a, on_b):
            await client.close()


async def test_processes_starting_together_on_a_new_database_migrate_it_once() -> None:
    async with postgres_database() as url:
        command = [sys.executable, "-m", "server.cli", "db", "upgrade", "--db", url]
        runs = [
            await asyncio.create_subprocess_exec(*command, stderr=asyncio.subprocess.PIPE)
            for _ in range(3)
        ]
        outputs = [await run.communicate() for run in runs]
        assert [run.returncode for run in runs] == [0, 0, 0], outputs
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                version = await conn.scalar(text("SELECT version_num FROM alembic_version"))
        finally:
            await engine.dispose()
        assert version == ScriptDirectory.from_config(alembic_config(url)).get_current_head()
