"""A people's tournament in the database (`Store.tournaments.people`): its row, who registered,
its tables by series and the results of their games.

The row is a `tournaments` row with an organiser and a start time (status `open`, then
`running`, `finished` or `cancelled`); its standings are written with `standings_update` as for
a bot tournament. Its tables are live tables, tied to it by `tournament_tables`.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec
from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from server.plain import Plain
from server.store.models import games, tournament_entries, tournament_tables, tournaments

__all__ = ["Entries", "SeriesTable"]


class SeriesTable(msgspec.Struct, frozen=True):
    """One table of a people's tournament: its series and the name at each seat."""

    table_id: str
    series: int
    seats: list[str]


class Entries:
    """Registrations, tables and results of people's tournaments."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def open(
        self,
        tournament_id: str,
        game: str,
        params: Plain,
        organizer_id: int,
        starts_at: datetime,
    ) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                insert(tournaments).values(
                    id=tournament_id,
                    game=game,
                    params=msgspec.json.encode(params).decode(),
                    status="open",
                    ratings_before="{}",
                    played=0,
                    standings="[]",
                    created_at=datetime.now(UTC),
                    organizer_id=organizer_id,
                    starts_at=starts_at,
                )
            )

    async def pending(self) -> list[str]:
        """The people's tournaments not over yet (open or running), to re-arm at start."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(tournaments.c.id).where(
                    tournaments.c.organizer_id.is_not(None),
                    tournaments.c.status.in_(("open", "running")),
                )
            )
            return [row.id for row in rows]

    async def set_status(self, tournament_id: str, status: str, *, was: str) -> bool:
        """Move the tournament from status `was` to `status`; False if it was not `was`."""
        values: dict[str, object] = {"status": status}
        if status in ("finished", "cancelled"):
            values["finished_at"] = datetime.now(UTC)
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, tournaments.c.status == was)
                .values(**values)
            )
            return bool(done.rowcount)

    async def claim_series(self, tournament_id: str, series: int) -> bool:
        """Mark `series` as drawn; False if it (or a later one) was already: whoever moves it
        draws it, so two processes never draw the same series."""
        drawn = tournaments.c.series
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, or_(drawn.is_(None), drawn < series))
                .values(series=series)
            )
            return bool(done.rowcount)

    async def save_standings(
        self, tournament_id: str, played: int, rows: Sequence[msgspec.Struct]
    ) -> None:
        """The standings after `played` games of the tournament's tables."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(played=played, standings=msgspec.json.encode(rows).decode())
            )

    async def players(self, tournament_id: str) -> list[tuple[int, str]]:
        """The registered players, (user id, name), in the order they registered."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(tournament_entries.c.user_id, tournament_entries.c.name)
                .where(tournament_entries.c.tournament_id == tournament_id)
                .order_by(tournament_entries.c.at, tournament_entries.c.user_id)
            )
            return [(row.user_id, row.name) for row in rows]

    async def register(
        self, tournament_id: str, user_id: int, name: str, partner: str | None = None
    ) -> bool:
        """Register the player naming `partner`; False if he was registered already."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(
                    insert(tournament_entries).values(
                        tournament_id=tournament_id,
                        user_id=user_id,
                        name=name,
                        at=datetime.now(UTC),
                        partner=partner,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def name_partner(self, tournament_id: str, user_id: int, partner: str | None) -> None:
        """A registered player names another partner (None: none)."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(tournament_entries)
                .where(
                    tournament_entries.c.tournament_id == tournament_id,
                    tournament_entries.c.user_id == user_id,
                )
                .values(partner=partner)
            )

    async def pairs(self, tournament_id: str) -> list[tuple[str, str]]:
        """The registered players who named each other as partners, each pair once."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(tournament_entries.c.name, tournament_entries.c.partner)
                .where(tournament_entries.c.tournament_id == tournament_id)
                .order_by(tournament_entries.c.at, tournament_entries.c.user_id)
            )
            named = {row.name: row.partner for row in rows}
        return [(a, b) for a, b in named.items() if b is not None and named.get(b) == a and a < b]

    async def unregister(self, tournament_id: str, user_id: int) -> bool:
        """Take back a registration; False if there was none."""
        async with self._engine.begin() as conn:
            done = await conn.execute(
                delete(tournament_entries).where(
                    tournament_entries.c.tournament_id == tournament_id,
                    tournament_entries.c.user_id == user_id,
                )
            )
            return bool(done.rowcount)

    async def add_table(self, tournament_id: str, table: SeriesTable) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                insert(tournament_tables).values(
                    tournament_id=tournament_id,
                    table_id=table.table_id,
                    series=table.series,
                    seats=msgspec.json.encode(table.seats).decode(),
                )
            )

    async def tables(self, tournament_id: str) -> list[SeriesTable]:
        """The tournament's tables, by series."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(tournament_tables)
                .where(tournament_tables.c.tournament_id == tournament_id)
                .order_by(tournament_tables.c.series, tournament_tables.c.table_id)
            )
            return [
                SeriesTable(row.table_id, row.series, msgspec.json.decode(row.seats))
                for row in rows
            ]

    async def results(self, tournament_id: str) -> dict[str, list[Plain]]:
        """The results of every committed game of the tournament's tables, in order."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.table_id, games.c.result)
                .join(tournament_tables, tournament_tables.c.table_id == games.c.table_id)
                .where(tournament_tables.c.tournament_id == tournament_id)
                .order_by(games.c.table_id, games.c.number)
            )
            found: dict[str, list[Plain]] = {}
            for row in rows:
                found.setdefault(row.table_id, []).append(msgspec.json.decode(row.result))
            return found
