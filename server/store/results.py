"""A finished list's results and ratings, written in the transaction of its last event.

The rating policy is `server.ratings` (pure); here the rows are read and written: each seat's
result, the rated users' ratings before (locked: a tournament runner rates the same bot users
from another process) and after, and their rating history.
"""

from datetime import UTC, datetime

import msgspec
from sqlalchemy import Connection, insert, select, update

from server.events import ListOver
from server.ratings import Rating, rank_list, rate_list
from server.store.models import rating_history, ratings, results, tables, users

__all__ = ["BOT_PREFIX", "record_list"]

BOT_PREFIX = "bot:"


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _now() -> datetime:
    return datetime.now(UTC)


def record_list(conn: Connection, table_id: str, over: ListOver) -> None:
    """Write the results and ratings of the list `over` of `table_id`."""
    game = conn.scalar(select(tables.c.game).where(tables.c.id == table_id))
    user_of: dict[int, int] = {}
    is_bot: dict[int, bool] = {}
    for seat, player in enumerate(over.players):
        if player is not None:
            user_of[seat] = _user_id(conn, player.user_id, player.bot)
            is_bot[user_of[seat]] = player.bot is not None or player.client_bot
    ranked = rank_list(over.standings, user_of)
    for result in ranked.results:
        conn.execute(
            insert(results).values(
                table_id=table_id,
                seat=result.seat,
                user_id=result.user,
                rank=result.rank,
                points=result.points,
                standing=_json(result.standing or {}),
            )
        )
    if not ranked.teams:
        return
    lists: dict[int, int] = {}
    current: dict[int, Rating] = {}
    for user in sorted({u for _, team in ranked.teams for u in team}):  # one lock order for all
        row = conn.execute(
            select(ratings.c.mu, ratings.c.sigma, ratings.c.lists)
            .where(ratings.c.user_id == user, ratings.c.game == game)
            .with_for_update()
        ).first()
        if row is not None:
            current[user] = (row.mu, row.sigma)
            lists[user] = row.lists
    now = _now()
    for user, (mu, sigma) in rate_list(ranked.teams, current, ranked.fixed):
        values = {"mu": mu, "sigma": sigma, "lists": lists.get(user, 0) + 1}
        if user not in lists:
            values |= {"user_id": user, "game": game, "bot": is_bot[user]}
            conn.execute(insert(ratings).values(**values))
        else:
            conn.execute(
                update(ratings)
                .where(ratings.c.user_id == user, ratings.c.game == game)
                .values(**values)
            )
        conn.execute(
            insert(rating_history).values(
                user_id=user, game=game, table_id=table_id, mu=mu, sigma=sigma, at=now
            )
        )


def _user_id(conn: Connection, user_id: int | None, bot: str | None) -> int:
    """The user row of a seat: bots of one level share a `bot:<level>` user."""
    if user_id is not None:
        return user_id
    name = f"{BOT_PREFIX}{bot}"
    found = conn.scalar(select(users.c.id).where(users.c.name == name))
    if found is not None:
        return int(found)
    result = conn.execute(insert(users).values(name=name, kind="bot", created_at=_now()))
    return int(result.inserted_primary_key[0])
