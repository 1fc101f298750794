"""docs/conventions.md section 5: no message to a seat, a spectator or the MQTT bus holds a card
its recipient may not see yet.

Two levels. Thousands of whole bot lists of Skat (3 and 4 seats) and Tichu run through the
table core, which makes every message the server sends or publishes; each is encoded as the
server encodes it and checked against the engine's observation of its recipient at its `seq`
(`leak_audit`). Then fewer full bot games run through a real server with the real Mosquitto,
and every frame a seat, a spectator or the bus received is checked the same way, so the wiring
between the core and the sockets is covered too.
"""

import asyncio
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import aiomqtt
import msgspec
import pytest
from paho.mqtt.enums import MQTTProtocolVersion
from sqlalchemy import select

from server.app import App, running
from server.core.state import TableConfig
from server.core.table import TableCore
from server.events import decode_event
from server.games import GameKind, SkatGame, TichuGame
from server.store.models import game_events, tables
from tests.server.client import PATIENCE, Client, play
from tests.server.conftest import require_service, server_settings
from tests.server.leak_audit import AuditedTable, audit_tables, cards_in

MQTT_PORT = 1883
TABLES = 10
DEALS = 4
TICHU_TABLES = 2
GAMES = {"skat": SkatGame(), "tichu": TichuGame()}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "rules", "tables", "deals"),
    [
        (SkatGame(), {}, 120, 10),
        (SkatGame(), {"players": 4}, 40, 10),
        (TichuGame(), {"max_rounds": 1}, 500, 1),
    ],
    ids=["skat-3-seats-1200-deals", "skat-4-seats-400-deals", "tichu-500-rounds"],
)
def test_no_message_of_thousands_of_bot_games_shows_a_card_its_recipient_may_not_see(
    game: GameKind, rules: dict[str, Any], tables: int, deals: int
) -> None:
    audit = audit_tables(game, rules, tables=tables, deals=deals, seed=20260000)
    assert audit.games == tables * deals
    assert min(audit.messages.values()) > 0, audit.messages
    assert not audit.leaks, audit.leaks[:5]


def test_the_audit_follows_whole_tichu_matches_across_rounds() -> None:
    """A match to 1000 has many rounds in one server deal; knowledge starts over each round."""
    audit = audit_tables(TichuGame(), {}, tables=3, deals=1, seed=20261000)
    assert audit.games == 3
    assert not audit.leaks, audit.leaks[:5]


class DiscardsInTheOpen(SkatGame):
    """A broken adapter that shows everyone the cards laid away."""

    def is_hidden(self, state_before: Any, seat: int, action: Any, viewer: int | None) -> bool:
        return False


class ExchangeInTheOpen(TichuGame):
    """A broken adapter that shows everyone the cards passed in the exchange."""

    def is_hidden(self, state_before: Any, seat: int, action: Any, viewer: int | None) -> bool:
        return False


class SpectatorsSeeSeatZero(SkatGame):
    """A broken adapter that gives spectators and the bus seat 0's view."""

    def view(self, state: Any, viewer: int | None, *, history: bool) -> Any:
        return super().view(state, 0 if viewer is None else viewer, history=history)


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        (DiscardsInTheOpen(), {}),
        (ExchangeInTheOpen(), {"max_rounds": 1}),
        (SpectatorsSeeSeatZero(), {}),
    ],
    ids=["skat-discard", "tichu-exchange", "spectator-view"],
)
def test_the_audit_finds_a_leak_when_there_is_one(game: GameKind, rules: dict[str, Any]) -> None:
    # Random bots seldom win the bidding and pick up the skat (about one table in ten here),
    # so the audit runs enough tables that the broken discard is seen, whatever the seeds.
    audit = audit_tables(game, rules, tables=20, deals=2, seed=20262000)
    assert audit.leaks


def test_the_audit_sees_every_kind_of_recipient() -> None:
    audit = AuditedTable(SkatGame(), {}, seed=7, deals=3).run()
    assert audit.games == 3
    assert all(count > 0 for count in audit.messages.values()), audit.messages


async def visible_cards(app: App, table_id: str) -> dict[tuple[int | None, int], set[str]]:
    """(viewer, seq) -> every card the engine lets `viewer` see after event `seq`."""
    async with app.store.engine.connect() as conn:
        game, config = (
            await conn.execute(
                select(tables.c.game, tables.c.config).where(tables.c.id == table_id)
            )
        ).one()
        rows = (
            await conn.execute(
                select(game_events.c.seq, game_events.c.payload)
                .where(game_events.c.table_id == table_id)
                .order_by(game_events.c.seq)
            )
        ).all()
    options = msgspec.json.decode(config)
    core = TableCore(TableConfig(**options), GAMES[game], random.Random(0), ["random"])
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
            seen[(viewer, seq)] = cards_in(game, text)
    return seen


def leaks(
    frames: list[str],
    viewer: int | None,
    table: str,
    game: str,
    seen: dict[Any, set[str]],
) -> list[str]:
    found = []
    for frame in frames:
        message = json.loads(frame)
        if message.get("table") != table and (message.get("table") or {}).get("id") != table:
            continue
        seq = message.get("seq")
        if seq is None:
            continue
        extra = cards_in(game, frame) - seen[(viewer, seq)]
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
            ids: dict[str, str] = {}  # table -> game
            for index in range(TABLES + TICHU_TABLES):
                game = "skat" if index < TABLES else "tichu"
                host = human if index == 0 else await Client.open(app.port)
                created = await host.ok(
                    "create_table",
                    game=game,
                    series_length=DEALS,
                    rules={"max_rounds": 1} if game == "tichu" else {},
                )
                table = created["table"]["id"]
                ids[table] = game
                spectators[table] = await Client.open(app.port)
                await spectators[table].ok("watch", table=table)
                if index == 0:
                    await human.ok("join", table=table, seat=1)
                for seat in range(4 if game == "tichu" else 3):
                    if index != 0 or seat != 1:
                        await host.ok("add_bot", table=table, seat=seat)
            first = next(iter(ids))
            await play({1: human}, first, deals=DEALS)
            for spectator in spectators.values():
                await spectator.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")

            # The bus sends in order: once the last table's end is out, everything is. Only
            # these tables count: other servers may publish on the same broker meanwhile.
            topics = {table: f"tischrunde/v1/tables/{table}/events" for table in ids}

            def ends() -> int:
                return sum('"series_end"' in p for t, p in published if t in topics.values())

            async def drained() -> None:
                while ends() < len(ids):
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(drained(), PATIENCE)
            problems = []
            for table, game in ids.items():
                seen = await visible_cards(app, table)
                problems += leaks(spectators[table].frames, None, table, game, seen)
                bus = [p for topic, p in published if topic == topics[table]]
                assert bus, "no public events were published"
                # The bus carried every move the spectator saw: none lost, none extra.
                spectator_moves = sum('"kind":"move"' in f for f in spectators[table].frames)
                assert sum('"kind":"move"' in p for p in bus) == spectator_moves > 0
                problems += leaks(bus, None, table, game, seen)
            problems += leaks(human.frames, 1, first, "skat", await visible_cards(app, first))
            assert not problems, problems[:10]
            lobby = [p for topic, p in published if topic.startswith("tischrunde/v1/lobby/")]
            assert lobby and not any(cards_in(g, p) for p in lobby for g in GAMES)
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
