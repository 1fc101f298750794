"""Profiles (`profile` over the WebSocket, `GET /api/players/{name}`): a player's ratings, their
history and his latest lists, a private table's only to those who sat at it."""

import asyncio
import json
from datetime import datetime, timedelta

from server.app import App
from tests.server.client import Client, bot_table, play
from tests.server.test_privacy import http_get


async def test_a_profile_shows_the_list_played_and_the_rating_it_gave(any_db_app: App) -> None:
    app = any_db_app
    player, stranger = await Client.open(app.port), await Client.open(app.port)
    table, _ = await bot_table(player, private=True)
    await play({0: player}, table)
    name = player.user["name"]
    mine = await player.ok("profile", name=name)
    assert mine["name"] == name and mine["bot"] is False
    rating = mine["ratings"]["skat"]
    assert rating["lists"] == 1 and rating["ordinal"] == rating["mu"] - 3 * rating["sigma"]
    [point] = mine["history"]
    assert point["game"] == "skat" and point["mu"] == rating["mu"]
    [played] = mine["recent"]
    assert played["table"] == table and played["seat"] == 0 and played["deals"] == 1
    assert played["rank"] >= 1 and played["game"] == "skat"
    # Times in UTC with their zone, as on every database (SQLite keeps none of its own).
    for when in (point["at"], played["finished_at"]):
        assert datetime.fromisoformat(when).utcoffset() == timedelta(0)
    # A stranger sees the rating, not the private table: neither in `recent` nor as a point
    # of the rating history (its finish time and rating change).
    theirs = await stranger.ok("profile", name=name)
    assert theirs["ratings"] == mine["ratings"] and theirs["recent"] == []
    assert theirs["history"] == []
    # The same over HTTP: the table only with the player's token.
    status, text = await asyncio.to_thread(http_get, app, f"/api/players/{name}", player.token)
    assert status == 200 and json.loads(text)["recent"] == mine["recent"]
    status, text = await asyncio.to_thread(http_get, app, f"/api/players/{name}")
    assert status == 200 and json.loads(text)["recent"] == json.loads(text)["history"] == []
    # The bots of a level share a user, and it has a profile too; it sat on two sides of this
    # list (seats 1 and 2), which leaves its rating as it was (here: none yet).
    bots = await player.ok("profile", name="bot:random")
    assert bots["bot"] is True and "skat" not in bots["ratings"]


async def test_an_unknown_player_has_no_profile(app: App) -> None:
    client = await Client.open(app.port)
    reply = await client.request("profile", name="nobody")
    assert reply["type"] == "error" and reply["code"] == "no_such_player"
    assert (await asyncio.to_thread(http_get, app, "/api/players/nobody"))[0] == 404


async def test_the_leaderboard_of_people_over_the_wire(app: App) -> None:
    guest = await Client.open(app.port)
    created = await guest.ok("create_table", game="skat", series_length=1)
    table = created["table"]["id"]
    await guest.ok("join", table=table)
    await guest.ok("add_bot", table=table, seat=1, level="random")
    await guest.ok("add_bot", table=table, seat=2, level="greedy")  # two levels: two bot users
    await play({0: guest}, table)
    board = await guest.ok("leaderboard", game="skat")
    me = guest.user["name"]
    assert {(e["name"], e["guest"], e["bot"]) for e in board["entries"]} == {
        (me, True, False),
        ("bot:random", False, True),
        ("bot:greedy", False, True),
    }
    assert (await guest.ok("leaderboard", game="skat", people=True))["entries"] == []
    status, text = await asyncio.to_thread(http_get, app, "/api/leaderboard?game=skat&people=1")
    assert status == 200 and json.loads(text)["entries"] == []
    status, text = await asyncio.to_thread(http_get, app, "/api/leaderboard?game=skat")
    assert json.loads(text)["entries"] == board["entries"]
