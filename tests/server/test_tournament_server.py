"""The server shows tournaments run by another process on its database: `/api/tournaments`,
live standings with `watch_tournament`, and spectators following a tournament table."""

import asyncio
import contextlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import aiomqtt
import msgspec
from paho.mqtt.enums import MQTTProtocolVersion
from sqlalchemy import update

from server.app import App, running
from server.cluster.bus import Bus
from server.store.db import Store
from server.store.migrate import upgrade
from server.store.models import tables
from server.tournament.report import load_report
from server.tournament.runner import create, run
from server.tournament.schedule import Params, table_id
from server.tournament.standings import Tally
from tests.server.client import PATIENCE, UNIT, Client, table_of
from tests.server.conftest import require_service, server_settings

MQTT_PORT = 1883

TICHU = Params(
    game="tichu",
    players=("greedy", "random"),
    deals=8,
    duplicate=True,
    list_length=8,
    seed=11,
    rules={"max_rounds": 1},
)


def get_json(app: App, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}", timeout=5) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, None


async def test_live_standings_and_a_followed_table_while_a_tournament_runs(
    tmp_path: Path,
) -> None:
    # A small outbox: the runner commits a game of about a hundred events at once, and the
    # spectator must get them all without counting as a client that does not read.
    settings = server_settings(tmp_path, tournament_poll_seconds=UNIT / 5, outbox_size=16)
    async with running(settings) as app:
        store = Store.connect(settings.db)
        fan = await Client.open(app.port)
        spectator = await Client.open(app.port)
        try:
            tournament = await create(store, TICHU)
            reply = await fan.ok("watch_tournament", tournament=tournament)
            assert reply["tournament"]["played"] == 0
            assert reply["tournament"]["status"] == "running"
            watched = table_id(tournament, 0)
            first_game = asyncio.Event()
            watching = asyncio.Event()
            commit_now = store.commit_now

            async def held_commit(table: str, batch: Any, **more: Any) -> None:
                """The watched table's later games wait until the spectator watches, so that
                it follows the table while it is played however fast the workers are."""
                if table == watched and batch.first_seq > 1:
                    first_game.set()
                    await watching.wait()
                await commit_now(table, batch, **more)

            store.commit_now = held_commit  # type: ignore[method-assign]
            runner = asyncio.create_task(
                run(store, tournament, TICHU, workers=1, tally=Tally("tichu"))
            )
            await asyncio.wait_for(first_game.wait(), PATIENCE)
            await spectator.ok("watch", table=watched)
            watching.set()
            await asyncio.wait_for(runner, PATIENCE)

            last = await fan.wait_for(
                lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "finished"
            )
            report = await load_report(store.tournaments, tournament)
            assert report is not None
            assert last["tournament"]["played"] == report.total
            assert last["tournament"]["standings"] == msgspec.to_builtins(report.standings)
            pushed = [
                (m["tournament"]["played"], m["tournament"]["status"])
                for m in fan.messages
                if m["type"] == "tournament"
            ]
            played = [p for p, _ in pushed]
            assert played == sorted(played) and len(set(pushed)) == len(pushed)

            end = await spectator.wait_for(
                lambda m: m["type"] == "event" and m["event"]["kind"] == "series_end"
            )
            seen = [m for m in spectator.messages if table_of(m) == watched]
            assert seen[0]["type"] == "snapshot"
            seqs = [seen[0]["seq"], *(m["seq"] for m in seen[1:])]
            assert seqs == list(range(seqs[0], end["seq"] + 1)), "no event missed or repeated"
            assert len(seen) > 1, "the spectator followed the table while it was played"
            stored = await store.events_after(watched, 0)
            assert end["seq"] == stored[-1][0]

            refused = await spectator.request("chat", table=watched, text="hallo")
            assert refused["code"] == "watch_only"
            refused = await spectator.request("join", table=watched)
            assert refused["code"] == "watch_only"
        finally:
            await fan.close()
            await spectator.close()
            await store.close()


async def test_tournaments_over_http_and_unknown_ids(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        store = Store.connect(settings.db)
        try:
            tournament = await create(store, TICHU)
            await run(store, tournament, TICHU, workers=1, tally=Tally("tichu"))
            stored = await store.tournaments.load(tournament)
        finally:
            await store.close()
        assert stored is not None
        status, listing = await asyncio.to_thread(get_json, app, "/api/tournaments")
        assert status == 200
        [entry] = listing["tournaments"]
        assert entry["id"] == tournament
        assert entry["played"] == entry["total"] == 2 * TICHU.deals
        assert entry["status"] == "finished"
        status, one = await asyncio.to_thread(get_json, app, f"/api/tournaments/{tournament}")
        assert status == 200
        assert one["standings"] == stored.standings and one["tables"] == []
        status, _ = await asyncio.to_thread(get_json, app, "/api/tournaments/nope")
        assert status == 404

        client = await Client.open(app.port)
        try:
            reply = await client.request("watch_tournament", tournament="nope")
            assert reply["code"] == "no_such_tournament"
            reply = await client.request("watch", table="nope-0")
            assert reply["code"] == "no_such_table"
        finally:
            await client.close()


async def test_a_server_restart_leaves_tournament_tables_to_their_runner(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with running(settings):
        store = Store.connect(settings.db)
        try:
            tournament = await create(store, TICHU)
            await run(store, tournament, TICHU, workers=1, tally=Tally("tichu"))
            # As if the runner had died after its first game: the table is mid-list.
            async with store.engine.begin() as conn:
                await conn.execute(
                    update(tables)
                    .where(tables.c.id == table_id(tournament, 0))
                    .values(status="playing")
                )
        finally:
            await store.close()
    async with running(settings) as app:
        assert app.lobby.tables == {}


async def test_the_runner_publishes_standings_after_every_game_to_mqtt(tmp_path: Path) -> None:
    require_service(MQTT_PORT, "Mosquitto")
    url = f"sqlite+aiosqlite:///{tmp_path / 'bus.db'}"
    await asyncio.to_thread(upgrade, url)
    published: list[tuple[str, dict[str, Any]]] = []
    async with aiomqtt.Client("127.0.0.1", MQTT_PORT, protocol=MQTTProtocolVersion.MQTTv5) as mqtt:
        await mqtt.subscribe("tischrunde/v1/tournaments/#", qos=1)

        async def capture() -> None:
            async for message in mqtt.messages:
                published.append((str(message.topic), json.loads(bytes(message.payload))))

        capturing = asyncio.create_task(capture())
        store = Store.connect(url)
        bus = Bus(f"mqtt://127.0.0.1:{MQTT_PORT}")
        bus.start()
        try:
            tournament = await create(store, TICHU)
            await run(store, tournament, TICHU, workers=1, tally=Tally("tichu"), bus=bus)
            report = await load_report(store.tournaments, tournament)
        finally:
            await bus.close()
            await store.close()

        topic = f"tischrunde/v1/tournaments/{tournament}"

        async def finished() -> None:
            # This tournament's own message: the broker also holds other runs' retained ones.
            while not any(t == topic and m["status"] == "finished" for t, m in published):
                await asyncio.sleep(UNIT)

        await asyncio.wait_for(finished(), PATIENCE)
        capturing.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await capturing
    assert report is not None
    mine = [m for t, m in published if t == topic]
    assert [m["played"] for m in mine] == [*range(1, report.total + 1), report.total]
    assert mine[-1]["status"] == "finished"
    assert mine[-1]["standings"] == msgspec.to_builtins(report.standings)
