"""The store: one async SQLAlchemy engine behind the few operations the server needs.

Appends go through a single writer task that commits whatever is queued in one transaction
(group commit): under load many tables share one commit, and a table's `append` returns only
when its events are durable. Only then does the table tell anyone (persist, then tell). If a
shared transaction fails, the writer retries each append alone so one bad batch cannot fail
its neighbours.
"""

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import Executable, event, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from server.events import EVENT_VERSION, Append, TableEvent, decode_event, encode_event
from server.identity import hash_token, new_token
from server.ratings import ORDINAL_SIGMAS, ordinal
from server.store.models import (
    game_events,
    games,
    ratings,
    sessions,
    tables,
    users,
)
from server.store.results import record_list

__all__ = [
    "LeaseLost",
    "NameTaken",
    "NewTable",
    "Store",
    "StoredTable",
    "StoredUser",
    "is_unavailable",
    "read_events",
    "unless_unavailable",
]

log = logging.getLogger(__name__)
GUEST_NAME_BYTES = 4


class NameTaken(Exception):
    """An account name that exists already."""


class LeaseLost(Exception):
    """An append to tables this process no longer owns (another took them over): nothing of
    it was committed, and the table must stop here (`server/store/leases.py`)."""

    def __init__(self, table_ids: set[str]) -> None:
        super().__init__(f"tables owned by another process now: {sorted(table_ids)}")
        self.table_ids = table_ids


def is_unavailable(error: BaseException) -> bool:
    """Whether `error` means the database cannot be reached now (down, restarting, the
    connection lost, SQLite locked) rather than that the request was wrong: the same write
    may succeed later, so callers hold or reject with `store_unavailable`, never give up."""
    if isinstance(error, DBAPIError):
        # SQLSTATE class 08: connection exceptions; 57P0x: shutting down, restarting, or
        # "the database system is starting up".
        state = str(getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", ""))
        if error.connection_invalidated or state.startswith(("08", "57P")):
            return True
    return isinstance(error, OperationalError | InterfaceError | OSError)


@contextlib.contextmanager
def unless_unavailable(logger: logging.Logger, what: str) -> Iterator[None]:
    """Run the block; if the database is unavailable (`is_unavailable`), log that `what`
    did not happen this time and go on (the caller tries again later). Other errors rise."""
    try:
        yield
    except Exception as error:
        if not is_unavailable(error):
            raise
        logger.warning("%s: the database is unavailable (%s)", what, error)


class StoredUser(msgspec.Struct, frozen=True):
    id: int
    name: str
    kind: str  # guest, account, bot


class StoredTable(msgspec.Struct, frozen=True):
    """A table to resume: its creation options and its event log in order."""

    options: dict[str, Any]
    events: list[tuple[int, TableEvent]]


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _now() -> datetime:
    return datetime.now(UTC)


async def read_events(
    conn: AsyncConnection, table_id: str, after: int = 0, limit: int | None = None
) -> list[tuple[int, TableEvent]]:
    """The table's events after seq `after` in order (the first `limit` of them if given)."""
    rows = await conn.execute(
        select(game_events.c.seq, game_events.c.version, game_events.c.payload)
        .where(game_events.c.table_id == table_id, game_events.c.seq > after)
        .order_by(game_events.c.seq)
        .limit(limit)
    )
    return [(e.seq, decode_event(e.payload, e.version)) for e in rows]


class NewTable(msgspec.Struct, frozen=True):
    """A table row to create with the first commit of its games (tournaments)."""

    game: str
    options: dict[str, Any]
    tournament: str | None = None


def _new_table(
    table_id: str,
    game: str,
    options: dict[str, Any],
    tournament: str | None = None,
    lease: Mapping[str, object] | None = None,
) -> Any:
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
        self.engine = engine
        self.node = node
        self._queue: list[tuple[str, Append, asyncio.Future[None]]] = []
        self._wakeup = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._closing = False
        self.commits = 0

    @classmethod
    def connect(cls, url: str, node: str | None = None) -> "Store":
        """A store on `url`. SQLite runs in WAL mode with synchronous=NORMAL: a commit survives
        the process being killed at any moment (a power cut may lose the last commits)."""
        engine = create_async_engine(url, pool_pre_ping=False)
        if engine.dialect.name == "sqlite":

            @event.listens_for(engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=5000")
                cursor.close()

        return cls(engine, node)

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        """Finish queued appends, then release the connections."""
        if self._writer is not None:
            self._closing = True
            self._wakeup.set()
            await self._writer
        await self.engine.dispose()

    # --- identity --------------------------------------------------------------------

    async def new_guest(self) -> StoredUser:
        """A guest user with a server-chosen name."""
        async with self.engine.begin() as conn:
            name = f"guest-{secrets.token_hex(GUEST_NAME_BYTES)}"
            result = await conn.execute(
                insert(users).values(name=name, kind="guest", created_at=_now())
            )
            return StoredUser(int(result.inserted_primary_key[0]), name, "guest")

    async def new_account(self, name: str, password_hash: str) -> StoredUser:
        """A new account; raises NameTaken."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(
                    insert(users).values(
                        name=name, kind="account", password_hash=password_hash, created_at=_now()
                    )
                )
        except IntegrityError as error:
            raise NameTaken(name) from error
        return StoredUser(int(result.inserted_primary_key[0]), name, "account")

    async def rename_guest(self, user_id: int, name: str) -> StoredUser:
        """Give the guest `user_id` the name `name`; raises NameTaken."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    update(users)
                    .where(users.c.id == user_id, users.c.kind == "guest")
                    .values(name=name)
                )
        except IntegrityError as error:
            raise NameTaken(name) from error
        return StoredUser(user_id, name, "guest")

    async def account(self, name: str) -> tuple[StoredUser, str] | None:
        """The account called `name` and its password hash."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users.c.id, users.c.password_hash).where(
                        users.c.name == name, users.c.kind == "account"
                    )
                )
            ).first()
        if row is None:
            return None
        return StoredUser(row.id, name, "account"), row.password_hash

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
        options: dict[str, Any],
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
            await self._write(conn, [(table_id, batch, None)])
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

    async def append(self, table_id: str, batch: Append) -> None:
        """Commit `batch` (events and projections); returns once it is durable."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((table_id, batch, future))
        self._wakeup.set()
        await future

    async def _write_loop(self) -> None:
        # One connection held for the writer's life: no pool checkout and reset per commit.
        async with self.engine.connect() as conn:
            while True:
                await self._wakeup.wait()
                self._wakeup.clear()
                items, self._queue = self._queue, []
                if not items:
                    if self._closing:
                        return
                    continue
                await self._commit(conn, items)
                self._wakeup.set()  # look again: appends may have queued during the commit

    async def _commit(
        self, conn: AsyncConnection, items: list[tuple[str, Append, asyncio.Future[None]]]
    ) -> None:
        """Commit `items` in one transaction, or each alone if that fails; settle their futures."""
        try:
            async with conn.begin():
                await self._write(conn, items)
            self.commits += 1
        except Exception:
            log.warning("group commit of %d appends failed; retrying alone", len(items))
            for item in items:
                try:
                    async with conn.begin():
                        await self._write(conn, [item])
                except Exception as error:
                    if not item[2].done():
                        item[2].set_exception(error)
                else:
                    item[2].set_result(None)
            return
        for _, _, future in items:
            if not future.done():
                future.set_result(None)

    async def _fence(self, conn: AsyncConnection, table_ids: set[str]) -> None:
        """Raise LeaseLost unless this node owns every table of `table_ids`. The rows stay
        share-locked until the commit, so a takeover (an UPDATE of them) waits for it and
        then reads these events: no commit can slip in after the new owner loaded a table."""
        if self.node is None or not table_ids:
            return
        owned = set(
            await conn.scalars(
                select(tables.c.id)
                .where(tables.c.id.in_(table_ids), tables.c.owner == self.node)
                .with_for_update(read=True)
            )
        )
        if lost := table_ids - owned:
            raise LeaseLost(lost)

    async def _write(self, conn: AsyncConnection, items: Sequence[tuple[str, Append, Any]]) -> None:
        await self._fence(conn, {table_id for table_id, _, _ in items})
        now = _now()
        rows = [
            {
                "table_id": table_id,
                "seq": batch.first_seq + offset,
                "kind": type(event).__struct_config__.tag,
                "version": EVENT_VERSION,
                "payload": encode_event(event).decode(),
                "at": now,
            }
            for table_id, batch, _ in items
            for offset, event in enumerate(batch.events)
        ]
        if rows:
            await conn.execute(insert(game_events), rows)
        for table_id, batch, _ in items:
            for game in batch.games:
                await conn.execute(
                    insert(games).values(
                        table_id=table_id,
                        number=game.number,
                        result=_json(game.result),
                        record=game.record,
                        finished_at=now,
                    )
                )
            if batch.status is not None:
                await conn.execute(
                    update(tables).where(tables.c.id == table_id).values(status=batch.status)
                )
            if batch.list_over is not None:
                await record_list(conn, table_id, batch.list_over)

    # --- reading results -------------------------------------------------------------

    async def record(self, table_id: str, number: int) -> str | None:
        """The game record of deal `number` of a table, if it finished and has one."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(games.c.record).where(games.c.table_id == table_id, games.c.number == number)
            )
        return None if found is None else str(found)

    async def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best rated players of `game` by ordinal (mu - 3 sigma)."""
        score = ratings.c.mu - ORDINAL_SIGMAS * ratings.c.sigma
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        users.c.name, ratings.c.bot, ratings.c.mu, ratings.c.sigma, ratings.c.lists
                    )
                    .join(users, users.c.id == ratings.c.user_id)
                    .where(ratings.c.game == game)
                    .order_by(score.desc())
                    .limit(limit)
                )
            ).all()
        return [
            {
                "name": r.name,
                "bot": bool(r.bot),
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": ordinal((r.mu, r.sigma)),
                "lists": r.lists,
            }
            for r in rows
        ]
