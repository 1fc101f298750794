"""Players find each other (issue 29): presence pushed to `watch_people` watchers, friends
asked, accepted, refused and removed, invitations to a private table joined with the
invitation alone, blocks that hide presence and chat, the lobby chat kept across a restart,
reports and a moderator's mute, and one clear error for each wrong request. On SQLite and
PostgreSQL (`any_db_app`)."""

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from server.app import App, running
from server.cli import main
from tests.server.client import Client, play, until
from tests.server.conftest import server_settings


def presences(client: Client, name: str) -> list[dict[str, Any]]:
    """The `presence` pushes the client got about `name`."""
    return [
        person
        for m in client.messages
        if m["type"] == "presence"
        for person in m["people"]
        if person["name"] == name
    ]


def place(client: Client, name: str) -> str | None:
    """Where the client was last told `name` is."""
    told = presences(client, name)
    return told[-1]["place"] if told else None


def friends_of(client: Client) -> list[dict[str, Any]]:
    """The client's friends list as last pushed."""
    pushed = [m["friends"] for m in client.messages if m["type"] == "friends"]
    return pushed[-1] if pushed else []


async def account(port: int, name: str) -> Client:
    client = await Client.open(port)
    reply = await client.ok("register", name=name, password="correct horse")
    client.user = reply["user"]
    return client


async def test_two_players_see_each_other_become_friends_and_one_invites_the_other(
    any_db_app: App,
) -> None:
    port = any_db_app.port
    anna, bert = await account(port, "anna"), await account(port, "bert")
    stranger = await Client.open(port)
    people = await anna.ok("watch_people")
    assert people["type"] == "people"
    assert {p["name"]: p["place"] for p in people["online"]}["bert"] == "lobby"
    await bert.ok("watch_people")
    await stranger.ok("watch_people")

    await anna.ok("friend_request", name="bert")
    await until(lambda: friends_of(bert) == [{"name": "anna", "status": "asking"}])
    assert friends_of(anna) == [{"name": "bert", "status": "asked"}]
    await bert.ok("friend_accept", name="anna")
    await until(lambda: [f["status"] for f in friends_of(anna)] == ["friend"])
    assert friends_of(anna)[0]["place"] == "lobby"

    created = await anna.ok("create_table", game="skat", private=True)
    table, secret = created["table"]["id"], created["invite"]
    await anna.ok("join", table=table, invite=secret)
    await until(lambda: any(p["place"] == "private" for p in presences(stranger, "anna")))
    await anna.ok("invite", name="bert", table=table)
    invitation = await bert.wait_for(lambda m: m["type"] == "invitation")
    assert invitation["by"] == "anna" and invitation["table"]["id"] == table
    joined = await bert.ok("join", table=table, invite=invitation["invite"])
    assert joined["seat"] == 1
    await until(lambda: any(p["place"] == "private" for p in presences(stranger, "bert")))
    # Nothing of the private table reached anybody through presence.
    for watcher in (anna, bert, stranger):
        for frame in watcher.frames:
            if '"presence"' in frame or '"people"' in frame:
                assert table not in frame
    await bert.ok("friend_remove", name="anna")
    await until(lambda: friends_of(anna) == [])
    await bert.close()
    await until(lambda: any(p["place"] == "offline" for p in presences(anna, "bert")))
    for client in (anna, stranger):
        await client.close()


async def test_presence_names_a_public_table_and_whether_one_plays_or_watches(
    app: App,
) -> None:
    host, guest, watcher = [await Client.open(app.port) for _ in range(3)]
    await watcher.ok("watch_people")
    table = (await host.ok("create_table", game="skat"))["table"]["id"]
    await host.ok("join", table=table)
    await guest.ok("watch", table=table)
    host_name, guest_name = host.user["name"], guest.user["name"]
    await until(lambda: place(watcher, host_name) == "playing")
    assert presences(watcher, host_name)[-1]["table"] == table
    await until(lambda: place(watcher, guest_name) == "watching")
    await guest.ok("leave", table=table)
    await until(lambda: place(watcher, guest_name) == "lobby")
    # Once the list is over, its players are back in the lobby (still connected to it).
    for seat in (1, 2):
        await host.ok("add_bot", table=table, seat=seat)
    await play({0: host}, table)
    await until(lambda: place(watcher, host_name) == "lobby")
    for client in (host, guest, watcher):
        await client.close()


async def test_a_block_hides_presence_and_chat_and_stops_requests(any_db_app: App) -> None:
    port = any_db_app.port
    anna, bert = await account(port, "anna"), await account(port, "bert")
    await bert.ok("watch_people")
    await anna.ok("watch_people")
    await anna.ok("block", name="bert")
    await until(lambda: any(p["place"] == "offline" for p in presences(bert, "anna")))
    again = await Client.open(port, token=bert.token)
    people = await again.ok("watch_people")
    assert "anna" not in {p["name"] for p in people["online"]}
    refused = await again.request("friend_request", name="anna")
    assert refused["code"] == "blocked"
    await again.ok("lobby_chat", text="hello anna")
    await until(lambda: any(m["type"] == "lobby_said" for m in again.messages))
    assert not any(m["type"] == "lobby_said" for m in anna.messages)
    assert [f["status"] for f in friends_of(anna)] == ["blocked"]
    await anna.ok("unblock", name="bert")
    await until(lambda: place(again, "anna") == "lobby")
    for client in (anna, bert, again):
        await client.close()


async def test_wrong_requests_get_one_clear_error(any_db_app: App) -> None:
    port = any_db_app.port
    anna, bert = await account(port, "anna"), await account(port, "bert")
    guest = await Client.open(port)

    async def code(client: Client, type_: str, **fields: Any) -> str:
        reply = await client.request(type_, **fields)
        assert reply["type"] == "error", reply
        return str(reply["code"])

    assert await code(anna, "friend_request", name="nobody") == "no_such_user"
    assert await code(anna, "friend_request", name="anna") == "yourself"
    assert await code(guest, "friend_request", name="anna") == "register_first"
    assert await code(anna, "friend_request", name=guest.user["name"]) == "not_registered"
    assert await code(anna, "friend_accept", name="bert") == "no_request"
    assert await code(anna, "friend_refuse", name="bert") == "no_request"
    assert await code(anna, "friend_remove", name="bert") == "not_friends"
    assert await code(anna, "unblock", name="bert") == "not_blocked"
    assert await code(anna, "lobby_chat", text="bell\x07") == "bad_request"
    assert await code(anna, "lobby_chat", text="x" * 501) == "bad_request"
    assert await code(anna, "mute", name="bert", minutes=5) == "not_moderator"
    table = (await anna.ok("create_table", game="skat"))["table"]["id"]
    assert await code(anna, "invite", name="bert", table=table) == "not_at_table"
    await anna.ok("join", table=table)
    assert await code(anna, "invite", name="bert", table=table) == "not_friends"
    await anna.ok("friend_request", name="bert")
    await bert.ok("friend_accept", name="anna")
    for seat in (1, 2):
        await anna.ok("add_bot", table=table, seat=seat)
    assert await code(anna, "invite", name="bert", table=table) == "table_full"
    for client in (anna, bert, guest):
        await client.close()


async def test_a_flood_is_rate_limited_and_counted(app: App) -> None:
    client = await Client.open(app.port)
    codes = [(await client.request("lobby_chat", text=f"line {n}"))["type"] for n in range(15)]
    assert codes.count("ok") <= app.settings.social_burst + 1
    assert "error" in codes
    assert app.metrics.social_limited_total >= 1
    assert "tischrunde_social_limited_total" in app.render_metrics()
    await client.close()


async def test_the_lobby_chat_survives_a_restart_and_a_moderator_mutes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        anna, mod = await account(app.port, "anna"), await account(app.port, "moderator1")
        for n in range(3):
            await anna.ok("lobby_chat", text=f"hello {n}")
        await anna.ok("report", name="moderator1", reason="testing the report")
        for client in (anna, mod):
            await client.close()
    # The operator grants the role with the command docs/deploy.md gives.
    grant = ["moderator", "grant", "moderator1", "--db", settings.db]
    assert await asyncio.to_thread(main, grant) == 0
    async with running(settings) as app:
        watcher = await Client.open(app.port)
        people = await watcher.ok("watch_people")
        assert [line["text"] for line in people["chat"]] == ["hello 0", "hello 1", "hello 2"]
        mod = await Client.open(app.port)
        await mod.ok("login", name="moderator1", password="correct horse")
        await mod.ok("mute", name="anna", minutes=10)
        anna = await Client.open(app.port)
        await anna.ok("login", name="anna", password="correct horse")
        assert (await anna.request("lobby_chat", text="again"))["code"] == "muted"
        for client in (watcher, mod, anna):
            await client.close()
    await asyncio.to_thread(main, ["moderator", "reports", "--db", settings.db])
    reported = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert reported["reporter"] == "anna" and reported["reason"] == "testing the report"
