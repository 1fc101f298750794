"""A player's profile as stored: his rating per game, its history after each rated list, his
latest finished lists with their deals (for the profile page and its replays) and his Skat
statistics (`server/store/statistics.py`)."""

from collections.abc import Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.plain import Plain
from server.ratings import ordinal
from server.store.models import games, rating_history, ratings, results, tables, users
from server.store.statistics import skat_lists, tally

__all__ = ["RECENT_LISTS", "load_profile"]

RECENT_LISTS = 20
HISTORY_POINTS = 500  # the latest rated lists per player, a chart's worth
SCANNED = 5  # lists read per list shown: room for private tables the viewer may not see


async def load_profile(
    engine: AsyncEngine, name: str, may_see: Callable[[str], Awaitable[bool]]
) -> Plain | None:
    """The profile of the user called `name` (None: no such user): `ratings` by game,
    `history` oldest first, `recent` lists newest first and the `skat` statistics, all only
    of lists at tables `may_see` allows (a private table only for its players: also its finish
    time and rating change in `history` are its players' business)."""
    async with engine.connect() as conn:
        user = (
            await conn.execute(select(users.c.id, users.c.kind).where(users.c.name == name))
        ).first()
        if user is None:
            return None
        rated = (
            await conn.execute(
                select(ratings.c.game, ratings.c.mu, ratings.c.sigma, ratings.c.lists).where(
                    ratings.c.user_id == user.id
                )
            )
        ).all()
        points = (
            await conn.execute(
                select(
                    rating_history.c.table_id,
                    rating_history.c.game,
                    rating_history.c.mu,
                    rating_history.c.sigma,
                    rating_history.c.at,
                )
                .where(rating_history.c.user_id == user.id)
                .order_by(rating_history.c.at.desc(), rating_history.c.id.desc())
                .limit(HISTORY_POINTS)
            )
        ).all()
        finished = func.max(games.c.finished_at).label("finished_at")
        played = (
            await conn.execute(
                select(
                    results.c.table_id,
                    tables.c.game,
                    results.c.seat,
                    results.c.rank,
                    results.c.points,
                    finished,
                    func.count(games.c.id).label("deals"),
                )
                .join(tables, tables.c.id == results.c.table_id)
                .join(games, games.c.table_id == results.c.table_id)
                .where(results.c.user_id == user.id)
                .group_by(
                    results.c.table_id,
                    tables.c.game,
                    results.c.seat,
                    results.c.rank,
                    results.c.points,
                )
                .order_by(finished.desc())
                .limit(RECENT_LISTS * SCANNED)
            )
        ).all()
        lists = await skat_lists(conn, user.id)

    seen: dict[str, bool] = {}

    async def visible(table_id: str) -> bool:
        if table_id not in seen:
            seen[table_id] = await may_see(table_id)
        return seen[table_id]

    recent = []
    for row in played:
        if len(recent) == RECENT_LISTS:
            break
        if await visible(row.table_id):
            recent.append(
                {
                    "table": row.table_id,
                    "game": row.game,
                    "finished_at": row.finished_at.isoformat(),
                    "seat": row.seat,
                    "rank": row.rank,
                    "points": row.points,
                    "deals": row.deals,
                }
            )
    # A public table is everybody's: only a private one needs asking (`may_see_table`).
    counted = [played for played in lists if not played.private or await may_see(played.table)]
    return {
        "name": name,
        "bot": user.kind == "bot",
        "ratings": {
            r.game: {
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": ordinal((r.mu, r.sigma)),
                "lists": r.lists,
            }
            for r in rated
        },
        "history": [
            {
                "game": p.game,
                "at": p.at.isoformat(),
                "mu": p.mu,
                "sigma": p.sigma,
                "ordinal": ordinal((p.mu, p.sigma)),
            }
            for p in reversed(points)
            if await visible(p.table_id)
        ],
        "recent": recent,
        "skat": tally(counted),
    }
