"""Tichu tables over real WebSockets: a human and three bots play a match; the phases where
every seat acts at once (Grand Tichu, exchange) wait for all seats, bots included."""

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import App
from tests.server.client import PATIENCE, UNIT, Client
from tests.server.conftest import running, server_settings
from tests.server.test_play import http_get


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    """A server whose rate limit lets a test client act at machine speed (a Tichu round
    asks the human for dozens of passes in a few seconds)."""
    settings = server_settings(tmp_path, rate_per_second=1000.0, rate_burst=1000.0)
    async with running(settings) as started:
        yield started


def my_turn(view: dict[str, Any], seat: int) -> bool:
    """Whether the human should act now: on turn, or deciding in a simultaneous phase."""
    if view["phase"] == "grand_tichu":
        return not view["grand_tichu_decided"][seat]
    if view["phase"] == "exchange":
        return bool(view["must_exchange"])
    return view["to_move"] == seat and bool(view["legal"])


async def play_tichu(human: Client, table: str, seat: int) -> None:
    rng = random.Random(5)
    acted_at = -1

    async def run() -> None:
        nonlocal acted_at
        while not any(
            m["type"] == "event" and m["event"]["kind"] == "series_end" for m in human.messages
        ):
            view = human.latest_view(table)
            seq = human.last_seq(table)
            if (
                view is None
                or view["phase"] == "over"
                or seq == acted_at
                or not my_turn(view, seat)
            ):
                await asyncio.sleep(UNIT / 10)
                continue
            if view["phase"] == "exchange":
                left, partner, right = rng.sample(view["hand"], 3)
                action = {"type": "exchange", "left": left, "partner": partner, "right": right}
            else:
                action = rng.choice(view["legal"])
            reply = await human.request("act", table=table, seq=seq, action=action)
            if reply["type"] == "error":
                assert reply["code"] in ("stale_seq", "not_your_turn"), reply
            acted_at = seq

    await asyncio.wait_for(run(), PATIENCE)


async def test_a_human_and_three_bots_play_a_tichu_match(app: App) -> None:
    human = await Client.open(app.port)
    reply = await human.ok("create_table", game="tichu", rules={"max_rounds": 2})
    info = reply["table"]
    assert info["series_length"] == 1 and len(info["seats"]) == 4
    table = info["id"]
    await human.ok("join", table=table)
    for seat in (1, 2, 3):
        await human.ok("add_bot", table=table, seat=seat, level="random")
    await play_tichu(human, table, 0)
    end = next(
        m for m in human.messages if m["type"] == "event" and m["event"]["kind"] == "series_end"
    )
    standings = end["event"]["standings"]
    assert sorted(s["seat"] for s in standings) == [0, 1, 2, 3]
    status, text = await asyncio.to_thread(http_get, app, f"/api/records/{table}/0")
    assert status == 200
    record = json.loads(text)
    assert record["game"] == "tichu" and len(record["deals"]) == len(record["result"]["rounds"])
    teams = {s["team"]: s["points"] for s in standings}
    assert [teams[0], teams[1]] == record["result"]["totals"]


async def test_a_spectator_never_sees_an_exchanged_card(app: App) -> None:
    human = await Client.open(app.port)
    table = (await human.ok("create_table", game="tichu", rules={"max_rounds": 1}))["table"]["id"]
    await human.ok("join", table=table)
    watcher = await Client.open(app.port)
    await watcher.ok("watch", table=table)
    for seat in (1, 2, 3):
        await human.ok("add_bot", table=table, seat=seat, level="random")
    await play_tichu(human, table, 0)
    moves = [m for m in watcher.messages if m["type"] == "event" and m["event"]["kind"] == "move"]
    exchanges = [
        m
        for m in human.messages
        if m["type"] == "event"
        and m["event"]["kind"] == "move"
        and m["event"]["action"] is not None
        and m["event"]["action"]["type"] == "exchange"
    ]
    assert len(exchanges) == 1  # the human sees only its own exchange
    assert all(
        m["event"]["action"] is None or m["event"]["action"]["type"] != "exchange" for m in moves
    )
    assert all(m["view"]["hand"] == [] for m in moves if m.get("view"))
