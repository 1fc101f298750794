"""The move clock (issue 18): while the game waits for humans on the move timer, the server
pushes `clock` (the seats, the seconds left, the bot that plays at the timeout) with the
events that made it wait, and again after a snapshot or a resume; the actor says the time
its timer has left."""

import asyncio
from pathlib import Path
from typing import Any

import numpy as np

from server.app import running
from server.core.commands import Join, Watch
from server.core.effects import Send, StartTimer
from server.core.timers import MOVE
from server.protocol import Clock
from tests.server.client import UNIT, Client, bot_table, until
from tests.server.conftest import server_settings
from tests.server.test_table_core import USERS, act, make_core, random_move, seat_everyone


def clocks(client: Client, table: str) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["type"] == "clock" and m["table"] == table]


def test_the_clock_follows_the_move_timer_and_goes_to_everyone_at_the_table() -> None:
    core = make_core(move_seconds=30.0, timeout_bot="greedy")
    core.handle(Watch(9, USERS[3], None, None))
    seat_everyone(core)  # the deal begins: the game waits for the first bid
    seat, action = random_move(core, np.random.default_rng(2))
    effects = act(core, seat, action)
    timer = [i for i, e in enumerate(effects) if isinstance(e, StartTimer) and e.key[0] == MOVE]
    sent = [
        i for i, e in enumerate(effects) if isinstance(e, Send) and isinstance(e.message, Clock)
    ]
    assert len(timer) == 1 and len(sent) == 1 and timer[0] < sent[0]  # the timer runs first
    send = effects[sent[0]]
    assert isinstance(send, Send) and isinstance(send.message, Clock)
    assert set(send.clients) == {0, 1, 2, 9}
    assert core.state is not None and send.message.seats == [core.state.to_move]
    assert (send.message.seq, send.message.seconds, send.message.bot) == (core.seq, 30.0, "greedy")
    # A spectator who comes now gets the snapshot and the running clock.
    late = core.handle(Watch(10, USERS[3], None, None))
    assert [type(e.message).__name__ for e in late if isinstance(e, Send)][-2:] == [
        "Snapshot",
        "Clock",
    ]


def test_without_a_move_timer_there_is_no_clock() -> None:
    core = make_core()
    effects = [
        e
        for client, user in enumerate(USERS[:3])
        for e in core.handle(Join(client, user, None, None, None))
    ]
    assert not [e for e in effects if isinstance(e, Send) and isinstance(e.message, Clock)]


async def test_the_clock_counts_down_and_a_bot_plays_at_the_timeout(tmp_path: Path) -> None:
    seconds = 20 * UNIT
    settings = server_settings(tmp_path, move_seconds=seconds, timeout_bot="greedy")
    async with running(settings) as app:
        human = await Client.open(app.port)
        table, _ = await bot_table(human)
        await until(lambda: any(0 in c["seats"] for c in clocks(human, table)))
        first = next(c for c in clocks(human, table) if 0 in c["seats"])
        assert 0 < first["seconds"] <= seconds and first["bot"] == "greedy"
        await asyncio.sleep(seconds / 4)
        again = await Client.open(app.port, token=human.token)
        await again.ok("resume", table=table, seq=first["seq"] - 1)
        await until(lambda: bool(clocks(again, table)))
        left = clocks(again, table)[-1]
        assert left["seq"] == first["seq"] and left["seconds"] < first["seconds"]
        # Nobody moves: the timeout bot plays seat 0, and the game goes on.
        await until(
            lambda: any(
                m["type"] == "event" and m["event"].get("seat") == 0 and m["seq"] > first["seq"]
                for m in again.messages
            )
        )
