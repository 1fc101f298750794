"""Private tables stay private off the WebSocket too: nothing of theirs on the MQTT bus, and
their records over HTTP only for their players (session token) or with the invite."""

import asyncio
import contextlib
import urllib.error
import urllib.request
from pathlib import Path

import aiomqtt
from paho.mqtt.enums import MQTTProtocolVersion

from server.app import App, running
from tests.server.client import PATIENCE, Client, bot_table, play
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker


def http_get(app: App, path: str, token: str | None = None) -> tuple[int, str]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    request = urllib.request.Request(f"http://127.0.0.1:{app.port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def test_a_private_tables_records_only_for_its_players_or_with_the_invite(
    app: App,
) -> None:
    player, stranger = await Client.open(app.port), await Client.open(app.port)
    private, invite = await bot_table(player, private=True)
    public, _ = await bot_table(stranger, private=False)
    await asyncio.gather(play({0: player}, private), play({0: stranger}, public))
    path = f"/api/records/{private}/0"

    def get(path: str, token: str | None = None) -> tuple[int, str]:
        return http_get(app, path, token)

    assert (await asyncio.to_thread(get, path))[0] == 404
    assert (await asyncio.to_thread(get, f"{path}?invite=wrong"))[0] == 404
    assert (await asyncio.to_thread(get, path, stranger.token))[0] == 404
    assert (await asyncio.to_thread(get, path, "forged"))[0] == 404
    # Refused exactly as a table that does not exist: its existence does not leak either.
    assert await asyncio.to_thread(get, path) == await asyncio.to_thread(get, "/api/records/x/0")
    status, record = await asyncio.to_thread(get, f"{path}?invite={invite}")
    assert status == 200 and record.startswith("(;GM[Skat]")
    assert await asyncio.to_thread(get, path, player.token) == (status, record)
    # A public table's record is everybody's.
    assert (await asyncio.to_thread(get, f"/api/records/{public}/0"))[0] == 200


async def test_no_event_or_result_of_a_private_table_reaches_the_bus(
    broker: PrivateBroker, tmp_path: Path
) -> None:
    heard: list[tuple[str, bytes]] = []
    url = f"mqtt://127.0.0.1:{broker.port}"
    async with aiomqtt.Client(
        "127.0.0.1", broker.port, protocol=MQTTProtocolVersion.MQTTv5
    ) as mqtt:
        await mqtt.subscribe("#", qos=1)

        async def listen() -> None:
            async for message in mqtt.messages:
                heard.append((str(message.topic), bytes(message.payload)))  # type: ignore[arg-type]

        listening = asyncio.create_task(listen())
        async with running(server_settings(tmp_path, mqtt=url)) as app:
            host = await Client.open(app.port)
            private, _ = await bot_table(host, private=True)
            public, _ = await bot_table(host, private=False)
            await asyncio.gather(play({0: host}, private), play({0: host}, public))
            await host.ok("chat", table=private, text="only for us")
            await host.ok("chat", table=public, text="for everybody")

            async def public_chat_heard() -> None:  # the bus sends in order
                while not any(b"for everybody" in payload for _, payload in heard):
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(public_chat_heard(), PATIENCE)
            public_topics = {topic for topic, _ in heard if public in topic}
            assert public_topics == {
                f"tischrunde/v1/tables/{public}/events",
                f"tischrunde/v1/lobby/{public}",
            }
            assert any(public.encode() in p for t, p in heard if t == "tischrunde/v1/results")
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await listening
    assert not [topic for topic, payload in heard if private.encode() in topic.encode() + payload]
