"""Run the Alembic migrations in `migrations/` up to head.

Alembic's env drives its own event loop, so `upgrade` is synchronous: the server calls it in a
worker thread before it starts serving, `tischrunde db upgrade` calls it directly.
"""

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, make_url

import migrations
from server.store.sqlite import sqlite_pragmas

__all__ = ["alembic_config", "upgrade"]


def alembic_config(url: str) -> Config:
    """Alembic's configuration for the database at `url` (async SQLAlchemy URL)."""
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Bring the database at `url` to the newest schema (a SQLite file also to WAL)."""
    command.upgrade(alembic_config(url), "head")
    _write_ahead_log(url)


def _write_ahead_log(url: str) -> None:
    """Switch a SQLite file to WAL here, once, before the server opens it: the switch needs a
    lock, which the store's first connections, opened together, would otherwise race for.
    One connection with the store's pragmas makes it; the mode stays with the file."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    engine = create_engine(parsed.set(drivername="sqlite"))
    event.listen(engine, "connect", sqlite_pragmas)
    try:
        with engine.connect():
            pass
    finally:
        engine.dispose()
