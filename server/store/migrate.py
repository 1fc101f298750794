"""Run the Alembic migrations in `migrations/` up to head.

Alembic's env drives its own event loop, so `upgrade` is synchronous: the server calls it in a
worker thread before it starts serving, `tischrunde db upgrade` calls it directly.
"""

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations

__all__ = ["alembic_config", "upgrade"]


def alembic_config(url: str) -> Config:
    """Alembic's configuration for the database at `url` (async SQLAlchemy URL)."""
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Bring the database at `url` to the newest schema."""
    command.upgrade(alembic_config(url), "head")
