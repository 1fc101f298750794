"""The group commit: appends of many tables gathered for a while and committed in one
transaction (`writer.commit_group`); each `append` returns once its events are durable.

The while is `GROUP_SECONDS` (10 ms), or `BUSY_GROUP_SECONDS` (25 ms) after a commit that
carried `BUSY_APPENDS` appends or more: under load (about 300 moves a second and more) a
commit's fixed cost, mostly the wakings below, is shared by more moves, and a move is told
up to 25 ms after it was made; a quiet server keeps the shorter wait. The busy wait holds
while the load stays above about 120 moves a second (three appends in 25 ms).

SQLite's commits run in a thread of their own with the synchronous driver (through aiosqlite
every statement would be a hand-over, several per commit), and that thread does the gathering
too: it sleeps its gathering, commits what is queued and sleeps again, and waits for a first
append only when it found nothing. Under load a commit so costs two wakings from idle (the
thread's sleep ending, the event loop's hearing the outcome) instead of three (the loop's
timer, the hand-over to the thread, its answer): on a virtual machine each costs 100-250 us
of CPU, more than the commit's own statements. Other databases commit in the event loop,
gathered by a task.
"""

import asyncio
import collections
import logging
import threading
import time

from sqlalchemy import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from server.events import Append
from server.store.writer import commit_group

__all__ = ["BUSY_APPENDS", "BUSY_GROUP_SECONDS", "GROUP_SECONDS", "InLoop", "InThread"]

log = logging.getLogger(__name__)
GROUP_SECONDS = 0.010  # how long a commit gathers appends (a move's latency grows by this)
BUSY_GROUP_SECONDS = 0.025  # ... after a commit of `BUSY_APPENDS` appends or more
BUSY_APPENDS = 3
RESTART_SECONDS = 1.0  # how long a failed writer waits before it connects again

_Item = tuple[str, Append, "asyncio.Future[None]"]


class _Gathered:
    """The queue of appends and the settling of their futures, shared by both ways."""

    def __init__(self, node: str | None) -> None:
        self.node = node
        self.commits = 0  # commits in which every append landed
        self.window = GROUP_SECONDS  # how long the next commit gathers
        self._queue: collections.deque[_Item] = collections.deque()
        self._closing = False

    async def append(self, table_id: str, batch: Append) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((table_id, batch, future))
        self._wake()
        await future

    def _wake(self) -> None:
        raise NotImplementedError

    def _take(self) -> list[_Item]:
        """Everything queued (the queue's own pops: appends may come from another thread)."""
        items = []
        while self._queue:
            items.append(self._queue.popleft())
        return items

    def _commit(self, conn: Connection, items: list[_Item]) -> list[Exception | None]:
        return commit_group(conn, self.node, [(table_id, batch) for table_id, batch, _ in items])

    def _fail_queued(self, error: Exception) -> None:
        """The writer lost its connection or could not open one: what is queued fails with
        `error` (a table holds and retries while the database is away) instead of waiting
        for ever, and the writer connects again."""
        items = self._take()
        self._settle(items, [error] * len(items))

    def _next_window(self, appends: int) -> None:
        """How long the next commit gathers, after one of `appends` appends: the longer
        while commits carry many."""
        self.window = BUSY_GROUP_SECONDS if appends >= BUSY_APPENDS else GROUP_SECONDS

    def _settle(self, items: list[_Item], outcomes: list[Exception | None]) -> None:
        self.commits += all(outcome is None for outcome in outcomes)
        for (_, _, future), outcome in zip(items, outcomes, strict=True):
            if future.done():
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)


class InThread(_Gathered):
    """SQLite: gathering and commits in the writer's thread, on the one connection it holds."""

    def __init__(self, engine: Engine, node: str | None) -> None:
        super().__init__(node)
        self._engine = engine
        self._ready = threading.Event()  # set by an append while the thread may wait for one
        self._closed = threading.Event()  # set by `close`: ends the wait before a reconnect
        self._stopped: asyncio.Future[None] | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._stopped = loop.create_future()
        thread = threading.Thread(target=self._run, args=(loop,), name="store-writer", daemon=True)
        thread.start()

    async def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        if self._stopped is not None:
            self._closing = True
            self._ready.set()
            self._closed.set()
            await self._stopped

    def _wake(self) -> None:
        if not self._ready.is_set():
            self._ready.set()

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                with self._engine.connect() as conn:
                    self._gather(conn, loop)
                break
            except Exception as error:
                log.exception("the store's writer failed; it connects again")
                loop.call_soon_threadsafe(self._fail_queued, error)
                if self._closing:
                    break
                self._closed.wait(RESTART_SECONDS)  # `close` tries once more, at once
        assert self._stopped is not None
        loop.call_soon_threadsafe(self._stopped.set_result, None)

    def _gather(self, conn: Connection, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            if not self._closing:
                time.sleep(self.window)
            items = self._take()
            self._next_window(len(items))
            if items:
                loop.call_soon_threadsafe(self._settle, items, self._commit(conn, items))
                continue
            if self._closing:
                return
            self._ready.clear()
            if not self._queue:  # an append after the clear sets it again
                self._ready.wait()


class InLoop(_Gathered):
    """Other databases: a task gathers, the commit runs in the event loop."""

    def __init__(self, engine: AsyncEngine, node: str | None) -> None:
        super().__init__(node)
        self._engine = engine
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="store-writer")

    async def close(self) -> None:
        """Commit what is queued, then stop the task."""
        if self._task is not None:
            self._closing = True
            self._wakeup.set()
            await self._task

    def _wake(self) -> None:
        self._wakeup.set()

    async def _run(self) -> None:
        while True:
            try:
                await self._gather()
                return
            except Exception as error:
                log.exception("the store's writer failed; it connects again")
                self._fail_queued(error)
                if self._closing:
                    return
                await asyncio.sleep(RESTART_SECONDS)

    async def _gather(self) -> None:
        async with self._engine.connect() as conn:
            while True:
                await self._wakeup.wait()
                if not self._closing:
                    await asyncio.sleep(self.window)
                self._wakeup.clear()
                items = self._take()
                self._next_window(len(items))
                if items:
                    self._settle(items, await conn.run_sync(self._commit, items))
                elif self._closing:
                    return
                if self._closing:
                    self._wakeup.set()  # look again until nothing is left
