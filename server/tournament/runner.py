"""Running a tournament: games in worker processes, each committed alone, in table order.

Workers play whole games (`play.play_game`); this process writes every finished game to the
database as a live table would have written it: the seats, the deal, every move, the game's
result and record, and with a list's last game its standings, results and ratings
(`Store.commit_now`, one transaction per game, which also records the standings after it in
the tournament's row). A table's games commit in their order, so after a crash each table
holds a prefix of its games and `run` with the same tournament continues after it: no game is
played twice, none is lost. With a bus, the standings also go to MQTT
`tischrunde/v1/tournaments/{id}` after every game.
"""

import asyncio
import multiprocessing
import os
import secrets
import signal
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Final

import msgspec

from server.core.actor import Publisher
from server.events import (
    Append,
    DealStarted,
    GameOver,
    ListOver,
    Moved,
    Player,
    Seated,
    SeriesEnded,
    TableEvent,
)
from server.games import game_kind
from server.plain import Plain
from server.protocol import TournamentInfo
from server.store.db import NewTable, Store
from server.store.results import BOT_PREFIX
from server.store.tournaments import TableProgress, standings_update
from server.tournament.play import PlayedGame, play_game
from server.tournament.schedule import Params, TableSpec, game_specs, table_id, table_specs
from server.tournament.standings import Tally

__all__ = ["NO_USER", "create", "run"]

NO_USER: Final = 0  # `created_by` of a tournament table: no user opened it
_JOBS_PER_WORKER: Final = 2  # games queued per worker, so none idles between games
_ID_BYTES: Final = 4

OnGame = Callable[[TableSpec, PlayedGame], None]


def _end_on_interrupt() -> None:
    """Worker initializer: Ctrl-C (which a terminal sends to the workers too) ends a worker at
    once and quietly; the runner keeps every committed game, and a resume replays the rest."""
    signal.signal(signal.SIGINT, lambda *_: os._exit(1))


def _player(name: str) -> Player:
    """A bot seat, as a live table seats a bot (rated as the shared `bot:<name>` user)."""
    return Player(None, BOT_PREFIX + name, name)


class _Writer:
    """Turns played games into table commits, in each table's order."""

    def __init__(self, store: Store, tournament: str, params: Params, tally: Tally) -> None:
        self.store = store
        self.tournament = tournament
        self.params = params
        self.tally = tally
        self.kind = game_kind(params.game)
        self.rules = self.kind.rules_options(self.kind.parse_rules(params.rules))
        self.seq: dict[int, int] = {}
        self.results: dict[int, list[Plain]] = {}
        self.waiting: dict[tuple[int, int], PlayedGame] = {}

    def resume_from(self, tables: list[TableSpec], progress: dict[str, TableProgress]) -> None:
        """Continue after what the database holds: each table's last seq and results."""
        for table in tables:
            done = progress.get(table_id(self.tournament, table.index))
            if done is not None:
                self.seq[table.index] = done.seq
                self.results[table.index] = list(done.results)

    def committed(self, table: TableSpec) -> int:
        return len(self.results.get(table.index, ()))

    async def add(self, table: TableSpec, played: PlayedGame) -> AsyncIterator[PlayedGame]:
        """Commit `played` and any later games of its table it unblocks, yielding each
        right after its commit (so that the progress told about it is its own)."""
        self.waiting[(table.index, played.number)] = played
        while (key := (table.index, self.committed(table))) in self.waiting:
            game = self.waiting.pop(key)
            await self._commit(table, game)
            yield game

    async def _commit(self, table: TableSpec, played: PlayedGame) -> None:
        players = tuple(_player(name) for name in table.players)
        events: list[TableEvent] = []
        new_table = None
        if played.number == 0:
            new_table = NewTable(self.params.game, self._options(table), self.tournament)
            events += [Seated(seat, player) for seat, player in enumerate(players)]
        events.append(DealStarted(played.number, msgspec.Raw(played.start)))
        events += [Moved(seat, msgspec.Raw(action)) for seat, action in played.moves]
        results = [*self.results.get(table.index, []), played.result]
        list_over = None
        if len(results) == table.games:
            list_standings = self.kind.standings(len(players), results)
            events.append(SeriesEnded(msgspec.to_builtins(list_standings)))
            list_over = ListOver(list_standings, players)
        batch = Append(
            first_seq=self.seq.get(table.index, 0) + 1,
            events=tuple(events),
            games=(GameOver(played.number, played.result, played.record, players),),
            list_over=list_over,
            status="finished" if list_over is not None else "playing",
        )
        self.tally.add(table.players, played.outcome)
        standings = standings_update(self.tournament, self.tally.games, self.tally.standings())
        await self.store.commit_now(
            table_id(self.tournament, table.index), batch, new_table=new_table, also=[standings]
        )
        self.seq[table.index] = batch.first_seq + len(events) - 1
        self.results[table.index] = results

    def info(self, tables: list[TableSpec], status: str) -> TournamentInfo:
        """The tournament as the bus and the server show it."""
        return TournamentInfo(
            id=self.tournament,
            game=self.params.game,
            status=status,
            players=list(self.params.players),
            played=self.tally.games,
            total=sum(t.games for t in tables),
            standings=msgspec.to_builtins(self.tally.standings()),
            tables=[
                table_id(self.tournament, t.index)
                for t in tables
                if 0 < self.committed(t) < t.games
            ],
        )

    def _options(self, table: TableSpec) -> Plain:
        """The table's stored options, in the lobby's format."""
        return {
            "id": table_id(self.tournament, table.index),
            "game": self.params.game,
            "rules": self.rules,
            "private": False,
            "invite": None,
            "series_length": table.games,
            "created_by": NO_USER,
            "fill_bots_after": None,
            "fill_level": table.players[0],
        }


async def create(store: Store, params: Params) -> str:
    """Store a new tournament (its parameters and the players' ratings now); returns its id.
    Raises ValueError for parameters that make no schedule."""
    table_specs(params)
    tournament = secrets.token_hex(_ID_BYTES)
    before = await store.tournaments.bot_ratings(params.game, params.players)
    await store.tournaments.create(tournament, params.game, msgspec.to_builtins(params), before)
    return tournament


async def run(
    store: Store,
    tournament: str,
    params: Params,
    *,
    workers: int,
    tally: Tally,
    bus: Publisher | None = None,
    on_game: OnGame | None = None,
) -> int:
    """Play every game of `tournament` the database does not hold yet; returns how many
    were played now. `tally` holds the games stored before (`report.replayed_tally`) and
    gets every new one; `on_game` sees each game once it is committed."""
    tables = table_specs(params)
    writer = _Writer(store, tournament, params, tally)
    writer.resume_from(tables, await store.tournaments.progress(tournament))
    todo = iter(
        spec
        for spec in game_specs(params, tables)
        if spec.number >= writer.committed(tables[spec.table])
    )
    loop = asyncio.get_running_loop()
    # Spawned workers: forking a process that runs an event loop and database threads is unsafe.
    executor = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"), initializer=_end_on_interrupt
    )
    running: set[asyncio.Future[PlayedGame]] = set()
    played_now = 0
    try:
        while True:
            while len(running) < workers * _JOBS_PER_WORKER:
                spec = next(todo, None)
                if spec is None:
                    break
                table = tables[spec.table]
                running.add(loop.run_in_executor(executor, play_game, params, table, spec))
            if not running:
                break
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                played = future.result()
                table = tables[played.table]
                async for game in writer.add(table, played):
                    played_now += 1
                    if bus is not None:
                        bus.publish("tournament", tournament, writer.info(tables, "running"))
                    if on_game is not None:
                        on_game(table, game)
    finally:  # interrupted or done: what is not committed is played again on resume
        for future in running:
            future.cancel()
        executor.shutdown(wait=False, cancel_futures=True)
    await store.tournaments.finish(tournament)
    if bus is not None:
        bus.publish("tournament", tournament, writer.info(tables, "finished"))
    return played_now
