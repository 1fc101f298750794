"""Replays of finished deals over HTTP (`/api/records/{table}/{deal}/replay`): the engine
replays the stored moves, every step shows each hand, and the records' access rule holds."""

import asyncio
import json
from collections import Counter
from itertools import pairwise
from typing import Any

from server.app import App
from tests.server.client import Client, bot_table, play
from tests.server.test_privacy import http_get
from tests.server.test_tichu_table import app, play_tichu

# The Tichu tests' fast fixture (a human acts at machine speed); SQLite and PostgreSQL come
# from conftest's any_db_app.
__all__ = ["app"]


def get_json(app: App, path: str, token: str | None = None) -> tuple[int, object]:
    status, text = http_get(app, path, token)
    return status, json.loads(text) if status == 200 else text


def whole_views(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step's whole public view: the fields it changed over the view before it."""
    views, view = [], {}
    for step in steps:
        view = {**view, **step["view"]}
        views.append(view)
    return views


async def test_a_skat_replay_shows_every_hand_after_every_move_to_its_players_only(
    any_db_app: App,
) -> None:
    app = any_db_app
    player, stranger = await Client.open(app.port), await Client.open(app.port)
    table, invite = await bot_table(player, private=True)
    await play({0: player}, table)
    path = f"/api/records/{table}/0/replay"
    # The records' rule: nobody else learns even that the table exists.
    assert (await asyncio.to_thread(get_json, app, path))[0] == 404
    assert (await asyncio.to_thread(get_json, app, path, stranger.token))[0] == 404
    assert (await asyncio.to_thread(get_json, app, f"/api/records/{table}/1/replay"))[0] == 404
    status, replay = await asyncio.to_thread(get_json, app, path, player.token)
    assert status == 200 and isinstance(replay, dict)
    assert (await asyncio.to_thread(get_json, app, f"{path}?invite={invite}")) == (200, replay)
    assert replay["game"] == "skat" and [p["bot"] for p in replay["players"]] == [False, True, True]
    steps = replay["steps"]
    first, last = steps[0], whole_views(steps)[-1]
    assert first["seat"] is None and [len(h) for h in first["hands"]] == [10, 10, 10]
    assert "phase" in first["view"] and "hand_sizes" in first["view"]  # the first is whole
    assert last["phase"] == "over" and last["result"] is not None
    # Each card played leaves exactly its player's hand.
    for before, step in pairwise(steps):
        if step["action"]["type"] != "play":
            continue
        seat, card = step["seat"], step["action"]["card"]
        assert card in before["hands"][seat] and card not in step["hands"][seat]
        assert Counter(before["hands"][seat]) - Counter(step["hands"][seat]) == {card: 1}
    # The moves are the deal's: as many as the players saw.
    moves = [m for m in player.messages if m["type"] == "event" and m["event"]["kind"] == "move"]
    assert len(steps) == len(moves) + 1


async def test_a_tichu_replay_follows_the_record(app: App) -> None:
    human = await Client.open(app.port)
    reply = await human.ok("create_table", game="tichu", rules={"max_rounds": 1})
    table = reply["table"]["id"]
    await human.ok("join", table=table)
    for seat in (1, 2, 3):
        await human.ok("add_bot", table=table, seat=seat, level="random")
    await play_tichu(human, table, 0)
    status, text = await asyncio.to_thread(http_get, app, f"/api/records/{table}/0")
    record = json.loads(text)
    status, replay = await asyncio.to_thread(get_json, app, f"/api/records/{table}/0/replay")
    assert status == 200 and isinstance(replay, dict) and replay["game"] == "tichu"
    steps = replay["steps"]
    # Every move of the record, exchanges included (the match is over: nothing is hidden).
    assert [[s["seat"], s["action"]] for s in steps[1:]] == record["moves"]
    assert any(s["action"]["type"] == "exchange" for s in steps[1:])
    assert [len(h) for h in steps[0]["hands"]] == [8, 8, 8, 8]
    views = whole_views(steps)
    assert views[-1]["phase"] == "over"
    assert list(views[-1]["totals"]) == record["result"]["totals"]
    # The score of past rounds is sent when it changes, not with every step.
    assert sum("rounds" in step["view"] for step in steps) == len(record["result"]["rounds"]) + 1
