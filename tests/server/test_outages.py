"""The database and the broker go away during play and come back: the server holds or refuses
with `store_unavailable` (never acknowledging an unsaved move), keeps running, and recovers by
itself. Each test runs its own real PostgreSQL cluster or Mosquitto broker on a free port, so
stopping it disturbs nothing else on the machine."""

import asyncio
import json
from pathlib import Path
from typing import Any

import aiomqtt
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.app import running
from tests.server.client import PATIENCE, UNIT, Client, deals_ended, play, until
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker, PrivatePostgres


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


async def watch_events(
    port: int, table: str, into: list[dict[str, Any]], subscribed: asyncio.Event
) -> None:
    """Collect the table's MQTT events, reconnecting whenever the broker goes away;
    `subscribed` is set while the subscription stands."""
    while True:
        try:
            async with aiomqtt.Client("127.0.0.1", port) as subscriber:
                await subscriber.subscribe(f"tischrunde/v1/tables/{table}/events", qos=1)
                subscribed.set()
                async for message in subscriber.messages:
                    into.append(json.loads(bytes(message.payload)))  # type: ignore[arg-type]
        except aiomqtt.MqttError:
            subscribed.clear()
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
        created = await human.ok("create_table", game="skat", series_length=3)
        table = str(created["table"]["id"])
        published: list[dict[str, Any]] = []
        subscribed = asyncio.Event()
        watcher = asyncio.create_task(watch_events(broker.port, table, published, subscribed))
        await asyncio.wait_for(subscribed.wait(), PATIENCE)
        await human.ok("join", table=table)
        await human.ok("add_bot", table=table, seat=1, level="random")
        await human.ok("add_bot", table=table, seat=2, level="random")
        await play({0: human}, table, deals=1)
        await until(lambda: bool(published))

        await asyncio.to_thread(broker.stop)
        await until(lambda: not app.bus.connected)
        await until(lambda: not subscribed.is_set())
        before = len(published)
        await play({0: human}, table, deals=2)  # the server plays on without its broker
        assert deals_ended(human, table) >= 2

        await asyncio.to_thread(broker.start)
        await until(lambda: app.bus.connected)
        await until(lambda: not app.bus._queue)  # what was queued while it was away went out
        await until(subscribed.is_set)
        await play({0: human}, table, deals=3)  # and what happens now reaches subscribers
        ended = human.last_seq(table)
        await until(lambda: any(m.get("seq") == ended for m in published))
        assert len(published) > before
        watcher.cancel()
        await human.close()
