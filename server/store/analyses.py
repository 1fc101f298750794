"""Finished deals' analyses as stored: written once by the server that computed them, read by
whoever may see the deal (`server/analysis.py`, `/api/records/{table}/{deal}/analysis`)."""

from datetime import UTC, datetime

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.store.models import analyses

__all__ = ["load_analysis", "save_analysis"]


async def load_analysis(engine: AsyncEngine, table_id: str, number: int) -> str | None:
    """The stored analysis (JSON) of deal `number` of `table_id`, or None."""
    async with engine.connect() as conn:
        found = await conn.scalar(
            select(analyses.c.analysis).where(
                analyses.c.table_id == table_id, analyses.c.number == number
            )
        )
    return None if found is None else str(found)


async def save_analysis(engine: AsyncEngine, table_id: str, number: int, analysis: str) -> None:
    """Keep the analysis of a deal; one computed elsewhere meanwhile stays (the same seed and
    budget give the same analysis)."""
    row = {
        "table_id": table_id,
        "number": number,
        "analysis": analysis,
        "created_at": datetime.now(UTC),
    }
    try:
        async with engine.begin() as conn:
            await conn.execute(insert(analyses).values(**row))
    except IntegrityError:
        return
