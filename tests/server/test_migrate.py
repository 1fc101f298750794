"""`upgrade` leaves a new SQLite file in WAL mode, so the server's first connections do not
race for the lock that switching to it takes."""

import sqlite3
from pathlib import Path

from server.store.migrate import upgrade


def test_a_new_sqlite_file_is_in_wal_mode_after_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
