"""A table's stored event log as the store reads it back (shared by the store, the leases
and the replays, so none of them imports another's module)."""

from typing import Any

import msgspec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.events import TableEvent, decode_event
from server.store.models import game_events

__all__ = ["StoredTable", "read_events"]


class StoredTable(msgspec.Struct, frozen=True):
    """A table to resume: its creation options and its event log in order."""

    options: dict[str, Any]
    events: list[tuple[int, TableEvent]]


async def read_events(
    conn: AsyncConnection, table_id: str, after: int = 0, limit: int | None = None
) -> list[tuple[int, TableEvent]]:
    """The table's events after seq `after` in order (the first `limit` of them if given)."""
    rows = await conn.execute(
        select(game_events.c.seq, game_events.c.version, game_events.c.payload)
        .where(game_events.c.table_id == table_id, game_events.c.seq > after)
        .order_by(game_events.c.seq)
        .limit(limit)
    )
    return [(e.seq, decode_event(e.payload, e.version)) for e in rows]
