"""An external bot (examples/random_skat_bot.py) plays a whole list against a real server as a
normal client with the bot flag; its seat shows as a bot and its rating counts as a bot's."""

import asyncio
import json
import sys
from pathlib import Path

from sqlalchemy import select

from server.app import App
from server.store.models import ratings, results, users
from tests.server.client import PATIENCE, Client

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "random_skat_bot.py"
DEALS = 2


async def test_the_example_bot_plays_a_full_list_as_a_bot_client(app: App) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(EXAMPLE),
        *("--url", f"ws://127.0.0.1:{app.port}/ws", "--create", "--deals", str(DEALS)),
        *("--name", "randombot", "--opponents", "greedy"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    # A process start and a whole list: more than one wait's worth on a loaded machine.
    out, err = await asyncio.wait_for(process.communicate(), 3 * PATIENCE)
    assert process.returncode == 0, err.decode()
    summary = json.loads(out)
    assert summary["seat"] == 0
    assert sorted(s["seat"] for s in summary["standings"]) == [0, 1, 2]

    spectator = await Client.open(app.port)
    try:
        await spectator.ok("watch", table=summary["table"])
        snapshot = await spectator.wait_for(lambda m: m["type"] == "snapshot")
    finally:
        await spectator.close()
    seats = snapshot["table"]["seats"]
    assert seats[0]["name"] == "randombot" and seats[0]["client_bot"] is True
    assert seats[0]["bot"] is None, "the server does not play for it"
    assert [s["bot"] for s in seats[1:]] == ["greedy", "greedy"]
    assert snapshot["table"]["status"] == "finished"
    assert len(snapshot["results"]) == DEALS

    async with app.store.engine.connect() as conn:
        user = await conn.scalar(select(users.c.id).where(users.c.name == "randombot"))
        seat = await conn.scalar(
            select(results.c.seat).where(
                results.c.table_id == summary["table"], results.c.user_id == user
            )
        )
        is_bot = await conn.scalar(select(ratings.c.bot).where(ratings.c.user_id == user))
    assert seat == 0
    assert is_bot is True
