"""Ratings (issue 7): Skat rated per list as a ranking of the table, Tichu per match as 2 vs 2.

The policy (`server.ratings`) is tested on its own; the store tests show it is what a
finished list writes."""

import asyncio
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from server.events import Append, ListOver, Player
from server.ratings import RankedList, SeatResult, initial, rank_list, rate_list, rate_teams
from server.standings import ListStanding
from server.store.db import Store
from server.store.migrate import upgrade
from server.store.users import StoredUser


async def rate(tmp_path: Path, game: str, standings: list[ListStanding]) -> dict[str, Any]:
    """Store a finished list of `standings` (four fresh accounts, seats 0..3); the leaderboard."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'ratings.db'}"
    await asyncio.to_thread(upgrade, url)
    store = Store.connect(url)
    store.start()
    try:
        users: list[StoredUser] = [await store.new_account(f"p{i}", "-") for i in range(4)]
        await store.create_table("t1", game, {})
        players = tuple(Player(u.id, u.name) for u in users)
        await store.append("t1", Append(1, (), list_over=ListOver(standings, players)))
        return {entry["name"]: entry for entry in await store.leaderboard(game)}
    finally:
        await store.close()


async def test_a_tichu_match_rates_the_partners_as_one_side_of_two(tmp_path: Path) -> None:
    standings = [ListStanding(seat=s, team=s % 2, points=1020 if s % 2 else 480) for s in range(4)]
    board = await rate(tmp_path, "tichu", standings)
    model = PlackettLuce()
    winners, losers = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1.0, 2.0]
    )
    for name in ("p1", "p3"):
        assert board[name]["mu"] == winners[0].mu and board[name]["sigma"] == winners[0].sigma
    for name in ("p0", "p2"):
        assert board[name]["mu"] == losers[0].mu


async def test_a_skat_list_ranks_every_player_of_the_table(tmp_path: Path) -> None:
    standings = [ListStanding(seat=s, points=p) for s, p in enumerate((900, 300, 600, 0))]
    board = await rate(tmp_path, "skat", standings)
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 3.0, 2.0, 4.0])
    assert [board[f"p{s}"]["mu"] for s in range(4)] == [team[0].mu for team in rated]


def test_a_skat_list_ranks_each_seat_by_points_and_ties_share_a_rank() -> None:
    standings = [ListStanding(seat=s, points=p) for s, p in enumerate((600, 900, 600))]
    ranked = rank_list(standings, {0: 10, 1: 11, 2: 12})
    assert [(r.seat, r.user, r.rank, r.points) for r in ranked.results] == [
        (0, 10, 2, 600),
        (1, 11, 1, 900),
        (2, 12, 2, 600),
    ]
    assert ranked.results[1].standing == ListStanding(seat=1, points=900)
    assert ranked.teams == [(2, (10,)), (1, (11,)), (2, (12,))]


def test_tichu_partners_are_one_team_ranked_by_its_points() -> None:
    standings = [ListStanding(seat=s, team=s % 2, points=1020 if s % 2 else 480) for s in range(4)]
    ranked = rank_list(standings, {0: 1, 1: 2, 2: 3, 3: 4})
    assert ranked.teams == [(3, (1, 3)), (1, (2, 4))]  # two seats ahead: rank 3


def test_every_seat_is_an_opponent_and_a_bot_level_on_two_sides_keeps_its_rating() -> None:
    standings = [ListStanding(seat=s, points=p) for s, p in enumerate((100, 900, 500))]
    ranked = rank_list(standings, {0: 7, 1: 7, 2: 8})  # seats 0 and 1: the same bot user
    assert [r.user for r in ranked.results] == [7, 7, 8]
    assert ranked.teams == [(3, (7,)), (1, (7,)), (2, (8,))]
    assert ranked.fixed == {7}
    bot = (28.0, 4.0)
    after = rate_list(ranked.teams, {7: bot}, ranked.fixed)
    assert [user for user, _ in after] == [8]  # the bot both won and lost: unchanged
    assert after[0][1] == rate_teams([[bot], [bot], [initial()]], [3, 1, 2])[2][0]


def test_second_between_two_bots_of_one_level_is_rated_on_both() -> None:
    """A player between the two seats of one bot level beat one of them: he is rated as such,
    not as having lost to the bot alone (which the rule of one seat per user made of it)."""
    bot = (28.0, 4.0)
    standings = [ListStanding(seat=s, points=p) for s, p in enumerate((900, 500, 100))]
    ranked = rank_list(standings, {0: 7, 1: 1, 2: 7})
    [(user, (mu, _))] = rate_list(ranked.teams, {7: bot}, ranked.fixed)
    lost_to_the_bot_alone = rate_teams([[bot], [initial()]], [1, 2])[1][0][0]
    assert user == 1 and mu > lost_to_the_bot_alone


def test_a_tichu_match_with_bots_of_one_level_on_both_sides_rates_the_human() -> None:
    """A player whose partner and both opponents are bots of one level: the bot is on both
    sides and keeps its rating; the player is rated by his side's result."""
    standings = [ListStanding(seat=s, team=s % 2, points=1020 if s % 2 else 480) for s in range(4)]
    ranked = rank_list(standings, {0: 7, 1: 1, 2: 7, 3: 7})  # seat 1 and its partner 3 win
    assert ranked.teams == [(3, (7, 7)), (1, (1, 7))] and ranked.fixed == {7}
    [(user, (mu, _))] = rate_list(ranked.teams, {}, ranked.fixed)
    assert user == 1 and mu > initial()[0]


def test_a_list_with_one_team_left_rates_nobody() -> None:
    standings = [ListStanding(seat=s, points=p) for s, p in enumerate((100, 900, 500))]
    assert rank_list(standings, {0: 7, 1: 7, 2: 7}).teams == []
    assert rate_list([], {7: (30.0, 5.0)}) == []
    empty_seat = rank_list([ListStanding(seat=0, points=5)], {0: 3})
    assert empty_seat == RankedList([SeatResult(0, 3, 1, 5, ListStanding(seat=0, points=5))], [])


def test_new_ratings_start_from_the_current_ones_or_the_initial_rating() -> None:
    strong = (30.0, 5.0)
    teams = [(2, (1, 3)), (1, (2, 4))]
    after = rate_list(teams, {3: strong})
    expected = rate_teams([[initial(), strong], [initial(), initial()]], [2, 1])
    assert after == [
        (1, expected[0][0]),
        (3, expected[0][1]),
        (2, expected[1][0]),
        (4, expected[1][1]),
    ]
    assert dict(after)[2][0] > initial()[0] > dict(after)[1][0]


async def test_a_list_of_bots_of_one_level_is_stored_without_ratings(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}"
    await asyncio.to_thread(upgrade, url)
    store = Store.connect(url)
    store.start()
    try:
        await store.create_table("t1", "skat", {})
        bots = tuple(Player(None, "bot:random", "random") for _ in range(3))
        standings = [ListStanding(seat=s, points=p) for s, p in enumerate((900, 300, 600))]
        await store.append("t1", Append(1, (), list_over=ListOver(standings, bots)))
        assert await store.leaderboard("skat") == []
    finally:
        await store.close()


async def test_the_board_of_people_leaves_out_bots_and_guests(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'people.db'}"
    await asyncio.to_thread(upgrade, url)
    store = Store.connect(url)
    store.start()
    try:
        account, guest = await store.new_account("anna", "-"), await store.new_guest()
        await store.create_table("t1", "skat", {})
        players = (
            Player(account.id, account.name),
            Player(guest.id, guest.name),
            Player(None, "bot:random", "random"),
        )
        standings = [ListStanding(seat=s, points=p) for s, p in enumerate((300, 900, 600))]
        await store.append("t1", Append(1, (), list_over=ListOver(standings, players)))
        everyone = await store.leaderboard("skat")
        assert [(e["name"], e["bot"], e["guest"]) for e in everyone] == [
            (guest.name, False, True),
            ("bot:random", True, False),
            ("anna", False, False),
        ]
        people = await store.leaderboard("skat", people=True)
        assert [e["name"] for e in people] == ["anna"] and people[0] == everyone[2]
    finally:
        await store.close()
