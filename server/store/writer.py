"""What one commit writes, and the group commit: plain functions on a synchronous connection.

`write` stores the appends of several tables in the caller's transaction: first the fence (the
tables must still be this node's), then every event, when a user first sat down
(`users.played_at`), each finished deal's result and record, changed table statuses and a
finished list's results and ratings. `commit_group` runs it for a whole group in one
transaction and, if that fails, for each append alone, so one bad append cannot fail its
neighbours. The store runs them on its writer's connection (`server/store/group_commit.py`).
"""

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

import msgspec
from sqlalchemy import Connection, Select, bindparam, insert, select, update

from server.events import EVENT_VERSION, Append, Seated, encode_event
from server.store.models import game_events, games, tables, users
from server.store.results import record_list

__all__ = ["LeaseLost", "commit_group", "write"]

log = logging.getLogger(__name__)
# Built once: the writer runs it with every commit (rarer statements are built in place).
_INSERT_EVENTS = insert(game_events)


@lru_cache(maxsize=64)
def _owned(count: int) -> Select[tuple[str]]:
    """The fence's query for `count` tables, built once per count: with an expanding IN
    the statement would be rendered anew at every commit, the commit's costliest part."""
    ids = [bindparam(f"id{i}") for i in range(count)]
    return (
        select(tables.c.id)
        .where(tables.c.id.in_(ids), tables.c.owner == bindparam("node"))
        .with_for_update(read=True)
    )


class LeaseLost(Exception):
    """An append to tables this process no longer owns (another took them over): nothing of
    it was committed, and the table must stop here (`server/store/leases.py`)."""

    def __init__(self, table_ids: set[str]) -> None:
        super().__init__(f"tables owned by another process now: {sorted(table_ids)}")
        self.table_ids = table_ids


def commit_group(
    conn: Connection, node: str | None, items: Sequence[tuple[str, Append]]
) -> list[Exception | None]:
    """Commit `items` in one transaction, or each alone if that fails: each one's error, or
    None where it is committed."""
    try:
        with conn.begin():
            write(conn, node, items)
    except Exception:
        log.warning("group commit of %d appends failed; retrying alone", len(items))
    else:
        return [None] * len(items)
    outcomes: list[Exception | None] = []
    for item in items:
        try:
            with conn.begin():
                write(conn, node, [item])
        except Exception as error:
            outcomes.append(error)
        else:
            outcomes.append(None)
    return outcomes


def write(conn: Connection, node: str | None, items: Sequence[tuple[str, Append]]) -> None:
    """Store `items` (table id, append) in the transaction running on `conn`."""
    _fence(conn, node, {table_id for table_id, _ in items})
    now = datetime.now(UTC)
    rows = [
        {
            "table_id": table_id,
            "seq": batch.first_seq + offset,
            "kind": type(event).__struct_config__.tag,
            "version": EVENT_VERSION,
            "payload": encode_event(event).decode(),
            "at": now,
        }
        for table_id, batch in items
        for offset, event in enumerate(batch.events)
    ]
    if rows:
        conn.execute(_INSERT_EVENTS, rows)
    players = {
        event.player.user_id
        for _, batch in items
        for event in batch.events
        if isinstance(event, Seated) and event.player.user_id is not None
    }
    if players:  # they played: no longer idle guests to clean up
        conn.execute(
            update(users)
            .where(users.c.id.in_(players), users.c.played_at.is_(None))
            .values(played_at=now)
        )
    for table_id, batch in items:
        for game in batch.games:
            conn.execute(
                insert(games).values(
                    table_id=table_id,
                    number=game.number,
                    result=msgspec.json.encode(game.result).decode(),
                    record=game.record,
                    finished_at=now,
                )
            )
        if batch.status is not None:
            conn.execute(update(tables).where(tables.c.id == table_id).values(status=batch.status))
        if batch.list_over is not None:
            record_list(conn, table_id, batch.list_over)


def _fence(conn: Connection, node: str | None, table_ids: set[str]) -> None:
    """Raise LeaseLost unless `node` owns every table of `table_ids`. The rows stay
    share-locked until the commit, so a takeover (an UPDATE of them) waits for it and then
    reads these events: no commit can slip in after the new owner loaded a table."""
    if node is None or not table_ids:
        return
    ids = {f"id{i}": table_id for i, table_id in enumerate(table_ids)}
    owned = set(conn.scalars(_owned(len(ids)), {**ids, "node": node}))
    if lost := table_ids - owned:
        raise LeaseLost(lost)
