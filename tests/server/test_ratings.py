"""Ratings (issue 7): Skat rated per list as a ranking of the table, Tichu per match as 2 vs 2."""

import asyncio
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from server.events import Append, ListOver, Player
from server.store.db import Store, StoredUser
from server.store.migrate import upgrade


async def rate(tmp_path: Path, game: str, standings: list[dict[str, Any]]) -> dict[str, Any]:
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
    standings = [{"seat": s, "team": s % 2, "points": 1020 if s % 2 else 480} for s in range(4)]
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
    standings = [{"seat": s, "points": p} for s, p in enumerate((900, 300, 600, 0))]
    board = await rate(tmp_path, "skat", standings)
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 3.0, 2.0, 4.0])
    assert [board[f"p{s}"]["mu"] for s in range(4)] == [team[0].mu for team in rated]
