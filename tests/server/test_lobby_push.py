"""The lobby pushed over the WebSocket (issue 18): `watch_lobby` answers the public tables and
then pushes each change of a public table (created, a seat taken, a deal begun, finished),
from this process and from the others of a cluster; a private table is never pushed."""

from pathlib import Path
from typing import Any

from server.app import App, running
from tests.server.client import Client, play, until
from tests.server.conftest import server_settings
from tests.server.services import PrivateBroker


def pushes(client: Client, table: str | None = None) -> list[dict[str, Any]]:
    """The `lobby_table` pushes the client received (about `table`)."""
    return [
        m["table"]
        for m in client.messages
        if m["type"] == "lobby_table" and table in (None, m["table"]["id"])
    ]


async def test_watchers_get_every_change_of_a_public_table_and_nothing_private(
    app: App,
) -> None:
    watcher = await Client.open(app.port)
    host = await Client.open(app.port)
    early = (await host.ok("create_table", game="skat"))["table"]["id"]
    reply = await watcher.ok("watch_lobby")
    assert reply["type"] == "tables" and [t["id"] for t in reply["tables"]] == [early]
    created = await host.ok("create_table", game="skat")
    table = created["table"]["id"]
    hidden = await host.ok("create_table", game="skat", private=True)
    private, secret = hidden["table"]["id"], hidden["invite"]
    await until(lambda: len(pushes(watcher, table)) >= 1)
    assert pushes(watcher, table)[0]["status"] == "waiting"
    await host.ok("join", table=table)
    await until(lambda: any(p["seats"][0]["name"] for p in pushes(watcher, table)))
    await host.ok("join", table=private, invite=secret)
    await host.ok("add_bot", table=table, seat=1)
    await host.ok("add_bot", table=table, seat=2)
    await until(lambda: any(p["status"] == "playing" for p in pushes(watcher, table)))
    await play({0: host}, table)
    await until(lambda: pushes(watcher, table)[-1]["status"] == "finished")
    assert pushes(watcher, private) == []
    assert all(not p["private"] for p in pushes(watcher))
    # A watcher that is gone gets nothing more; the others do.
    await watcher.close()
    other = await Client.open(app.port)
    await other.ok("watch_lobby")
    late = (await host.ok("create_table", game="tichu"))["table"]["id"]
    await until(lambda: len(pushes(other, late)) >= 1)
    await until(lambda: len(app.lobby.watchers) == 1)  # the closed connection is forgotten


async def test_a_watcher_hears_the_tables_of_the_other_processes(
    tmp_path: Path, broker: PrivateBroker
) -> None:
    settings = server_settings(tmp_path, mqtt=f"mqtt://127.0.0.1:{broker.port}", lease_seconds=3600)
    async with running(settings) as a, running(settings) as b:
        watcher = await Client.open(a.port)
        await watcher.ok("watch_lobby")
        on_b = await Client.open(b.port)
        there = (await on_b.ok("create_table", game="tichu"))["table"]["id"]
        hidden = (await on_b.ok("create_table", game="skat", private=True))["table"]["id"]
        await until(lambda: len(pushes(watcher, there)) >= 1)
        assert pushes(watcher, there)[0]["game"] == "tichu"
        await on_b.ok("join", table=there)
        await until(lambda: any(p["seats"][0]["name"] for p in pushes(watcher, there)))
        assert pushes(watcher, hidden) == []
        for client in (watcher, on_b):
            await client.close()


async def test_a_table_carries_the_name_of_who_opened_it(app: App) -> None:
    """Issue 28: clients name a table after its host instead of showing its id."""
    host, watcher = await Client.open(app.port), await Client.open(app.port)
    await watcher.ok("watch_lobby")
    created = (await host.ok("create_table", game="tichu"))["table"]
    assert created["host"] == host.user["name"]
    listed = (await watcher.ok("list_tables"))["tables"]
    assert [t["host"] for t in listed if t["id"] == created["id"]] == [host.user["name"]]
    await until(lambda: len(pushes(watcher, created["id"])) >= 1)
    assert pushes(watcher, created["id"])[0]["host"] == host.user["name"]
    # A later rename does not rename the table: it was opened under the old name.
    await host.ok("rename", name="Jürgen Müller")
    await watcher.ok("watch", table=created["id"])
    await until(lambda: any(m["type"] == "snapshot" for m in watcher.messages))
    [snapshot] = [m for m in watcher.messages if m["type"] == "snapshot"]
    assert snapshot["table"]["host"] == created["host"]
