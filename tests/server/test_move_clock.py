"""The move clock (issue 18): while the game waits for humans on the move timer, the server
pushes `clock` (the seats, the seconds left, the bot that plays at the timeout) with the
events that made it wait, and again after a snapshot or a resume; the actor says the time
its timer has left. Issue 28: the creator chooses the clock per table, the bot that plays
at the timeout is of the table's level (never `random`) and keeps the seat until its owner
takes it back."""

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from server.app import running
from server.core.commands import Join, TimerFired, Watch
from server.core.effects import AskBot, Send, StartTimer
from server.core.timers import MOVE, READING_SECONDS
from server.events import Append, TakenOver
from server.lobby import timeout_level
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


def test_the_first_move_after_a_deal_has_time_to_read_its_result() -> None:
    """The result of a deal is shown while the next deal's first move waits: that move's timer
    runs `READING_SECONDS` longer than the others."""
    core = make_core(series_length=2, move_seconds=20.0, timeout_bot="greedy")
    seat_everyone(core)
    rng = np.random.default_rng(5)
    timed: list[tuple[bool, float]] = []  # (a deal ended in this move, the move timer's seconds)
    while core.deal_number < 1:
        effects = act(core, *random_move(core, rng))
        ended = any(isinstance(e, Append) and e.games for e in effects)
        timers = [e.seconds for e in effects if isinstance(e, StartTimer) and e.key[0] == MOVE]
        timed += [(ended, seconds) for seconds in timers]
    assert timed[-1] == (True, 20.0 + READING_SECONDS)
    assert {seconds for ended, seconds in timed[:-1]} == {20.0}


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


def test_at_the_timeout_the_bot_takes_the_seat_until_its_owner_joins_again() -> None:
    core = make_core(move_seconds=30.0, timeout_bot="strong")
    seat_everyone(core)
    effects = act(core, *random_move(core, np.random.default_rng(2)))
    [timer] = [e for e in effects if isinstance(e, StartTimer)]
    assert core.state is not None and core.state.to_move is not None
    late = core.state.to_move
    effects = core.handle(TimerFired(timer.key))
    assert isinstance(effects[0], Append) and effects[0].events == (TakenOver(late, True),)
    [ask] = [e for e in effects if isinstance(e, AskBot)]
    assert (ask.seat, ask.level) == (late, "strong")
    assert core.handle(TimerFired(timer.key)) == []  # a timer of a game moved on is void
    # One click: the owner joins his table again and has his seat back, no bot is asked.
    back = core.handle(Join(late, USERS[late], 7, None, None))
    assert isinstance(back[0], Append) and back[0].events == (TakenOver(late, False),)
    assert not any(isinstance(e, AskBot) for e in back)


@pytest.mark.parametrize(
    ("table_level", "server_level", "plays"),
    [
        ("strong", "greedy", "strong"),
        ("random", "classic", "classic"),
        ("random", "random", "greedy"),
        ("beginner", "random", "beginner"),
    ],
)
def test_the_timeout_bot_is_the_tables_level_and_never_random(
    table_level: str, server_level: str, plays: str
) -> None:
    assert timeout_level(table_level, server_level) == plays


async def test_the_creator_chooses_the_clock_and_its_bot_is_the_tables(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, move_seconds=0.0, timeout_bot="random")
    async with running(settings) as app:
        host = await Client.open(app.port)
        tables_before = len(app.lobby.tables)
        for bad in (7, -20, 3600):
            reply = await host.request("create_table", game="skat", move_seconds=bad)
            assert reply["code"] == "bad_move_clock", bad
            assert "20, 40, 120" in reply["message"]
        assert len(app.lobby.tables) == tables_before  # nothing was created
        for level, seconds, bot in (("greedy", 20, "greedy"), ("random", 40, "greedy")):
            created = await host.ok(
                "create_table", game="skat", series_length=1, bot_level=level, move_seconds=seconds
            )
            table = created["table"]["id"]
            await host.ok("join", table=table)
            await host.ok("add_bot", table=table, seat=1, level="random")
            await host.ok("add_bot", table=table, seat=2, level="random")
            await until(lambda t=table: any(0 in c["seats"] for c in clocks(host, t)))
            clock = next(c for c in clocks(host, table) if 0 in c["seats"])
            assert 0 < clock["seconds"] <= seconds and clock["bot"] == bot
        # Without a clock of its own a table has the server's: none here.
        created = await host.ok("create_table", game="skat", series_length=1, move_seconds=0)
        assert app.lobby.tables[created["table"]["id"]].config.move_seconds == 0
