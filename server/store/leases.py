"""Which server process owns which live table: table ownership leased from the database.

Why the database rather than the broker: every write of a table already goes through it, so
ownership and durability become one mechanism. Each table names its owner (`tables.owner`);
the lease is the owner's: a process is alive while it renews its row in `nodes` (`seen_at`)
at least every `lease_seconds` (it does so every third of that), so renewing costs one row
per process, not one per table. A process takes a table with a compare-and-set UPDATE (only
an unowned table or one whose owner stopped renewing), and every append checks in its own
transaction that the process still owns the table (`Store._fence`). A process that stalls past
its lease can therefore never commit after the new owner loaded the table; at worst its
clients get `moved`. The broker is not needed for correctness: the cluster keeps every
accepted move while the broker is away.

`seen_at` is Unix seconds by the writer's clock: processes on several machines keep their
clocks in step (NTP), which is plenty for leases of seconds; all use the same lease length.
"""

import time
from collections.abc import Callable

import msgspec
from sqlalchemy import Select, and_, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from server.store.log import StoredTable, read_events
from server.store.models import nodes, tables

__all__ = ["Leases", "NodeNameTaken", "Owner"]


class NodeNameTaken(Exception):
    """Another live process already uses this node name (with another URL)."""


class Owner(msgspec.Struct, frozen=True):
    """Who serves a live table: `node` (None: nobody), its client URL, whether the lease holds."""

    node: str | None
    url: str | None
    live: bool


class Leases:
    """The leases of one process, `node`, lasting `seconds`."""

    def __init__(
        self,
        engine: AsyncEngine,
        node: str,
        seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.node = node
        self.seconds = seconds
        self.url = ""  # set by `register`
        self._clock = clock

    def new_lease(self) -> dict[str, object]:
        """Column values that make this process the owner of a table being created."""
        return {"owner": self.node}

    def _alive(self, now: float) -> Select[tuple[str]]:
        """The names of the processes that renewed within the lease (a subquery)."""
        return select(nodes.c.id).where(nodes.c.seen_at > now - self.seconds)

    async def register(self, url: str) -> None:
        """Record (or refresh) where clients reach this process. Raises NodeNameTaken if a
        process of the same name but another URL renewed its leases within their length
        (two processes with one name would both think they own the same tables)."""
        now = self._clock()
        self.url = url
        async with self.engine.begin() as conn:
            other = (
                await conn.execute(
                    select(nodes.c.url, nodes.c.seen_at).where(nodes.c.id == self.node)
                )
            ).first()
            if other is not None and other.url != url and other.seen_at > now - self.seconds:
                raise NodeNameTaken(
                    f"a process named {self.node!r} serves at {other.url}; give this one "
                    "another name (TISCHRUNDE_NODE)"
                )
            done = await conn.execute(
                update(nodes).where(nodes.c.id == self.node).values(url=url, seen_at=now)
            )
            if done.rowcount == 0:
                await conn.execute(insert(nodes).values(id=self.node, url=url, seen_at=now))

    async def claim(self, *, own: bool = False, table_id: str | None = None) -> list[StoredTable]:
        """Take the live tables nobody holds (their owner stopped renewing, or released them),
        or only `table_id`, and load them; with `own`, also those this node held before a
        restart."""
        now = self._clock()
        free = [tables.c.owner.is_(None), tables.c.owner.not_in(self._alive(now))]
        if own:
            free.append(tables.c.owner == self.node)
        condition = and_(
            tables.c.status != "finished", tables.c.tournament_id.is_(None), or_(*free)
        )
        if table_id is not None:
            condition = and_(condition, tables.c.id == table_id)
        async with self.engine.begin() as conn:
            claimed = await conn.execute(
                update(tables)
                .where(condition)
                .values(owner=self.node)
                .returning(tables.c.id, tables.c.config, tables.c.created_at)
            )
            rows = sorted(claimed, key=lambda row: row.created_at)
            return [
                StoredTable(msgspec.json.decode(row.config), await read_events(conn, row.id))
                for row in rows
            ]

    async def renew(self) -> set[str]:
        """Renew this node's lease; returns the unfinished tables it still owns."""
        now = self._clock()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(nodes).where(nodes.c.id == self.node).values(seen_at=now)
            )
            if done.rowcount == 0:  # the row was removed (by hand?): without it we look dead
                await conn.execute(insert(nodes).values(id=self.node, url=self.url, seen_at=now))
            owned = await conn.scalars(
                select(tables.c.id).where(
                    tables.c.owner == self.node, tables.c.status != "finished"
                )
            )
            return set(owned)

    async def release(self) -> None:
        """Give up every table at once (a graceful stop): another process takes them as soon
        as it looks, and clients resuming there need not wait for a lease to run out."""
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.owner == self.node).values(owner=None))
            await conn.execute(delete(nodes).where(nodes.c.id == self.node))

    async def live(self, table_ids: set[str]) -> set[str]:
        """Those of `table_ids` that are unfinished live tables some live process holds."""
        async with self.engine.connect() as conn:
            found = await conn.scalars(
                select(tables.c.id).where(
                    tables.c.id.in_(table_ids),
                    tables.c.status != "finished",
                    tables.c.owner.in_(self._alive(self._clock())),
                )
            )
            return set(found)

    async def owner(self, table_id: str) -> Owner | None:
        """Who serves the live table `table_id`; None if there is no such unfinished table."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(tables.c.owner, nodes.c.url, nodes.c.seen_at)
                    .outerjoin(nodes, nodes.c.id == tables.c.owner)
                    .where(
                        tables.c.id == table_id,
                        tables.c.status != "finished",
                        tables.c.tournament_id.is_(None),
                    )
                )
            ).first()
        if row is None:
            return None
        live = row.seen_at is not None and row.seen_at > self._clock() - self.seconds
        return Owner(row.owner, row.url, live)
