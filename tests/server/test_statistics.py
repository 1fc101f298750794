"""A Skat player's statistics on his profile (issue 28): lists, games declared and won per
type, defence wins, Ramsch, Seeger-Fabian points per list and per 36 deals; counted from known
deal results, and a private table's lists only for viewers who sat there."""

import asyncio
import json
from typing import Any

import msgspec

from engine.skat.scoring import seeger_fabian
from server.app import App
from server.store.statistics import DealResult, SkatList, tally
from tests.server.client import Client, bot_table, play
from tests.server.test_privacy import http_get


def game(players: int, declarer: int, kind: str, won: bool, value: int) -> DealResult:
    """A declared game's stored result (the fields the statistics read, as the engine gives
    them: Seeger-Fabian points per seat, docs/skat-rules.md)."""
    list_value = value if won else -2 * value
    return DealResult(seeger_fabian(players, declarer, won, list_value), declarer, kind, won)


def ramsch(shares: list[int]) -> DealResult:
    return DealResult(tuple(shares), ramsch=True)


PASSED_IN = DealResult((0, 0, 0))


def test_a_three_player_list_counts_own_games_by_type_and_defence() -> None:
    deals = [
        game(3, 0, "clubs", True, 24),  # ours: a suit game won
        game(3, 0, "hearts", False, 20),  # ours: a suit game lost
        game(3, 0, "grand", True, 48),  # ours: a grand won
        game(3, 1, "null", False, 23),  # defended, the declarer lost: a defence win
        game(3, 2, "spades", True, 22),  # defended, lost
        PASSED_IN,  # nobody played
    ]
    points = sum(d.seeger_fabian[0] for d in deals)
    stats = tally([SkatList("t1", False, 0, points, deals)])
    assert stats is not None
    assert stats["lists"] == 1 and stats["deals"] == 6 and stats["points"] == points
    assert stats["declared"] == {
        "suit": {"played": 2, "won": 1},
        "grand": {"played": 1, "won": 1},
        "null": {"played": 0, "won": 0},
    }
    assert stats["defence"] == {"played": 2, "won": 1}
    assert stats["ramsch"] == {"played": 0, "lost": 0}
    # 24+50, -40-50, 48+50, +40 as a defender of a lost null, 0, 0 (SkWO 6.3.1).
    assert points == 74 - 90 + 98 + 40
    assert stats["per_list"] == points and stats["per_36"] == round(points * 36 / 6, 1)


def test_the_dealer_of_a_four_player_table_neither_declares_nor_defends() -> None:
    # Deal 0 is dealt by seat 3, deal 1 by seat 0 (server/games/skat.py), deal 2 by seat 1.
    deals = [
        game(4, 1, "grand", False, 24),  # seat 0 defends and wins
        game(4, 2, "diamonds", False, 9),  # seat 0 deals: +30, but no defence
        game(4, 2, "diamonds", True, 18),  # seat 0 defends and loses
    ]
    stats = tally([SkatList("t4", False, 0, 60, deals)])
    assert stats is not None
    assert stats["defence"] == {"played": 2, "won": 1}
    assert stats["deals"] == 3 and stats["per_36"] == round(60 * 36 / 3, 1)


def test_ramsch_deals_count_as_played_and_lost_when_paid_for() -> None:
    deals = [ramsch([-61, 0, 0]), ramsch([0, -40, 0]), ramsch([0, 0, -90])]
    stats = tally([SkatList("r", False, 0, -61, deals)])
    assert stats is not None and stats["ramsch"] == {"played": 3, "lost": 1}
    assert stats["defence"] == {"played": 0, "won": 0}


def test_averages_run_over_lists_and_deals() -> None:
    one = SkatList("a", False, 0, 300, [game(3, 0, "grand", True, 72)] * 12)
    two = SkatList("b", False, 2, -100, [game(3, 1, "clubs", True, 24)] * 24)
    stats = tally([one, two])
    assert stats is not None
    assert stats["lists"] == 2 and stats["deals"] == 36
    assert stats["per_list"] == 100.0 and stats["per_36"] == 200.0
    assert stats["declared"]["grand"] == {"played": 12, "won": 12}
    assert stats["defence"] == {"played": 24, "won": 0}


def test_no_list_no_statistics() -> None:
    assert tally([]) is None


async def test_a_played_list_is_counted_on_the_profile_and_a_private_one_only_for_its_players(
    any_db_app: App,
) -> None:
    app = any_db_app
    player, stranger = await Client.open(app.port), await Client.open(app.port)
    public, _ = await bot_table(player)
    await play({0: player}, public)
    private, _ = await bot_table(player, private=True)
    await play({0: player}, private)
    name = player.user["name"]
    results = []
    for table in (public, private):
        status, text = await asyncio.to_thread(
            http_get, app, f"/api/records/{table}/0/replay", player.token
        )
        steps = json.loads(text)["steps"]
        view: dict[str, Any] = {}
        for step in steps:
            view |= step["view"]
        results.append(msgspec.convert(view["result"], DealResult))
    profile = await player.ok("profile", name=name)
    mine, recent = profile["skat"], {row["table"]: row for row in profile["recent"]}
    tables = (public, private)
    lists = [
        SkatList(t, False, 0, recent[t]["points"], [r])
        for t, r in zip(tables, results, strict=True)
    ]
    expected = tally(lists)
    assert mine == expected and mine["lists"] == 2 and mine["deals"] == 2
    # A stranger counts the public list only, over the WebSocket and HTTP alike.
    theirs = (await stranger.ok("profile", name=name))["skat"]
    assert theirs == tally([SkatList(public, False, 0, recent[public]["points"], [results[0]])])
    status, text = await asyncio.to_thread(http_get, app, f"/api/players/{name}")
    assert status == 200 and json.loads(text)["skat"] == theirs
    status, text = await asyncio.to_thread(http_get, app, f"/api/players/{name}", player.token)
    assert json.loads(text)["skat"] == mine
    # A player without a Skat list has no statistics.
    assert (await stranger.ok("profile", name=stranger.user["name"]))["skat"] is None
