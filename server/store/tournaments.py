"""Tournament rows and the queries that read a tournament back from the database.

A tournament's games are ordinary tables (events, games, results, ratings written as for live
play through `Store.commit_now`); this module adds the `tournaments` row and reads what the
runner resumes from and what the report summarizes (`Tournaments`, as `Store.tournaments`).
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from server.events import DealStarted, Moved, decode_event
from server.ratings import Rating, initial
from server.standings import TournamentRow
from server.store.entries import Entries
from server.store.models import (
    game_events,
    games,
    rating_history,
    ratings,
    tables,
    tournaments,
    users,
)
from server.store.results import BOT_PREFIX

__all__ = [
    "StoredGame",
    "StoredTournament",
    "TableProgress",
    "Tournaments",
    "standings_update",
]


class StoredTournament(msgspec.Struct, frozen=True):
    id: str
    game: str
    params: dict[str, Any]
    status: str
    ratings_before: dict[str, Rating]
    played: int
    standings: list[dict[str, Any]]
    created_at: datetime
    finished_at: datetime | None
    organizer_id: int | None = None  # a people's tournament (server/store/entries.py)
    starts_at: datetime | None = None


class TableProgress(msgspec.Struct, frozen=True):
    """How far a tournament table got: its last event's seq and its games' results."""

    seq: int
    results: list[dict[str, Any]]


class StoredGame(msgspec.Struct, frozen=True):
    """One committed game: its table, number, result and (on request) deal and actions."""

    table_id: str
    number: int
    result: dict[str, Any]
    start: bytes = b""
    moves: list[tuple[int, bytes]] = []


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _tournament(row: Any) -> StoredTournament:
    return StoredTournament(
        id=row.id,
        game=row.game,
        params=msgspec.json.decode(row.params),
        status=row.status,
        ratings_before={k: tuple(v) for k, v in msgspec.json.decode(row.ratings_before).items()},
        played=row.played,
        standings=msgspec.json.decode(row.standings),
        created_at=row.created_at,
        finished_at=row.finished_at,
        organizer_id=row.organizer_id,
        starts_at=row.starts_at,
    )


def standings_update(tournament_id: str, played: int, standings: Sequence[TournamentRow]) -> Any:
    """The statement that records the standings after `played` games (run in the same
    transaction as the game that makes them so)."""
    return (
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(played=played, standings=_json(standings))
    )


async def _games(conn: Any, tournament_id: str) -> list[StoredGame]:
    rows = await conn.execute(
        select(games.c.table_id, games.c.number, games.c.result)
        .join(tables, tables.c.id == games.c.table_id)
        .where(tables.c.tournament_id == tournament_id)
        .order_by(games.c.table_id, games.c.number)
    )
    return [StoredGame(r.table_id, r.number, msgspec.json.decode(r.result)) for r in rows]


class Tournaments:
    """The tournament rows of one database, reached through `Store.tournaments` (the store
    is the only door to the database)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self.people = Entries(engine)

    async def bot_ratings(self, game: str, names: Sequence[str]) -> dict[str, Rating]:
        """The current rating of each bot name at `game` (a new player's for unrated ones)."""
        found: dict[str, Rating] = {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(users.c.name, ratings.c.mu, ratings.c.sigma)
                .join(ratings, ratings.c.user_id == users.c.id)
                .where(ratings.c.game == game, users.c.name.in_([BOT_PREFIX + n for n in names]))
            )
            for row in rows:
                found[row.name.removeprefix(BOT_PREFIX)] = (row.mu, row.sigma)
        return {name: found.get(name, initial()) for name in names}

    async def create(
        self,
        tournament_id: str,
        game: str,
        params: dict[str, Any],
        ratings_before: dict[str, Rating],
    ) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                insert(tournaments).values(
                    id=tournament_id,
                    game=game,
                    params=_json(params),
                    status="running",
                    ratings_before=_json(ratings_before),
                    played=0,
                    standings="[]",
                    created_at=datetime.now(UTC),
                )
            )

    async def finish(self, tournament_id: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(status="finished", finished_at=datetime.now(UTC))
            )

    async def load(self, tournament_id: str) -> StoredTournament | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))
            ).first()
        return None if row is None else _tournament(row)

    async def all(self) -> list[StoredTournament]:
        """Every tournament, newest first."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(select(tournaments).order_by(tournaments.c.created_at.desc()))
            return [_tournament(row) for row in rows]

    async def playing_tables(self, tournament_id: str) -> list[str]:
        """The tournament's tables with games committed and games to come (what to watch)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .where(tables.c.tournament_id == tournament_id, tables.c.status == "playing")
                .order_by(tables.c.created_at)
            )
            return [row.id for row in rows]

    async def progress(self, tournament_id: str) -> dict[str, TableProgress]:
        """Per table of the tournament that has games: its last seq and its results in order."""
        async with self._engine.connect() as conn:
            seqs = await conn.execute(
                select(game_events.c.table_id, func.max(game_events.c.seq))
                .join(tables, tables.c.id == game_events.c.table_id)
                .where(tables.c.tournament_id == tournament_id)
                .group_by(game_events.c.table_id)
            )
            progress = {table_id: TableProgress(int(seq), []) for table_id, seq in seqs}
            for game in await _games(conn, tournament_id):
                progress[game.table_id].results.append(game.result)
        return progress

    async def games(self, tournament_id: str, *, with_moves: bool) -> list[StoredGame]:
        """Every committed game of the tournament; `with_moves` adds its deal and actions from
        the event log (needed to replay it)."""
        async with self._engine.connect() as conn:
            found = await _games(conn, tournament_id)
            if not with_moves:
                return found
            rows = await conn.execute(
                select(game_events.c.table_id, game_events.c.version, game_events.c.payload)
                .join(tables, tables.c.id == game_events.c.table_id)
                .where(
                    tables.c.tournament_id == tournament_id,
                    game_events.c.kind.in_(("deal", "move")),
                )
                .order_by(game_events.c.table_id, game_events.c.seq)
            )
            deals: dict[tuple[str, int], tuple[bytes, list[tuple[int, bytes]]]] = {}
            current: list[tuple[int, bytes]] = []
            for row in rows:
                event = decode_event(row.payload, row.version)
                if isinstance(event, DealStarted):
                    current = []
                    deals[(row.table_id, event.number)] = (bytes(event.start), current)
                elif isinstance(event, Moved):
                    current.append((event.seat, bytes(event.action)))
        return [
            msgspec.structs.replace(
                g, start=deals[(g.table_id, g.number)][0], moves=deals[(g.table_id, g.number)][1]
            )
            for g in found
        ]

    async def rating_steps(self, tournament_id: str) -> list[tuple[str, str, Rating]]:
        """Each rating change of the tournament's tables in order: (table id, bot name, rating)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(
                    rating_history.c.table_id,
                    users.c.name,
                    rating_history.c.mu,
                    rating_history.c.sigma,
                )
                .join(users, users.c.id == rating_history.c.user_id)
                .join(tables, tables.c.id == rating_history.c.table_id)
                .where(tables.c.tournament_id == tournament_id)
                .order_by(rating_history.c.id)
            )
            return [(r.table_id, r.name.removeprefix(BOT_PREFIX), (r.mu, r.sigma)) for r in rows]
