"""A finished deal's log as stored: its first event, its moves and who sat where, read from the
table's events for a replay (`server/games/replay.py`)."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from server.events import DealStarted, Moved, Player, Seated, Vacated
from server.store.log import read_events
from server.store.models import games, tables

__all__ = ["DealLog", "deal_log"]


@dataclass(frozen=True)
class DealLog:
    """Deal `number` of a table of `game`: the encoded first event, the moves (seat and encoded
    action) in order, and the player of each seat when the deal began (None: empty)."""

    game: str
    number: int
    start: bytes
    moves: tuple[tuple[int, bytes], ...]
    players: tuple[Player | None, ...]


async def deal_log(engine: AsyncEngine, table_id: str, number: int) -> DealLog | None:
    """The log of deal `number` of `table_id` if that deal finished (it has a stored result),
    else None."""
    async with engine.connect() as conn:
        game = await conn.scalar(select(tables.c.game).where(tables.c.id == table_id))
        finished = await conn.scalar(
            select(games.c.number).where(games.c.table_id == table_id, games.c.number == number)
        )
        if game is None or finished is None:
            return None
        events = await read_events(conn, table_id)
    seats: dict[int, Player | None] = {}
    start: bytes | None = None
    moves: list[tuple[int, bytes]] = []
    for _, event in events:
        if start is None:
            if isinstance(event, Seated):
                seats[event.seat] = event.player
            elif isinstance(event, Vacated):
                seats[event.seat] = None
            elif isinstance(event, DealStarted) and event.number == number:
                start = bytes(event.start)
        elif isinstance(event, DealStarted):
            break
        elif isinstance(event, Moved):
            moves.append((event.seat, bytes(event.action)))
    if start is None:
        return None
    players = tuple(seats.get(seat) for seat in range(max(seats, default=-1) + 1))
    return DealLog(str(game), number, start, tuple(moves), players)
