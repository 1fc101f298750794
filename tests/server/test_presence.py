"""Presence pushed in batches (server/social/presence.py): the changes of one `PUSH_DELAY`
go to each watcher as one `presence` frame, each user once in his latest place, encoded once
for all who see the same; somebody who blocked a watcher is left out of the batch (a batch of
only him is not sent); a private table is only `private`. And where a user is after moving
between tables: the table he sat down at last, not the one he left behind; nowhere at a table
this process no longer serves; after a reload (the session taken up by a new connection)
where the new connection is."""

import asyncio
import json
from pathlib import Path
from typing import Any

from sqlalchemy import update

from server.app import running
from server.social.presence import PUSH_DELAY, Presence
from server.store.models import nodes
from tests.server.client import Client, until
from tests.server.conftest import server_settings
from tests.server.test_cluster import seated_table
from tests.server.test_social import place, presences


class Watcher:
    """A watching client: what was pushed to it, as sent."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def push(self, frame: bytes) -> None:
        self.frames.append(frame)

    def people(self) -> list[list[dict[str, Any]]]:
        return [json.loads(frame)["people"] for frame in self.frames]


def connect(presence: Presence, user_id: int, name: str) -> Watcher:
    """User `user_id` connected (as client `user_id`); returns his pushes."""
    own = Watcher()
    presence.connect(user_id, user_id, name, False, own.push)
    return own


async def settled() -> None:
    await asyncio.sleep(PUSH_DELAY * 3)


async def test_the_changes_of_a_moment_go_out_as_one_frame_encoded_once() -> None:
    presence = Presence()
    watchers = [Watcher() for _ in range(3)]
    for index, watcher in enumerate(watchers):
        presence.watch(100 + index, 100 + index, watcher.push, set(), set())
    for user_id in range(1, 6):
        connect(presence, user_id, f"p{user_id}")
    presence.at_table("T1", False, {1: True, 2: False})
    presence.at_table("P1", True, {3: True})
    presence.disconnect(5)
    assert all(w.frames == [] for w in watchers)  # nothing before the moment is over
    await settled()
    first = watchers[0].frames
    assert len(first) == 1
    assert all(w.frames[0] is first[0] for w in watchers)  # one encoding for all
    people = {p["name"]: p for p in watchers[0].people()[0]}
    assert list(people) == ["p1", "p2", "p3", "p4", "p5"]  # each once, where he is now
    assert (people["p1"]["place"], people["p1"]["table"]) == ("playing", "T1")
    assert (people["p2"]["place"], people["p2"]["table"]) == ("watching", "T1")
    assert people["p3"] == {"id": 3, "name": "p3", "guest": False, "place": "private"}
    assert b"P1" not in first[0]
    assert people["p5"]["place"] == "offline"


async def test_a_blocker_is_left_out_of_the_batch_and_alone_is_not_sent() -> None:
    presence = Presence()
    blocked, other = Watcher(), Watcher()
    presence.watch(100, 100, blocked.push, {1}, set())  # user 1 blocked user 100
    presence.watch(101, 101, other.push, set(), set())
    connect(presence, 1, "blocker")
    connect(presence, 2, "friendly")
    await settled()
    assert [[p["name"] for p in batch] for batch in blocked.people()] == [["friendly"]]
    assert [[p["name"] for p in batch] for batch in other.people()] == [["blocker", "friendly"]]
    presence.at_table("P1", True, {1: True})  # only the blocker moves
    presence.disconnect(1)
    await settled()
    assert len(blocked.frames) == 1 and b"blocker" not in blocked.frames[0]
    assert other.people()[-1] == [{"id": 1, "name": "blocker", "guest": False, "place": "offline"}]


async def test_a_player_is_seen_at_the_table_he_sat_down_at_last() -> None:
    presence = Presence()
    connect(presence, 1, "anna")
    connect(presence, 2, "bert")
    for table in ("T1", "T9", "T0"):  # the later table wins, whatever its id
        presence.at_table(table, False, {1: True})
        assert table_of(presence, 1) == table
    presence.at_table("T9", False, {1: True, 2: True})  # bert joins one she sat down at before
    assert table_of(presence, 1) == "T0"
    presence.at_table("T0", False, {})  # she gets up at the last
    assert table_of(presence, 1) == "T9"
    await settled()


def table_of(presence: Presence, user_id: int) -> str | None:
    person = presence.person(user_id)
    assert person is not None
    return person.table


async def test_players_of_a_table_another_process_took_over_are_back_in_the_lobby(
    tmp_path: Path,
) -> None:
    slow = server_settings(tmp_path, lease_seconds=3600)  # never renews: as if stalled
    async with running(slow) as stalled, running(server_settings(tmp_path)) as other:
        human, watcher = await Client.open(stalled.port), await Client.open(stalled.port)
        await watcher.ok("watch_people")
        table = await seated_table(human, bots=(1,))
        name = human.user["name"]
        await until(lambda: place(watcher, name) == "playing")
        async with other.store.engine.begin() as conn:  # its lease runs out
            await conn.execute(update(nodes).where(nodes.c.id == stalled.node).values(seen_at=0))
        await other.lobby.locate(table)
        reply = await human.request("add_bot", table=table, seat=2, level="random")
        assert reply["code"] == "moved"
        # Still connected to the stalled process, but at none of its tables.
        await until(lambda: place(watcher, name) == "lobby")
        assert presences(watcher, name)[-1].get("table") is None
        for client in (human, watcher):
            await client.close()


async def test_a_session_taken_up_by_a_new_connection_keeps_its_place_only_where_it_resumed(
    tmp_path: Path,
) -> None:
    async with running(server_settings(tmp_path)) as app:
        first, watcher = await Client.open(app.port), await Client.open(app.port)
        await watcher.ok("watch_people")
        table = await seated_table(first, bots=(1,))
        name = first.user["name"]
        await until(lambda: place(watcher, name) == "playing")
        # A reload: the new connection takes the session and resumes; he still plays there.
        second = await Client.open(app.port, token=first.token)
        await first.wait_for(lambda m: m.get("code") == "session_replaced")
        await second.ok("resume", table=table, seq=0)
        await until(lambda: len(app.connections) == 2)  # the first has closed
        await settled()
        assert place(watcher, name) == "playing"
        assert presences(watcher, name)[-1]["table"] == table
        # Taken up again by a connection that stays in the lobby: he is in the lobby.
        third = await Client.open(app.port, token=first.token)
        await second.wait_for(lambda m: m.get("code") == "session_replaced")
        await until(lambda: place(watcher, name) == "lobby")
        for client in (first, second, third, watcher):
            await client.close()
