"""What one commit writes, and the group commit: plain functions on a synchronous connection.

`write` stores the appends of several tables in the caller's transaction: first the fence (the
tables must still be this node's), then every event, when a user first sat down
(`users.played_at`), each finished deal's result and record, changed table statuses and a
finished list's results and ratings. `commit_group` runs it for a whole group in one
transaction and, if that fails, for each append alone, so one bad append cannot fail its
neighbours. The store runs them on its writer's connection (`server/store/group_commit.py`).

The two statements of every commit, the fence and the events' INSERT, and the INSERT of
finished deals run on the DB-API cursor (`_on_cursor`): SQL compiled once per dialect from
the same table definitions, each value converted as SQLAlchemy would bind it: a fifth less
CPU per append in `python -m bench.commit_path` (docs/benchmarks.md); the rarer statements
go through SQLAlchemy as usual.
"""

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Protocol

import msgspec
from sqlalchemy import Column, Connection, Dialect, Executable, bindparam, insert, select, update
from sqlalchemy.exc import DBAPIError

from server.events import EVENT_VERSION, Append, Seated, encode_event
from server.store.models import game_events, games, tables, users
from server.store.results import record_list

__all__ = ["LeaseLost", "commit_group", "write"]

log = logging.getLogger(__name__)
_EVENT_COLUMNS = ("table_id", "seq", "kind", "version", "payload", "at")
_GAME_COLUMNS = ("table_id", "number", "result", "record", "finished_at")
# Built once: the writer runs them with every commit and every deal's end (rarer statements
# are built in place).
_INSERT_EVENTS = insert(game_events).values({name: bindparam(name) for name in _EVENT_COLUMNS})
_INSERT_GAMES = insert(games).values({name: bindparam(name) for name in _GAME_COLUMNS})


@lru_cache(maxsize=64)
def _owned(count: int) -> Executable:
    """The fence's query for `count` tables, built once per count (an expanding IN would
    be rendered anew at every commit)."""
    ids = [bindparam(f"id{i}") for i in range(count)]
    return (
        select(tables.c.id)
        .where(tables.c.id.in_(ids), tables.c.owner == bindparam("node"))
        .with_for_update(read=True)
    )


@lru_cache(maxsize=128)
def _driver_sql(statement: Executable, dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """`statement` in the driver's SQL for `dialect`, and its parameters' names in order
    (compiled for many rows: an INSERT returns nothing)."""
    compiled = statement.compile(dialect=dialect, for_executemany=True)
    if compiled.positiontup is None:
        raise ValueError(f"{dialect.name}: the writer needs a driver with positional parameters")
    return compiled.string, tuple(compiled.positiontup)


@lru_cache(maxsize=16)
def _binder(column: Column[datetime], dialect: Dialect) -> Callable[[datetime], object]:
    """How SQLAlchemy converts a time of `column` for `dialect`'s driver (for SQLite its
    text form), so that rows written on the cursor read back alike."""
    process = column.type.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else _same


def _same(value: datetime) -> object:
    return value


class _Fetchable(Protocol):
    """What `_on_cursor` returns: SQLAlchemy's result, or the DB-API cursor on SQLite."""

    def fetchall(self) -> Sequence[Sequence[object]]: ...


def _on_cursor(
    conn: Connection, statement: Executable, rows: Sequence[Mapping[str, object]]
) -> _Fetchable:
    """Run `statement` once per row (the values already as the driver takes them) in
    `conn`'s transaction; something to `fetchall` from. On SQLite straight on the DB-API
    cursor, its errors raised as SQLAlchemy's; elsewhere as driver SQL through SQLAlchemy,
    which also notices a lost connection (SQLite's file cannot be lost)."""
    sql, names = _driver_sql(statement, conn.dialect)
    params = [tuple(row[name] for name in names) for row in rows]
    if conn.dialect.name != "sqlite":
        return conn.exec_driver_sql(sql, params if len(params) > 1 else params[0])
    driver = conn.connection.dbapi_connection
    assert driver is not None  # an open connection has its driver's
    cursor = driver.cursor()
    try:
        if len(params) == 1:
            cursor.execute(sql, params[0])
        else:
            cursor.executemany(sql, params)
    except conn.dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(
            sql, params, error, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
        ) from error
    return cursor


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
    at = _binder(game_events.c.at, conn.dialect)(now)
    rows = [
        {
            "table_id": table_id,
            "seq": batch.first_seq + offset,
            "kind": type(event).__struct_config__.tag,
            "version": EVENT_VERSION,
            "payload": encode_event(event).decode(),
            "at": at,
        }
        for table_id, batch in items
        for offset, event in enumerate(batch.events)
    ]
    if rows:
        _on_cursor(conn, _INSERT_EVENTS, rows)
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
    finished_at = _binder(games.c.finished_at, conn.dialect)(now)
    finished = [
        {
            "table_id": table_id,
            "number": game.number,
            "result": msgspec.json.encode(game.result).decode(),
            "record": game.record,
            "finished_at": finished_at,
        }
        for table_id, batch in items
        for game in batch.games
    ]
    if finished:
        _on_cursor(conn, _INSERT_GAMES, finished)
    for table_id, batch in items:
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
    cursor = _on_cursor(conn, _owned(len(ids)), [{**ids, "node": node}])
    owned = {row[0] for row in cursor.fetchall()}
    if lost := table_ids - owned:
        raise LeaseLost(lost)
