"""A people's tournament in a cluster, over a real Mosquitto with the shipped broker accounts:
the process that draws a series seats players connected to another process too (their
`tournament_seat` crosses on the server-only social topic), and an anonymous subscriber hears
nothing of it."""

import asyncio
from pathlib import Path

from server.app import running
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker
from tests.server.test_broker_acl import PASSWORDS, listening, shipped_broker
from tests.server.test_social import account
from tests.server.test_tournament_people import _soon

__all__ = ["shipped_broker"]  # the fixture, used below


async def test_the_seat_push_reaches_a_player_on_another_process(
    shipped_broker: PrivateBroker, tmp_path: Path
) -> None:
    heard: list[tuple[str, bytes]] = []
    url = f"mqtt://server:{PASSWORDS['server']}@127.0.0.1:{shipped_broker.port}"
    settings = server_settings(tmp_path, mqtt=url)
    async with (
        listening(shipped_broker, ["#"], heard),
        running(settings) as a,
        running(settings) as b,
    ):
        anna, bert = await account(a.port, "anna"), await account(b.port, "bert")
        try:
            create = {"name": "Across", "starts_at": _soon(3600), "deals": 1}
            tid = (await anna.ok("create_tournament", **create))["tournament"]["id"]
            await anna.ok("register_tournament", tournament=tid)
            await bert.ok("register_tournament", tournament=tid)
            started = await anna.ok("start_tournament", tournament=tid)  # a draws
            tables = started["tournament"]["tables"]
            mine = await anna.wait_for(lambda m: m["type"] == "tournament_seat")
            seat = await bert.wait_for(lambda m: m["type"] == "tournament_seat")
            assert seat["tournament"] == tid and seat["series"] == 1
            assert seat["table"] == mine["table"] and seat["table"] in tables
            assert seat["seat"] != mine["seat"]
            await asyncio.sleep(0.2)
            assert [m["type"] for m in bert.messages].count("tournament_seat") == 1
        finally:
            for client in (anna, bert):
                await client.close()
    assert not [t for t, _ in heard if t.endswith("/social")]
    assert not [p for _, p in heard if b"tournament_seat" in p]
