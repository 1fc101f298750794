"""HOUSE_STYLE.md D: no message to a seat, a spectator or the MQTT bus holds a card its recipient
may not see yet. Many full bot games run through a real server with the real Mosquitto; every
frame is checked against the engine's observation of that recipient at the frame's `seq`."""

import asyncio
import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import aiomqtt
import msgspec
from paho.mqtt.enums import MQTTProtocolVersion
from sqlalchemy import select

from server.app import App, running
from server.events import decode_event
from server.games import SkatGame
from server.store.models import game_events, tables
from server.table_core import TableConfig, TableCore
from tests.server.client import PATIENCE, Client, play
from tests.server.conftest import require_service, server_settings

CARD = re.compile(r'"([789TJQKA][CSHD])"')
MQTT_PORT = 1883
TABLES = 10
DEALS = 4


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


async def visible_cards(app: App, table_id: str) -> dict[tuple[int | None, int], set[str]]:
    """(viewer, seq) -> every card the engine lets `viewer` see after event `seq`."""
    async with app.store.engine.connect() as conn:
        config = (
            await conn.execute(select(tables.c.config).where(tables.c.id == table_id))
        ).scalar_one()
        rows = (
            await conn.execute(
                select(game_events.c.seq, game_events.c.payload)
                .where(game_events.c.table_id == table_id)
                .order_by(game_events.c.seq)
            )
        ).all()
    options = msgspec.json.decode(config)
    core = TableCore(TableConfig(**options), SkatGame(), random.Random(0), ["random"])
    seen: dict[tuple[int | None, int], set[str]] = {
        (viewer, 0): set() for viewer in (None, *range(core.seat_count))
    }
    for seq, payload in rows:
        core.restore([(seq, decode_event(payload))])
        for viewer in (None, *range(core.seat_count)):
            text = (
                ""
                if core.state is None
                else msgspec.json.encode(core.state.observation(viewer)).decode()
            )
            seen[(viewer, seq)] = cards_in(text)
    return seen


def leaks(
    frames: list[str], viewer: int | None, table: str, seen: dict[Any, set[str]]
) -> list[str]:
    found = []
    for frame in frames:
        message = json.loads(frame)
        if message.get("table") != table and (message.get("table") or {}).get("id") != table:
            continue
        seq = message.get("seq")
        if seq is None:
            continue
        extra = cards_in(frame) - seen[(viewer, seq)]
        if extra:
            found.append(f"seq {seq} to {viewer}: {sorted(extra)}")
    return found


async def test_no_message_to_any_recipient_or_the_bus_shows_a_hidden_card(tmp_path: Path) -> None:
    require_service(MQTT_PORT, "Mosquitto")
    published: list[tuple[str, str]] = []
    async with aiomqtt.Client("127.0.0.1", MQTT_PORT, protocol=MQTTProtocolVersion.MQTTv5) as mqtt:
        await mqtt.subscribe("tischrunde/v1/#", qos=1)

        async def capture() -> None:
            async for message in mqtt.messages:
                published.append((str(message.topic), bytes(message.payload).decode()))

        capturing = asyncio.create_task(capture())
        settings = server_settings(tmp_path, mqtt=f"mqtt://127.0.0.1:{MQTT_PORT}")
        async with running(settings) as app:
            human = await Client.open(app.port)
            spectators: dict[str, Client] = {}
            ids = []
            for index in range(TABLES):
                host = human if index == 0 else await Client.open(app.port)
                created = await host.ok("create_table", game="skat", series_length=DEALS)
                table = created["table"]["id"]
                ids.append(table)
                spectators[table] = await Client.open(app.port)
                await spectators[table].ok("watch", table=table)
                if index == 0:
                    await human.ok("join", table=table, seat=1)
                for seat in range(3):
                    if index != 0 or seat != 1:
                        await host.ok("add_bot", table=table, seat=seat)
            await play({1: human}, ids[0], deals=DEALS)
            for spectator in spectators.values():
                await spectator.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")

            # The bus sends in order: once the last table's end is out, everything is.
            async def drained() -> None:
                while sum('"series_end"' in p for _, p in published) < TABLES:
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(drained(), PATIENCE)
            problems = []
            for table in ids:
                seen = await visible_cards(app, table)
                problems += leaks(spectators[table].frames, None, table, seen)
                bus = [
                    p for topic, p in published if topic == f"tischrunde/v1/tables/{table}/events"
                ]
                assert bus, "no public events were published"
                # The bus carried every move the spectator saw: none lost, none extra.
                spectator_moves = sum('"kind":"move"' in f for f in spectators[table].frames)
                assert sum('"kind":"move"' in p for p in bus) == spectator_moves > 0
                problems += leaks(bus, None, table, seen)
            problems += leaks(human.frames, 1, ids[0], await visible_cards(app, ids[0]))
            assert not problems, problems[:10]
            lobby = [p for topic, p in published if topic == "tischrunde/v1/lobby"]
            assert lobby and not any(cards_in(p) for p in lobby)
        capturing.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await capturing


async def test_the_server_keeps_serving_without_a_broker(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, mqtt="mqtt://127.0.0.1:1")  # nothing listens there
    async with running(settings) as app:
        client = await Client.open(app.port)
        created = await client.ok("create_table", game="skat", series_length=1)
        table = created["table"]["id"]
        await client.ok("join", table=table)
        await client.ok("add_bot", table=table, seat=1)
        await client.ok("add_bot", table=table, seat=2)
        await play({0: client}, table)
