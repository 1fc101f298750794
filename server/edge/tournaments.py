"""Tournaments as the server shows them: listed over HTTP, followed over the WebSocket.

A people's tournament is the server's own (`server/tournament/people.py` describes it and
calls `refresh` whenever it changes). A bot tournament:

A tournament is run by its own process (`tischrunde tournament`) that shares the database
(and the MQTT broker) with the server. The runner records the standings with every game it
commits, in the tournament's row; the server reads that row. Clients that `watch_tournament`
get the row at once and again whenever its `played` count moves: one task polls the rows of
watched tournaments every `tournament_poll_seconds` (nothing runs while nobody watches). The
runner itself publishes the same message to MQTT, so the server need not relay it.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from server.protocol import Reply, Tournament, TournamentInfo
from server.store.tournaments import StoredTournament, Tournaments
from server.tasks import cancel
from server.tournament.schedule import Params, table_specs

__all__ = ["TournamentWatch"]

Push = Callable[[Reply], None]
Describe = Callable[[StoredTournament], Awaitable[TournamentInfo]]


def _total(stored: StoredTournament) -> int:
    return sum(t.games for t in table_specs(msgspec.convert(stored.params, Params)))


class TournamentWatch:
    """Tournament listings and live standings for the server's clients."""

    def __init__(self, records: Tournaments, poll_seconds: float) -> None:
        self.records = records
        self.poll_seconds = poll_seconds
        self.watchers: dict[str, dict[int, Push]] = {}
        self._seen: dict[str, tuple[int, str]] = {}
        self._task: asyncio.Task[None] | None = None
        # Describes a people's tournament (server/tournament/people.py sets it).
        self.people: Describe | None = None

    async def listing(self) -> list[dict[str, Any]]:
        """Every tournament, newest first: id, game, players, status and progress."""
        listed = []
        for t in await self.records.all():
            info = await self.info(t.id) if t.organizer_id is not None else None
            listed.append(
                {
                    "id": t.id,
                    "game": t.game,
                    "players": t.params["players"] if info is None else info.players,
                    "status": t.status,
                    "played": t.played,
                    "total": _total(t) if info is None else info.total,
                    "created_at": t.created_at.isoformat(),
                }
            )
        return listed

    async def info(self, tournament_id: str) -> TournamentInfo | None:
        """The tournament's standings and the tables being played, or None."""
        stored = await self.records.load(tournament_id)
        if stored is None:
            return None
        if stored.organizer_id is not None and self.people is not None:
            return await self.people(stored)
        return TournamentInfo(
            id=stored.id,
            game=stored.game,
            status=stored.status,
            players=list(stored.params["players"]),
            played=stored.played,
            total=_total(stored),
            standings=stored.standings,
            tables=await self.records.playing_tables(stored.id),
        )

    async def watch(self, tournament_id: str, client: int, push: Push) -> TournamentInfo | None:
        """Push `tournament` messages to `client` from now on; returns the state now."""
        info = await self.info(tournament_id)
        if info is None:
            return None
        self.watchers.setdefault(tournament_id, {})[client] = push
        self._seen[tournament_id] = (info.played, info.status)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll(), name="tournament-watch")
        return info

    async def refresh(self, tournament_id: str) -> TournamentInfo | None:
        """The tournament changed (a people's tournament: registrations, series, games): push
        it to its watchers now; returns it."""
        info = await self.info(tournament_id)
        if info is None or tournament_id not in self.watchers:
            return info
        self._seen[tournament_id] = (info.played, info.status)
        for push in list(self.watchers[tournament_id].values()):
            push(Tournament(tournament=info))
        return info

    def forget(self, client: int) -> None:
        """The client is gone."""
        for tournament_id, clients in list(self.watchers.items()):
            clients.pop(client, None)
            if not clients:
                del self.watchers[tournament_id]
                self._seen.pop(tournament_id, None)

    async def close(self) -> None:
        await cancel(self._task)

    async def _poll(self) -> None:
        while self.watchers:
            await asyncio.sleep(self.poll_seconds)
            for tournament_id in list(self.watchers):
                # The row alone first: a people's tournament's whole info costs more queries.
                stored = await self.records.load(tournament_id)
                seen = self._seen.get(tournament_id)
                if stored is None or (stored.played, stored.status) == seen:
                    continue
                info = await self.info(tournament_id)
                if info is None:
                    continue
                self._seen[tournament_id] = (info.played, info.status)
                for push in list(self.watchers.get(tournament_id, {}).values()):
                    push(Tournament(tournament=info))
