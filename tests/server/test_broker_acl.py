"""The shipped broker configuration (deploy/mosquitto: accounts and ACL) in a real Mosquitto:
bot requests, which carry hidden hands, and their replies reach only the server and bot-worker
accounts; anonymous clients read public tables' events and the lobby and write nothing."""

import asyncio
import contextlib
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiomqtt
import pytest
from paho.mqtt.enums import MQTTProtocolVersion

from server.app import running
from tests.server.client import PATIENCE, Client, play
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker, require_program
from tests.server.test_remote_bots import start_worker, wait_taking_requests

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto"
PASSWORDS = {"server": "server-secret", "bots": "bots-secret"}


def shipped_config(root: Path) -> str:
    """deploy/mosquitto/mosquitto.conf with its files in `root` (the broker's own listener
    replaces the compose network's)."""
    lines = []
    for line in (SHIPPED / "mosquitto.conf").read_text().splitlines():
        key = line.split(" ", 1)[0]
        if key == "listener":
            continue
        if key == "password_file":
            line = f"password_file {root / 'passwd'}"
        elif key == "acl_file":
            line = f"acl_file {root / 'acl'}"
        lines.append(line)
    return "\n".join(lines)


@pytest.fixture
def shipped_broker() -> Iterator[PrivateBroker]:
    broker = PrivateBroker()
    broker.config = shipped_config(broker.root)
    (broker.root / "acl").write_text((SHIPPED / "acl").read_text())
    passwd = require_program("mosquitto_passwd")
    for index, (user, password) in enumerate(PASSWORDS.items()):
        create = ["-c"] if index == 0 else []
        command = [passwd, *create, "-b", str(broker.root / "passwd"), user, password]
        subprocess.run(command, check=True, capture_output=True)
    broker.start()
    try:
        yield broker
    finally:
        broker.remove()


@contextlib.asynccontextmanager
async def listening(
    broker: PrivateBroker, topics: list[str], heard: list[tuple[str, bytes]]
) -> AsyncIterator[aiomqtt.Client]:
    """An anonymous MQTT 5 client subscribed to `topics`, collecting what it hears."""
    async with aiomqtt.Client(
        "127.0.0.1", broker.port, protocol=MQTTProtocolVersion.MQTTv5
    ) as client:
        for topic in topics:
            await client.subscribe(topic, qos=1)

        async def collect() -> None:
            async for message in client.messages:
                heard.append((str(message.topic), bytes(message.payload)))  # type: ignore[arg-type]

        task = asyncio.create_task(collect())
        try:
            yield client
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                await task


async def test_anonymous_clients_hear_no_bot_request_and_no_private_table(
    shipped_broker: PrivateBroker, tmp_path: Path
) -> None:
    worker = start_worker(shipped_broker, "w1", f"bots:{PASSWORDS['bots']}")
    try:
        await asyncio.wait_for(asyncio.to_thread(wait_taking_requests, worker), PATIENCE)
        await anonymous_run(shipped_broker, tmp_path)
    finally:
        worker.kill()
        worker.wait()


async def anonymous_run(broker: PrivateBroker, tmp_path: Path) -> None:
    everything: list[tuple[str, bytes]] = []
    public: list[tuple[str, bytes]] = []
    wildcards = ["#", "tischrunde/v1/#", "$share/thieves/tischrunde/v1/bots/requests"]
    public_topics = ["tischrunde/v1/tables/+/events", "tischrunde/v1/lobby/+"]
    url = f"mqtt://server:{PASSWORDS['server']}@127.0.0.1:{broker.port}"
    settings = server_settings(tmp_path, mqtt=url, remote_bots_seconds=PATIENCE / 4)
    async with (
        listening(broker, wildcards, everything) as thief,
        listening(broker, public_topics, public),
        running(settings) as app,
    ):
        # Anonymous clients write nothing: a forged lobby entry is dropped.
        with contextlib.suppress(aiomqtt.MqttError):
            await thief.publish("tischrunde/v1/lobby/forged", b'{"id": "forged"}', qos=1)
        host = await Client.open(app.port)
        tables = {}
        for private in (True, False):
            created = await host.ok("create_table", game="skat", private=private, series_length=1)
            table = tables[private] = created["table"]["id"]
            await host.ok("join", table=table, invite=created.get("invite"))
            await host.ok("add_bot", table=table, seat=1, level="greedy")
            await host.ok("add_bot", table=table, seat=2, level="random")
        await asyncio.gather(*(play({0: host}, table) for table in tables.values()))
        assert app.pool.by_worker["w1"] > 0  # bot requests did cross the broker
        await host.ok("chat", table=tables[False], text="the last word")

        async def heard_the_last_word() -> None:
            while not any(b"the last word" in payload for _, payload in public):
                await asyncio.sleep(0.05)

        await asyncio.wait_for(heard_the_last_word(), PATIENCE)
        listed = {t["id"] for t in (await host.ok("list_tables"))["tables"]}
        assert "forged" not in listed

    private, public_table = tables[True], tables[False]
    assert not [topic for topic, _ in everything if "/bots/" in topic]
    assert not [t for t, p in everything if private in t or private.encode() in p]
    assert not [topic for topic, _ in everything if topic.endswith("/forged")]
    # What the public may read still arrives, to the wildcards and the exact topics alike.
    events = f"tischrunde/v1/tables/{public_table}/events"
    assert any(topic == events for topic, _ in everything)
    assert any(topic == events for topic, _ in public)
