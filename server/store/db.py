"""The store: one async SQLAlchemy engine behind the few operations the server needs.

Appends go through a single writer that commits whatever is queued in one transaction (group
commit, `server/store/group_commit.py`), gathered for `GROUP_SECONDS`: many tables share one
commit (its fixed cost and the writer's waking), and a table's `append` returns only when its
events are durable. Only then does the table tell anyone (persist, then tell). If a shared
transaction fails, the writer retries each append alone so one bad batch cannot fail its
neighbours.
"""

import logging
import secrets
from collections.abc import (
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    Sequence,
)
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import (
    Engine,
    Executable,
    Insert,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from server.events import Append, Seated, TableEvent, decode_event
from server.identity import hash_token, new_token
from server.names import skeleton
from server.plain import Plain
from server.ratings import ORDINAL_SIGMAS, ordinal
from server.store.analyses import load_analysis, save_analysis
from server.store.group_commit import InLoop, InThread
from server.store.leases import Leases
from server.store.log import StoredTable, read_events
from server.store.models import (
    game_events,
    games,
    ratings,
    sessions,
    tables,
    users,
)
from server.store.profiles import load_profile
from server.store.replays import DealLog, deal_log
from server.store.social import SocialStore
from server.store.sqlite import immediate_transactions, sqlite_pragmas
from server.store.tournaments import Tournaments
from server.store.users import StoredUser
from server.store.writer import write

__all__ = [
    "NameTaken",
    "NewTable",
    "Store",
    "StoredTable",
    "TableAccess",
    "read_events",
]

log = logging.getLogger(__name__)
GUEST_NAME_BYTES = 4


class NameTaken(Exception):
    """An account name that exists already."""


class TableAccess(msgspec.Struct, frozen=True):
    """Who may see a table: public tables everybody; a private one those who know its
    `invite` and the users who ever sat at it (`players`)."""

    private: bool
    invite: str | None
    players: frozenset[int]


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _now() -> datetime:
    return datetime.now(UTC)


class NewTable(msgspec.Struct, frozen=True):
    """A table row to create with the first commit of its games (tournaments)."""

    game: str
    options: dict[str, Any]  # the table's options as JSON (msgspec decodes no recursive alias)
    tournament: str | None = None


def _new_table(
    table_id: str,
    game: str,
    options: Plain,
    tournament: str | None = None,
    lease: Mapping[str, object] | None = None,
) -> Insert:
    return insert(tables).values(
        id=table_id,
        game=game,
        config=_json(options),
        status="waiting",
        created_at=_now(),
        tournament_id=tournament,
        **(lease or {}),
    )


class Store:
    """Persistence for one server process. Call `start` before `append`, `close` at the end.

    With a `node`, every append is fenced: it commits only for tables that node owns.
    """

    def __init__(self, engine: AsyncEngine, node: str | None = None) -> None:
        self.engine = engine  # for server/store and tests only (tests/test_layers.py)
        self.node = node
        self.tournaments = Tournaments(engine)
        self.social = SocialStore(engine)
        self._sync_engine: Engine | None = None
        self._writer: InThread | InLoop
        if engine.dialect.name == "sqlite":
            self._sync_engine = create_engine(engine.url.set(drivername="sqlite"))
            event.listen(self._sync_engine, "connect", sqlite_pragmas)
            immediate_transactions(self._sync_engine)
            self._writer = InThread(self._sync_engine, node)
        else:
            self._writer = InLoop(engine, node)

    @classmethod
    def connect(cls, url: str, node: str | None = None) -> "Store":
        """A store on `url`. SQLite runs in WAL mode with synchronous=NORMAL: a commit survives
        the process being killed at any moment (a power cut may lose the last commits)."""
        engine = create_async_engine(url, pool_pre_ping=False)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", sqlite_pragmas)
        return cls(engine, node)

    def leases(self, node: str, seconds: float) -> Leases:
        """The table leases of process `node`, each lasting `seconds`."""
        return Leases(self.engine, node, seconds)

    @property
    def commits(self) -> int:
        """Group commits so far in which every append landed."""
        return self._writer.commits

    def start(self) -> None:
        self._writer.start()

    async def close(self) -> None:
        """Finish queued appends, then release the connections."""
        await self._writer.close()
        await self.engine.dispose()
        if self._sync_engine is not None:
            self._sync_engine.dispose()

    # --- identity --------------------------------------------------------------------

    async def new_guest(self, prefix: str = "guest-") -> StoredUser:
        """A guest user with a server-chosen name: `prefix` and random hex digits."""
        async with self.engine.begin() as conn:
            name = f"{prefix}{secrets.token_hex(GUEST_NAME_BYTES)}"
            now = _now()
            result = await conn.execute(
                insert(users).values(
                    name=name, name_key=skeleton(name), kind="guest", created_at=now, seen_at=now
                )
            )
            return StoredUser(int(result.inserted_primary_key[0]), name, "guest")

    async def saw_guests(self, user_ids: Iterable[int]) -> None:
        """The guests `user_ids` are around now (back with their token, or connected): they
        are not idle (`delete_idle_guests`)."""
        ids = sorted(set(user_ids))
        if not ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(update(users).where(users.c.id.in_(ids)).values(seen_at=_now()))

    async def delete_idle_guests(self, before: datetime) -> int:
        """Delete the guests who never took a seat and were last seen before `before`, with
        their sessions; returns how many. Nothing else refers to a guest who never sat."""
        idle = select(users.c.id).where(
            users.c.kind == "guest", users.c.played_at.is_(None), users.c.seen_at < before
        )
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.user_id.in_(idle)))
            deleted = await conn.execute(delete(users).where(users.c.id.in_(idle)))
        return int(deleted.rowcount)

    async def new_account(
        self, name: str, password_hash: str, guest: int | None = None
    ) -> StoredUser:
        """An account called `name` (a checked name, server/names.py); raises NameTaken when
        it looks like a name in use. Given the id of a `guest`, that guest becomes the account
        (same id: his seats, games and ratings are the account's), so he may register under
        the name he plays as; his guest sessions end (only the password opens the account)."""
        values = {"name": name, "name_key": skeleton(name), "password_hash": password_hash}
        try:
            async with self.engine.begin() as conn:
                if guest is not None:
                    changed = await conn.execute(
                        update(users)
                        .where(users.c.id == guest, users.c.kind == "guest")
                        .values(kind="account", **values)
                    )
                    if changed.rowcount == 1:  # the guest's tokens open no account
                        await conn.execute(delete(sessions).where(sessions.c.user_id == guest))
                        return StoredUser(guest, name, "account")
                result = await conn.execute(
                    insert(users).values(kind="account", created_at=_now(), **values)
                )
        except IntegrityError as error:
            raise NameTaken(name) from error
        return StoredUser(int(result.inserted_primary_key[0]), name, "account")

    async def rename_guest(self, user_id: int, name: str) -> StoredUser:
        """Give the guest `user_id` the (checked) name `name`; raises NameTaken when it looks
        like another user's."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    update(users)
                    .where(users.c.id == user_id, users.c.kind == "guest")
                    .values(name=name, name_key=skeleton(name))
                )
        except IntegrityError as error:
            raise NameTaken(name) from error
        return StoredUser(user_id, name, "guest")

    async def account(self, name: str) -> tuple[StoredUser, str] | None:
        """The account whose name looks like `name` and its password hash. Found by the
        skeleton, as uniqueness is decided (server/names.py): 'jürgen müller' logs in to
        'Jürgen Müller', the one account that name can belong to."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users.c.id, users.c.name, users.c.password_hash).where(
                        users.c.name_key == skeleton(name), users.c.kind == "account"
                    )
                )
            ).first()
        if row is None:
            return None
        return StoredUser(row.id, row.name, "account"), row.password_hash

    async def new_session(self, user_id: int) -> str:
        """A session token for `user_id` (only its hash is stored)."""
        token = new_token()
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=hash_token(token), user_id=user_id, created_at=_now()
                )
            )
        return token

    async def user_for_token(self, token: str) -> StoredUser | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users.c.id, users.c.name, users.c.kind)
                    .join(sessions, sessions.c.user_id == users.c.id)
                    .where(sessions.c.token_hash == hash_token(token))
                )
            ).first()
        return None if row is None else StoredUser(row.id, row.name, row.kind)

    # --- tables ----------------------------------------------------------------------

    async def has_events(self, table_id: str, first_seq: int, count: int) -> bool:
        """Whether the events `first_seq .. first_seq + count - 1` of the table are stored
        (an append whose commit was acknowledged by the database but not to us)."""
        async with self.engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(func.count())
                    .select_from(game_events)
                    .where(
                        game_events.c.table_id == table_id,
                        game_events.c.seq >= first_seq,
                        game_events.c.seq < first_seq + count,
                    )
                )
            ).scalar_one()
        return bool(stored == count)

    async def create_table(
        self,
        table_id: str,
        game: str,
        options: Plain,
        lease: Mapping[str, object] | None = None,
    ) -> None:
        """A new live table; `lease` (`Leases.new_lease`) makes this process its owner."""
        async with self.engine.begin() as conn:
            await conn.execute(_new_table(table_id, game, options, lease=lease))

    async def commit_now(
        self,
        table_id: str,
        batch: Append,
        *,
        new_table: NewTable | None = None,
        also: Sequence[Executable] = (),
    ) -> None:
        """Commit `batch` in a transaction of its own, creating the table first when
        `new_table` is given and running the statements `also` with it. A tournament writes
        each finished game this way (with its standings): the game, its events and its
        projections land together or not at all, so a killed run never leaves half a game."""
        async with self.engine.begin() as conn:
            if new_table is not None:
                await conn.execute(
                    _new_table(table_id, new_table.game, new_table.options, new_table.tournament)
                )
            await conn.run_sync(write, self.node, [(table_id, batch)])
            for statement in also:
                await conn.execute(statement)

    async def tournament_table(self, table_id: str) -> StoredTable | None:
        """A tournament's table with its events so far (for spectators), or None."""
        async with self.engine.connect() as conn:
            config = await conn.scalar(
                select(tables.c.config).where(
                    tables.c.id == table_id, tables.c.tournament_id.is_not(None)
                )
            )
            if config is None:
                return None
            return StoredTable(msgspec.json.decode(config), await read_events(conn, table_id))

    async def events_after(
        self, table_id: str, seq: int, limit: int | None = None
    ) -> list[tuple[int, TableEvent]]:
        """The table's committed events after `seq`, in order (at most `limit`)."""
        async with self.engine.connect() as conn:
            return await read_events(conn, table_id, seq, limit)

    async def game_log(self, table_id: str, number: int) -> DealLog | None:
        """The log of game `number` of the table's list if it finished
        (`server/store/replays.py`), else None."""
        return await deal_log(self.engine, table_id, number)

    async def analysis(self, table_id: str, number: int) -> str | None:
        """The stored analysis (JSON) of game `number` (`server/store/analyses.py`), or None."""
        return await load_analysis(self.engine, table_id, number)

    async def keep_analysis(self, table_id: str, number: int, analysis: str) -> None:
        """Store the analysis of game `number`; one stored meanwhile stays."""
        await save_analysis(self.engine, table_id, number, analysis)

    async def profile(self, name: str, may_see: Callable[[str], Awaitable[bool]]) -> Plain | None:
        """A player's profile (`server/store/profiles.py`); None: no such player."""
        return await load_profile(self.engine, name, may_see)

    async def append(self, table_id: str, batch: Append) -> None:
        """Commit `batch` (events and projections); returns once it is durable."""
        await self._writer.append(table_id, batch)

    # --- reading results -------------------------------------------------------------

    async def record(self, table_id: str, number: int) -> str | None:
        """The game record of deal `number` of a table, if it finished and has one."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(games.c.record).where(games.c.table_id == table_id, games.c.number == number)
            )
        return None if found is None else str(found)

    async def table_access(self, table_id: str) -> TableAccess | None:
        """Who may see the table `table_id` (None: no such table). Its players are read from
        its `seated` events, so a player who left mid-list still counts."""
        async with self.engine.connect() as conn:
            config = await conn.scalar(select(tables.c.config).where(tables.c.id == table_id))
            if config is None:
                return None
            options = msgspec.json.decode(config)
            if not options.get("private"):
                return TableAccess(False, None, frozenset())
            seated = await conn.execute(
                select(game_events.c.payload, game_events.c.version).where(
                    game_events.c.table_id == table_id, game_events.c.kind == "seated"
                )
            )
            players = set()
            for row in seated:
                event = decode_event(row.payload, row.version)
                if isinstance(event, Seated) and event.player.user_id is not None:
                    players.add(event.player.user_id)
        return TableAccess(True, options.get("invite"), frozenset(players))

    async def leaderboard(self, game: str, limit: int = 50, *, people: bool = False) -> list[Plain]:
        """The best rated players of `game` by ordinal (mu - 3 sigma); with `people` only
        users with an account (no bot, no guest)."""
        score = ratings.c.mu - ORDINAL_SIGMAS * ratings.c.sigma
        query = (
            select(
                users.c.name,
                users.c.kind,
                ratings.c.bot,
                ratings.c.mu,
                ratings.c.sigma,
                ratings.c.lists,
            )
            .join(users, users.c.id == ratings.c.user_id)
            .where(ratings.c.game == game)
            .order_by(score.desc())
            .limit(limit)
        )
        if people:
            query = query.where(users.c.kind == "account", ratings.c.bot.is_(False))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "name": r.name,
                "bot": bool(r.bot),
                "guest": r.kind == "guest",
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": ordinal((r.mu, r.sigma)),
                "lists": r.lists,
            }
            for r in rows
        ]
