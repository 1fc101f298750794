"""A Skat player's statistics as a Skat player reads them, counted from the stored deal results
of his finished lists: lists played, games declared and won per game type, Ramsch, defence,
and his Seeger-Fabian points per list and per 36 deals.

The counting (`tally`) is a pure function of the lists; `skat_lists` reads them. Which lists
count is the caller's: the profile counts only lists at tables the viewer may see
(`server/edge/access.py`), so a private table's deals never reach a stranger, not even as
a number in a sum.
"""

from collections.abc import Iterable
from dataclasses import dataclass

import msgspec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.plain import Plain
from server.store.models import games, results, tables

__all__ = [
    "DEALS_PER_STANDARD_LIST",
    "GAME_TYPES",
    "STATISTICS_LISTS",
    "DealResult",
    "SkatList",
    "skat_lists",
    "tally",
]

# The Seeger-Fabian list of a tournament series: 36 deals at a table of three (SkWO 6.3).
DEALS_PER_STANDARD_LIST = 36
# The lists counted, the latest first: a bot level's user plays thousands (a profile is read
# while people wait).
STATISTICS_LISTS = 1000
# How the statistics group the declared games: the four suit games are one type.
GAME_TYPES = {"clubs": "suit", "spades": "suit", "hearts": "suit", "diamonds": "suit"}


class DealResult(msgspec.Struct, frozen=True):
    """What the statistics read of a deal's stored result (engine/skat/scoring.py `Result`;
    the other fields are skipped when decoding, which keeps a long history quick to read)."""

    seeger_fabian: tuple[int, ...]
    declarer: int | None = None
    game: str | None = None
    won: bool | None = None
    ramsch: bool = False


_decode_result = msgspec.json.Decoder(DealResult).decode


@dataclass(frozen=True)
class SkatList:
    """One finished Skat list of the player: the table, his seat, his list points (the
    Seeger-Fabian performance) and each deal's stored result in order."""

    table: str
    private: bool
    seat: int
    points: int
    deals: list[DealResult]


def _sits_out(players: int, number: int, seat: int) -> bool:
    """Whether `seat` deals and sits out deal `number` (a table of four; the dealer of deal
    0 is the last seat, `server/games/skat.py`)."""
    return players == 4 and seat == (players - 1 + number) % players


def tally(lists: Iterable[SkatList]) -> Plain | None:
    """The statistics over `lists` (None: no list). `declared` counts the player's own games
    by type (suit, grand, null) with those won; `defence` the games another declared while he
    played (not sitting out), won when the declarer lost; `ramsch` the Ramsch deals he played,
    lost when he paid for it; `per_list` and `per_36` his list points on average per list and
    per 36 deals."""
    count = deals = points = 0
    declared = {kind: {"played": 0, "won": 0} for kind in ("suit", "grand", "null")}
    defence = {"played": 0, "won": 0}
    ramsch = {"played": 0, "lost": 0}
    for played in lists:
        count += 1
        points += played.points
        deals += len(played.deals)
        for number, result in enumerate(played.deals):
            share = result.seeger_fabian
            if _sits_out(len(share), number, played.seat):
                continue
            if result.ramsch:
                ramsch["played"] += 1
                ramsch["lost"] += share[played.seat] < 0
                continue
            declarer, won, game = result.declarer, result.won, result.game
            if declarer is None or won is None or game is None:
                continue  # passed in or aborted: nobody played a game
            if declarer == played.seat:
                kind = declared[GAME_TYPES.get(game, game)]
                kind["played"] += 1
                kind["won"] += bool(won)
            else:
                defence["played"] += 1
                defence["won"] += not won
    if count == 0:
        return None
    return {
        "lists": count,
        "deals": deals,
        "points": points,
        "per_list": round(points / count, 1),
        "per_36": round(points * DEALS_PER_STANDARD_LIST / deals, 1) if deals else 0.0,
        "declared": declared,
        "defence": defence,
        "ramsch": ramsch,
    }


async def skat_lists(conn: AsyncConnection, user_id: int) -> list[SkatList]:
    """The latest `STATISTICS_LISTS` finished Skat lists of user `user_id` (by when their
    tables were created) with their deals' results, in one query."""
    latest = (
        select(results.c.table_id, results.c.seat, results.c.points, tables.c.config)
        .join(tables, tables.c.id == results.c.table_id)
        .where(results.c.user_id == user_id, tables.c.game == "skat")
        .order_by(tables.c.created_at.desc())
        .limit(STATISTICS_LISTS)
        .subquery()
    )
    rows = await conn.execute(
        select(latest, games.c.number, games.c.result)
        .join(games, games.c.table_id == latest.c.table_id)
        .order_by(latest.c.table_id, latest.c.seat, games.c.number)
    )
    found: dict[tuple[str, int], SkatList] = {}
    for row in rows:
        played = found.get((row.table_id, row.seat))
        if played is None:
            private = bool(msgspec.json.decode(row.config).get("private"))
            played = SkatList(row.table_id, private, row.seat, row.points, [])
            found[row.table_id, row.seat] = played
        played.deals.append(_decode_result(row.result))
    return list(found.values())
