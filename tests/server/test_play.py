"""Full Skat lists over real WebSockets against a real server, with humans and bots."""

import asyncio
import urllib.request
from typing import Any

from server.app import App
from tests.server.client import Client, play


async def open_table(app: App, host: Client, **options: Any) -> str:
    reply = await host.ok("create_table", game="skat", **options)
    return str(reply["table"]["id"])


def http_get(app: App, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}") as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def test_one_human_and_two_bots_play_a_list_to_the_standings(app: App) -> None:
    human = await Client.open(app.port)
    table = await open_table(app, human, series_length=2)
    await human.ok("join", table=table)
    await human.ok("add_bot", table=table, seat=1, level="random")
    await human.ok("add_bot", table=table, seat=2, level="random")
    await play({0: human}, table, deals=2)
    end = await human.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
    assert sorted(s["seat"] for s in end["event"]["standings"]) == [0, 1, 2]
    seqs = [m["seq"] for m in human.messages if m["type"] == "event"]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    status, record = await asyncio.to_thread(http_get, app, f"/api/records/{table}/0")
    assert status == 200 and record.startswith("(;GM[Skat]")
    status, board = await asyncio.to_thread(http_get, app, "/api/leaderboard?game=skat")
    assert status == 200 and human.user["name"] in board


async def test_two_humans_and_two_bots_at_a_four_table(app: App) -> None:
    first, second = await Client.open(app.port), await Client.open(app.port)
    table = await open_table(app, first, rules={"players": 4}, series_length=2)
    await first.ok("join", table=table, seat=0)
    await second.ok("join", table=table, seat=2)
    await first.ok("add_bot", table=table, seat=1)
    await second.ok("add_bot", table=table, seat=3)
    await play({0: first, 2: second}, table, deals=2)
    await second.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")


async def test_a_spectator_sees_every_event_but_no_hand(app: App) -> None:
    host, spectator = await Client.open(app.port), await Client.open(app.port)
    table = await open_table(app, host, series_length=1)
    await spectator.ok("watch", table=table)
    await host.ok("join", table=table)
    await host.ok("add_bot", table=table, seat=1)
    await host.ok("add_bot", table=table, seat=2)
    await play({0: host}, table)
    await spectator.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
    views = [m["view"] for m in spectator.messages if m.get("view")]
    assert views and all(v["hand"] == [] and v["legal"] == [] for v in views)
    hidden = [v for v in views if v["phase"] != "over" and not (v["contract"] or {}).get("ouvert")]
    assert all(v["open_hands"] == [None, None, None] for v in hidden)


async def test_reconnecting_with_token_and_seq_gets_exactly_the_missed_events(app: App) -> None:
    human = await Client.open(app.port)
    table = await open_table(app, human, series_length=1)
    await human.ok("join", table=table)
    watcher = await Client.open(app.port)
    await watcher.ok("watch", table=table)
    await human.ok("add_bot", table=table, seat=1)
    await human.ok("add_bot", table=table, seat=2)
    # The deal is on (a bot has bid to us); drop the connection mid-hand.
    await human.wait_for(lambda m: m.get("seq", 0) >= 5)
    seen = human.last_seq(table)
    token = human.token
    await human.close()
    await watcher.ok("chat", table=table, text="still here")
    back = await Client.open(app.port, token=token)
    assert back.user == human.user
    await back.ok("resume", table=table, seq=seen)
    missed = [m["seq"] for m in back.messages if m["type"] == "event"]
    assert missed == list(range(seen + 1, seen + 1 + len(missed))) and missed
    back.messages[:0] = human.messages  # a real client keeps what it saw before
    await play({0: back}, table)


async def test_an_absent_seat_is_played_by_a_bot_and_taken_back_mid_hand(app: App) -> None:
    human = await Client.open(app.port)
    table = await open_table(app, human, series_length=1)
    await human.ok("join", table=table)
    await human.ok("add_bot", table=table, seat=1)
    await human.ok("add_bot", table=table, seat=2)
    watcher = await Client.open(app.port)
    await watcher.ok("watch", table=table)
    await human.close()
    await watcher.wait_for(
        lambda m: m.get("event") == {"kind": "taken_over", "seat": 0, "bot": True}
    )
    # The bot plays seat 0 for a while; then the owner comes back before the deal ends.
    await watcher.wait_for(
        lambda m: m.get("event", {}).get("kind") == "move" and m["event"]["seat"] == 0
    )
    back = await Client.open(app.port, token=human.token)
    await back.ok("resume", table=table, seq=0)
    await watcher.wait_for(
        lambda m: m.get("event") == {"kind": "taken_over", "seat": 0, "bot": False}
    )
    await play({0: back}, table)


async def test_http_health_readiness_metrics_and_static_index(app: App) -> None:
    assert (await asyncio.to_thread(http_get, app, "/healthz"))[0] == 200
    assert (await asyncio.to_thread(http_get, app, "/readyz"))[0] == 200
    status, metrics = await asyncio.to_thread(http_get, app, "/metrics")
    assert status == 200 and "tischrunde_connections" in metrics
    assert "tischrunde_event_loop_lag_seconds" in metrics
    status, page = await asyncio.to_thread(http_get, app, "/")
    assert status == 200 and "Tischrunde" in page
    assert (await asyncio.to_thread(http_get, app, "/../pyproject.toml"))[0] == 404
    assert (await asyncio.to_thread(http_get, app, "/api/records/nope/0"))[0] == 404


async def test_private_tables_are_not_listed_and_need_the_invite(app: App) -> None:
    host, guest = await Client.open(app.port), await Client.open(app.port)
    created = await host.ok("create_table", game="skat", private=True)
    table, invite = created["table"]["id"], created["invite"]
    listed = await guest.ok("list_tables")
    assert table not in [t["id"] for t in listed["tables"]]
    assert (await guest.request("join", table=table))["code"] == "bad_invite"
    assert (await guest.ok("join", table=table, invite=invite))["type"] == "joined"


async def test_accounts_register_log_in_and_resume(app: App) -> None:
    client = await Client.open(app.port)
    welcome = await client.ok("register", name="anna", password="correct horse")
    assert welcome["user"]["name"] == "anna" and not welcome["user"]["guest"]
    other = await Client.open(app.port)
    assert (await other.request("register", name="anna", password="something else"))[
        "code"
    ] == "name_taken"
    assert (await other.request("login", name="anna", password="wrong password"))[
        "code"
    ] == "bad_credentials"
    again = await other.ok("login", name="anna", password="correct horse")
    assert again["user"]["id"] == welcome["user"]["id"]
    resumed = await Client.open(app.port, token=welcome["token"])
    assert resumed.user["id"] == welcome["user"]["id"]
