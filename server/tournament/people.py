"""Tournaments for people (docs/tournaments.md, "People's tournaments"): an organiser opens
one, players register until it starts, and at its start time the server draws the seats, lets
bots take the places left over and opens every table of the series at once as live tables.
When the last table of a series ends its list the next series is drawn; after the last one the
tournament is finished. Standings are summed from the tables' lists after every game, written
to the tournament's row and pushed to its watchers.

The start time is in the database: `start` re-arms the timers of open tournaments after a
restart, and picks up running ones (a series that ended while the server was down goes on).
"""

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta

from bots.registry import policy_names
from server.edge.tournaments import TournamentWatch
from server.events import Player
from server.games import game_kind
from server.lobby import Lobby, LobbyError
from server.plain import Plain
from server.protocol import Reply, SeriesTableInfo, Tournament, TournamentInfo
from server.protocol.tournaments import (
    CancelTournament,
    CreateTournament,
    ListTournaments,
    RegisterTournament,
    StartTournament,
    TournamentList,
    TournamentRequest,
    TournamentSeat,
    UnregisterTournament,
)
from server.store.entries import SeriesTable
from server.store.tournaments import StoredTournament, Tournaments
from server.store.users import StoredUser
from server.tasks import log_failure
from server.tournament.draw import (
    BOT_PREFIX,
    draw,
    draw_teams,
    pairs_again,
    standings,
    table_sizes,
)

__all__ = ["PeopleTournaments"]

log = logging.getLogger(__name__)
MAX_AHEAD = timedelta(days=7)
LATE = timedelta(minutes=1)  # a start time this far in the past is still taken (clocks differ)
Deliver = Callable[[int, TournamentSeat], None]  # to a user, whichever process he is on


def _when(value: datetime | None) -> datetime:
    """A stored start time, or now for a tournament without one."""
    return datetime.now(UTC) if value is None else value


def _table_rules(stored: StoredTournament, size: int) -> tuple[Plain, int]:
    """A table's rules and list length, as the game sets up its people's tournaments."""
    return game_kind(stored.game).people_table(int(stored.params["deals"]), size)


class PeopleTournaments:
    """Every people's tournament of this server: requests, start timers, series, standings."""

    def __init__(
        self, records: Tournaments, lobby: Lobby, watch: TournamentWatch, deliver: Deliver
    ) -> None:
        self.records = records
        self.entries = records.people
        self.lobby = lobby
        self.watch = watch
        self.deliver = deliver
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        watch.people = self.info

    async def start(self) -> None:
        """Re-arm the open tournaments' start timers; go on with the running ones."""
        for tournament_id in await self.entries.pending():
            stored = await self.records.load(tournament_id)
            if stored is None:
                continue
            if stored.status == "open":
                self._arm(stored)
            else:  # a series may have ended while no server ran
                self._spawn(self._progress(tournament_id))

    async def close(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def deal_over(self, table_id: str, number: int) -> None:
        """A game of a table this process serves ended: new standings if it is a
        tournament's (whichever process serves a tournament's table follows it)."""
        table = self.lobby.tables.get(table_id)
        if table is not None and table.config.tournament is not None:
            self._spawn(self._progress(table.config.tournament))

    async def handle(self, user: StoredUser, request: TournamentRequest) -> Reply:
        if isinstance(request, ListTournaments):
            infos = [await self.watch.info(t.id) for t in await self.records.all()]
            return TournamentList(id=request.id, tournaments=[i for i in infos if i])
        if isinstance(request, CreateTournament):
            tournament_id = await self._create(user, request)
        else:
            tournament_id = request.tournament
            stored = await self._load(tournament_id)
            if isinstance(request, RegisterTournament):
                await self._register(user, stored, request.partner)
            elif isinstance(request, UnregisterTournament):
                await self._unregister(user, stored)
            elif isinstance(request, StartTournament | CancelTournament):
                await self._by_organiser(user, stored, request)
        info = await self.watch.refresh(tournament_id)
        if info is None:
            raise LobbyError("no_such_tournament", f"there is no tournament {tournament_id!r}")
        return Tournament(id=request.id, tournament=info)

    async def info(self, stored: StoredTournament) -> TournamentInfo:
        """The tournament as everybody sees it (`watch_tournament`, `list_tournaments`)."""
        params = stored.params
        players = [name for _, name in await self.entries.players(stored.id)]
        drawn = await self.entries.tables(stored.id)
        results = await self.entries.results(stored.id) if drawn else {}
        series_now = max((t.series for t in drawn), default=0)
        _, length = _table_rules(stored, int(params["table_size"]))
        lists = [
            SeriesTableInfo(t.table_id, t.series, t.seats, len(results.get(t.table_id, [])))
            for t in drawn
        ]
        playing = [t.table for t in lists if t.series == series_now and t.played < length]
        fixed = params["partners"] == "fixed"
        pairs = await self.entries.pairs(stored.id) if fixed else []
        return TournamentInfo(
            id=stored.id,
            game=stored.game,
            status=stored.status,
            players=players,
            played=stored.played,
            total=len([t for t in drawn if t.series == 1]) * length * int(params["series"]),
            standings=stored.standings,
            tables=playing if stored.status == "running" else [],
            name=str(params["name"]),
            organizer=str(params["organizer"]),
            starts_at=_when(stored.starts_at).isoformat(),
            settings={k: params[k] for k in ("series", "deals", "table_size", "fill_bots")}
            | {"bot_level": params["bot_level"], "max_players": params["max_players"]}
            | {"partners": params["partners"]},
            series_now=series_now,
            lists=lists,
            pairs=pairs,
        )

    async def _load(self, tournament_id: str) -> StoredTournament:
        stored = await self.records.load(tournament_id)
        if stored is None or stored.organizer_id is None:
            raise LobbyError("no_such_tournament", f"there is no tournament {tournament_id!r}")
        return stored

    async def _create(self, user: StoredUser, request: CreateTournament) -> str:
        _account(user, "open a tournament")
        if request.game not in self.lobby.games:
            raise LobbyError("bad_tournament", f"no game {request.game!r}")
        if request.bot_level not in policy_names(request.game):
            raise LobbyError("bad_tournament", f"no bot {request.bot_level!r}")
        starts_at = request.starts_at
        now = datetime.now(UTC)
        if starts_at.tzinfo is None:
            raise LobbyError("bad_tournament", "starts_at needs a time zone (e.g. Z)")
        if not now - LATE <= starts_at <= now + MAX_AHEAD:
            raise LobbyError("bad_tournament", "starts_at is from now to a week ahead")
        form = game_kind(request.game).people
        if request.table_size not in form.table_sizes:
            sizes = " or ".join(map(str, form.table_sizes))
            raise LobbyError("bad_tournament", f"{request.game} is played at tables of {sizes}")
        if not form.partners and request.partners != "drawn":
            raise LobbyError("bad_tournament", f"{request.game} has no partners")
        tournament_id = secrets.token_hex(4)
        params = {
            "kind": "people",
            "name": request.name,
            "organizer": user.name,
            "series": request.series,
            "deals": request.deals,
            "table_size": request.table_size,
            "fill_bots": request.fill_bots,
            "bot_level": request.bot_level,
            "max_players": request.max_players,
            "partners": request.partners,
        }
        await self.entries.open(tournament_id, request.game, params, user.id, starts_at)
        stored = await self._load(tournament_id)
        self._arm(stored)
        return tournament_id

    async def _register(
        self, user: StoredUser, stored: StoredTournament, partner: str | None
    ) -> None:
        """Register `user` (again: he names another partner, or none)."""
        _account(user, "play in a tournament")
        _open(stored)
        players = await self.entries.players(stored.id)
        if partner is not None:
            await self._check_partner(user, stored, partner, [name for _, name in players])
        if any(user_id == user.id for user_id, _ in players):
            await self.entries.name_partner(stored.id, user.id, partner)
            return
        if len(players) >= int(stored.params["max_players"]):
            raise LobbyError("tournament_full", "every place of this tournament is taken")
        await self.entries.register(stored.id, user.id, user.name, partner)

    async def _check_partner(
        self, user: StoredUser, stored: StoredTournament, partner: str, names: list[str]
    ) -> None:
        """A partner may be named in a game with partners kept for the whole tournament; he
        must be registered and not paired with somebody else (a pair: both named each other)."""
        if not game_kind(stored.game).people.partners:
            raise LobbyError("bad_partner", f"{stored.game} has no partners")
        if stored.params["partners"] != "fixed":
            raise LobbyError("bad_partner", "partners are drawn every round in this tournament")
        if partner == user.name or partner not in names:
            raise LobbyError("bad_partner", f"{partner!r} is not registered for this tournament")
        if any(
            partner in pair and user.name not in pair
            for pair in await self.entries.pairs(stored.id)
        ):
            raise LobbyError("bad_partner", f"{partner} is paired with somebody else already")

    async def _unregister(self, user: StoredUser, stored: StoredTournament) -> None:
        _open(stored)
        if not await self.entries.unregister(stored.id, user.id):
            raise LobbyError("not_entered", "you are not registered for this tournament")

    async def _by_organiser(
        self, user: StoredUser, stored: StoredTournament, request: TournamentRequest
    ) -> None:
        if user.id != stored.organizer_id:
            raise LobbyError("not_organiser", "only the tournament's organiser may do that")
        _open(stored)
        if isinstance(request, CancelTournament):
            await self.entries.set_status(stored.id, "cancelled", was="open")
            self._disarm(stored.id)
            return
        if not await self.entries.players(stored.id):
            raise LobbyError("no_players", "nobody registered yet")
        self._disarm(stored.id)
        await self._begin(stored.id)

    def _arm(self, stored: StoredTournament) -> None:
        self._disarm(stored.id)
        delay = max(0.0, (_when(stored.starts_at) - datetime.now(UTC)).total_seconds())
        loop = asyncio.get_running_loop()
        self._timers[stored.id] = loop.call_later(
            delay, lambda: self._spawn(self._begin(stored.id))
        )

    def _disarm(self, tournament_id: str) -> None:
        handle = self._timers.pop(tournament_id, None)
        if handle is not None:
            handle.cancel()

    async def _begin(self, tournament_id: str) -> None:
        """The start time: the first series, or the end if nobody registered."""
        self._timers.pop(tournament_id, None)
        async with self._lock(tournament_id):
            stored = await self.records.load(tournament_id)
            if stored is None or stored.status != "open":
                return
            if not await self.entries.players(tournament_id):
                await self.entries.set_status(tournament_id, "cancelled", was="open")
            elif await self.entries.set_status(tournament_id, "running", was="open"):
                await self._series(stored, 1)
        await self.watch.refresh(tournament_id)

    async def _series(self, stored: StoredTournament, series: int) -> None:
        """Draw the seats of `series` and open all its tables together (unless another
        process drew it already)."""
        if not await self.entries.claim_series(stored.id, series):
            return
        params = stored.params
        people = await self.entries.players(stored.id)
        ids = {name: user_id for user_id, name in people}
        level = str(params["bot_level"])
        size = int(params["table_size"])
        rng = random.Random(secrets.randbits(64))
        if series > 1 and params.get("partners") == "fixed":
            first = [t.seats for t in await self.entries.tables(stored.id) if t.series == 1]
            tables = pairs_again(first, rng)
        elif params.get("partners") == "fixed":
            pairs = await self.entries.pairs(stored.id)
            paired = {name for pair in pairs for name in pair}
            tables = draw_teams(pairs, [n for n in ids if n not in paired], level, rng)
        else:
            sizes = table_sizes(len(people), size, fill=bool(params["fill_bots"]))
            tables = draw(list(ids), sizes, level, rng)
        for seats in tables:
            rules, length = _table_rules(stored, len(seats))
            players = [
                Player(None, BOT_PREFIX + level, level)
                if name.startswith(BOT_PREFIX)
                else Player(ids[name], name)
                for name in seats
            ]
            table_id = await self.lobby.open_drawn(stored.id, stored.game, rules, length, players)
            await self.entries.add_table(stored.id, SeriesTable(table_id, series, seats))
            for seat, name in enumerate(seats):
                if name in ids:
                    notice = TournamentSeat(
                        tournament=stored.id, series=series, table=table_id, seat=seat
                    )
                    self.deliver(ids[name], notice)
        log.info("tournament series started", extra={"tournament": stored.id, "series": series})

    async def _progress(self, tournament_id: str) -> None:
        """After a game: the standings; the next series or the end once every table of this
        one has ended its list."""
        async with self._lock(tournament_id):
            stored = await self.records.load(tournament_id)
            if stored is None or stored.status != "running":
                return
            drawn = await self.entries.tables(tournament_id)
            results = await self.entries.results(tournament_id)
            rows = standings(stored.game, [(t.seats, results.get(t.table_id, [])) for t in drawn])
            played = sum(len(r) for r in results.values())
            await self.entries.save_standings(tournament_id, played, rows)
            series = max((t.series for t in drawn), default=0)
            _, length = _table_rules(stored, int(stored.params["table_size"]))
            current = [t for t in drawn if t.series == series]
            if all(len(results.get(t.table_id, [])) >= length for t in current):
                if series < int(stored.params["series"]):
                    await self._series(stored, series + 1)
                else:
                    await self.entries.set_status(tournament_id, "finished", was="running")
        await self.watch.refresh(tournament_id)

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(log_failure)


def _account(user: StoredUser, what: str) -> None:
    if user.kind == "guest":
        raise LobbyError("account_required", f"guests cannot {what}: register first")


def _open(stored: StoredTournament) -> None:
    if stored.status != "open":
        raise LobbyError("registration_closed", f"the tournament is {stored.status}")
