"""Alembic environment: runs migrations over the server's async engine (SQLite or PostgreSQL)."""

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from server.store.models import metadata

# Several server processes starting at once on a new PostgreSQL database would each try to
# create the schema: they take turns on this advisory lock, held until the migration commits
# (PostgreSQL runs DDL in the transaction), so the later ones find it done.
MIGRATION_LOCK = 0x7A15C4_0001


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        context.run_migrations()


async def _migrate(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"), target_metadata=metadata
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_migrate(context.config.get_main_option("sqlalchemy.url") or ""))
