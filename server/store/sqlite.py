"""How every SQLite connection of the store starts: the pragmas each gets, and the file's
switch to WAL, made once by the migration and checked by each connection; and how the
writer's transactions begin."""

from typing import Protocol

from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

__all__ = ["immediate_transactions", "sqlite_pragmas"]


class _SQLiteDriver(DBAPIConnection, Protocol):
    """The driver's connection as the listeners use it: sqlite3's, or aiosqlite's adapter."""

    isolation_level: str | None


def sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    """A `connect` listener: WAL (switched on once: the switch needs a lock a new connection
    may not get) with synchronous=NORMAL: a commit survives the process being killed at any
    moment."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA journal_mode")
    (mode,) = cursor.fetchone() or ("",)
    if str(mode).lower() != "wal":
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def immediate_transactions(engine: Engine) -> None:
    """Every transaction on `engine` begins with BEGIN IMMEDIATE, which takes the database's
    write lock at once. The driver would begin one only at the first write, after the
    writer's fence has read who owns its tables: a takeover committed in between would let
    the old owner's events land after the new owner loaded the table."""
    event.listen(engine, "connect", _driver_begins_nothing)
    event.listen(engine, "begin", _begin_immediate)


def _driver_begins_nothing(dbapi_connection: _SQLiteDriver, _record: ConnectionPoolEntry) -> None:
    dbapi_connection.isolation_level = None  # sqlite3 opens no transaction by itself


def _begin_immediate(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")
