"""Presence, invitations and the lobby chat across the server processes of a cluster, over a
real Mosquitto (issue 29): a user on one process sees who is online on another and where,
is invited from there and hears its lobby chat; a process that dies unnoticed leaves nobody
online behind once its lease lapses; and with the shipped broker accounts an anonymous
subscriber hears nothing of who is online, of the chat or of an invitation."""

import asyncio
import json
from pathlib import Path
from typing import Any

import aiomqtt

from server.app import running
from tests.server.client import Client, until
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker
from tests.server.test_broker_acl import PASSWORDS, listening, shipped_broker
from tests.server.test_social import account, place, presences

__all__ = ["shipped_broker"]  # the fixture, used below


async def befriend(a: Client, b: Client) -> None:
    await a.ok("friend_request", name=b.user["name"])
    await b.ok("friend_accept", name=a.user["name"])


def lines(client: Client) -> list[str]:
    return [m["line"]["text"] for m in client.messages if m["type"] == "lobby_said"]


async def test_presence_invitations_and_chat_cross_processes(
    tmp_path: Path, broker: PrivateBroker
) -> None:
    settings = server_settings(tmp_path, mqtt=f"mqtt://127.0.0.1:{broker.port}")
    async with running(settings) as a, running(settings) as b:
        anna, bert = await account(a.port, "anna"), await account(b.port, "bert")
        people = await anna.ok("watch_people")
        await bert.ok("watch_people")
        await until(lambda: place(anna, "bert") == "lobby" or _online(people, "bert"))
        await befriend(anna, bert)
        await until(lambda: _friend(anna, "bert") is not None)
        # bert sits down at a public table on b: anna, on a, sees where.
        table = (await bert.ok("create_table", game="skat"))["table"]["id"]
        await bert.ok("join", table=table)
        await until(lambda: place(anna, "bert") == "playing")
        assert presences(anna, "bert")[-1]["table"] == table
        # An invitation from b reaches anna on a.
        await bert.ok("invite", name="anna", table=table)
        invitation = await anna.wait_for(lambda m: m["type"] == "invitation")
        assert invitation["table"]["id"] == table and invitation["by"] == "bert"
        # The lobby chat of b is heard on a, and the other way round.
        await bert.ok("lobby_chat", text="from b")
        await anna.ok("lobby_chat", text="from a")
        await until(lambda: lines(anna) == ["from b", "from a"] == lines(bert))
        await bert.close()
        await until(lambda: place(anna, "bert") == "offline")
        await anna.close()


async def test_a_dead_process_leaves_nobody_online(tmp_path: Path, broker: PrivateBroker) -> None:
    """A process that died unnoticed left its retained list on the broker: it is believed
    until the process's lease has lapsed (here it never had one), then its users go offline."""
    settings = server_settings(tmp_path, mqtt=f"mqtt://127.0.0.1:{broker.port}", lease_seconds=1)
    async with running(settings) as a:
        watcher = await Client.open(a.port)
        await watcher.ok("watch_people")
        ghost = {"people": [{"id": 999, "name": "ghost", "guest": True, "place": "lobby"}]}
        async with aiomqtt.Client("127.0.0.1", broker.port) as client:
            await client.publish(
                "tischrunde/v1/people/dead-node", json.dumps(ghost), qos=1, retain=True
            )
        await until(lambda: place(watcher, "ghost") == "lobby")
        await until(lambda: place(watcher, "ghost") == "offline")
        await watcher.close()


async def test_anonymous_subscribers_hear_nothing_of_people(
    shipped_broker: PrivateBroker, tmp_path: Path
) -> None:
    heard: list[tuple[str, bytes]] = []
    url = f"mqtt://server:{PASSWORDS['server']}@127.0.0.1:{shipped_broker.port}"
    settings = server_settings(tmp_path, mqtt=url)
    async with (
        listening(shipped_broker, ["#", "tischrunde/v1/people/+", "tischrunde/v1/social"], heard),
        running(settings) as a,
        running(settings) as b,
    ):
        anna, bert = await account(a.port, "anna"), await account(b.port, "bert")
        people = await anna.ok("watch_people")
        await bert.ok("watch_people")
        # It did cross the broker.
        await until(lambda: place(anna, "bert") == "lobby" or _online(people, "bert"))
        await befriend(anna, bert)
        created = await bert.ok("create_table", game="skat", private=True)
        await bert.ok("join", table=created["table"]["id"], invite=created["invite"])
        await bert.ok("invite", name="anna", table=created["table"]["id"])
        await anna.wait_for(lambda m: m["type"] == "invitation")
        await anna.ok("lobby_chat", text="secret words")
        await until(lambda: "secret words" in lines(bert))
        await asyncio.sleep(0.2)
        for client in (anna, bert):
            await client.close()
    assert not [t for t, _ in heard if "/people/" in t or t.endswith("/social")]
    for _, payload in heard:
        assert b"anna" not in payload and b"secret words" not in payload
        assert created["invite"].encode() not in payload


def _online(people: dict[str, Any], name: str) -> bool:
    return any(p["name"] == name for p in people["online"])


def _friend(client: Client, name: str) -> dict[str, Any] | None:
    pushed = [m["friends"] for m in client.messages if m["type"] == "friends"]
    found = [f for f in (pushed[-1] if pushed else []) if f["name"] == name]
    return found[0] if found and found[0]["status"] == "friend" else None
