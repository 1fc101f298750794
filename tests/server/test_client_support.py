"""Protocol support for clients (docs/protocol.md): the games a server hosts, a guest's name,
the list's results in a snapshot, and bots explaining their moves without leaking cards."""

import random
from typing import Any

import msgspec
import numpy as np

from bots.registry import player_levels, policy_names, skat_policy
from server.app import App
from server.core.commands import AddBot, BotMoved, Join, User, Watch
from server.core.effects import Send
from server.core.state import TableConfig
from server.core.table import TableCore
from server.events import Moved, decode_event, encode_event
from server.games import SkatGame
from server.protocol import Event
from tests.server.client import Client, play

HOST = User(1, "host")
WHY = {"game": "clubs", "strength": 4.5, "limit": 36}


async def test_list_games_names_each_game_with_its_bot_levels(app: App) -> None:
    client = await Client.open(app.port)
    reply = await client.ok("list_games")
    games = {g["name"]: g["bots"] for g in reply["games"]}
    assert games == {"skat": list(player_levels("skat")), "tichu": list(player_levels("tichu"))}
    assert {"random", "greedy", "strong"} <= set(games["skat"]) <= set(policy_names("skat"))


class TestRename:
    async def test_a_guest_takes_a_name_that_later_seats_and_sessions_show(self, app: App) -> None:
        guest = await Client.open(app.port)
        reply = await guest.ok("rename", name="bert")
        assert reply["type"] == "welcome" and reply["user"]["name"] == "bert"
        assert reply["token"] == guest.token
        table = (await guest.ok("create_table", game="skat"))["table"]["id"]
        await guest.ok("join", table=table)
        snapshot = await guest.wait_for(lambda m: m["type"] == "snapshot")
        assert snapshot["table"]["seats"][0]["name"] == "bert"
        again = await Client.open(app.port, token=guest.token)
        assert again.user["name"] == "bert"

    async def test_taken_and_reserved_names_are_refused(self, app: App) -> None:
        first, second = await Client.open(app.port), await Client.open(app.port)
        await first.ok("rename", name="carla")
        for name in ("carla", "guest-1234", "bot_x"):
            error = await second.request("rename", name=name)
            assert error["type"] == "error" and error["code"] == "name_taken", name

    async def test_an_account_keeps_its_name(self, app: App) -> None:
        client = await Client.open(app.port)
        await client.ok("register", name="dora", password="correct horse")
        error = await client.request("rename", name="dorothea")
        assert error["code"] == "not_a_guest"


async def test_a_snapshot_carries_the_results_of_the_finished_deals(app: App) -> None:
    human = await Client.open(app.port)
    table = (await human.ok("create_table", game="skat", series_length=2))["table"]["id"]
    await human.ok("join", table=table)
    await human.ok("add_bot", table=table, seat=1)
    await human.ok("add_bot", table=table, seat=2)
    await play({0: human}, table, deals=1)
    last = [m for m in human.messages if m.get("view") and m["view"]["phase"] == "over"][-1]
    watcher = await Client.open(app.port)
    await watcher.ok("watch", table=table)
    snapshot = await watcher.wait_for(lambda m: m["type"] == "snapshot")
    assert snapshot["results"] == [last["view"]["result"]]


# --- bot hints --------------------------------------------------------------------------


def core_with_bots() -> TableCore:
    config = TableConfig("t1", "skat", {}, False, None, 1, HOST.id)
    core = TableCore(config, SkatGame(), random.Random(5), ["random", "greedy"])
    core.handle(Join(0, HOST, None, 0, None))
    core.handle(Watch(9, User(9, "kibitz"), None, None))
    core.handle(AddBot(0, HOST, None, 1, "greedy"))
    core.handle(AddBot(0, HOST, None, 2, "greedy"))
    return core


def events_to(effects: list[Any], client: int) -> list[Event]:
    return [
        e.message
        for e in effects
        if isinstance(e, Send) and client in e.clients and isinstance(e.message, Event)
    ]


def moves_of(events: list[Event]) -> list[dict[str, Any]]:
    decoded = [msgspec.to_builtins(e.event) for e in events]
    return [event for event in decoded if event["kind"] == "move"]


def play_out(core: TableCore) -> list[Any]:
    """Play the deal to its end: bots through BotMoved with diagnostics, the host at random."""
    rng = np.random.default_rng(2)
    effects: list[Any] = []
    while core.state is not None and not core.state.is_over:
        seat = core.state.to_move
        assert seat is not None
        observation = core.state.observation(seat)
        action = skat_policy("random")(observation, rng).action
        why = {**WHY, "seat": seat}
        effects += core.handle(BotMoved(seat, core.game_seq, action, why))
    return effects


class TestBotHints:
    def test_diagnostics_reach_nobody_else_before_the_deal_ends(self) -> None:
        core = core_with_bots()
        effects = play_out(core)
        for client, own_seat in ((0, 0), (9, None)):
            *during, _ = moves_of(events_to(effects, client))
            assert all("hints" not in m for m in during)
            assert all("why" not in m for m in during if m["seat"] != own_seat)

    def test_the_seat_played_for_sees_why_at_once(self) -> None:
        core = core_with_bots()
        moves = moves_of(events_to(play_out(core), 0))
        own = [m for m in moves if m["seat"] == 0]
        assert own and all(m["why"] == {**WHY, "seat": 0} for m in own)

    def test_the_last_move_of_a_deal_explains_every_bot_move_to_everyone(self) -> None:
        core = core_with_bots()
        effects = play_out(core)
        for client in (0, 9):
            final = moves_of(events_to(effects, client))[-1]
            seats = {hint["seat"] for hint in final["hints"]}
            assert seats == {0, 1, 2}
            assert all(hint["why"]["seat"] == hint["seat"] for hint in final["hints"])

    def test_diagnostics_are_stored_with_the_move_and_survive_a_restart(self) -> None:
        moved = Moved(1, msgspec.Raw(b'{"type":"pass"}'), WHY)
        assert decode_event(encode_event(moved)) == moved
        plain = Moved(1, msgspec.Raw(b'{"type":"pass"}'))
        assert b"why" not in encode_event(plain)
