"""How every SQLite connection of the store starts: the pragmas each gets, and the file's
switch to WAL, made once by the migration and checked by each connection."""

from typing import Any

__all__ = ["sqlite_pragmas"]


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """A `connect` listener: WAL (switched on once: the switch needs a lock a new connection
    may not get) with synchronous=NORMAL: a commit survives the process being killed at any
    moment."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA journal_mode")
    if cursor.fetchone()[0].lower() != "wal":
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
