"""A process pool for bot decisions that an asyncio server can lean on.

Tables never run a policy on the event loop: they `await pool.decide(...)`, which sends the
observation to a worker process (observations are msgspec structs and pickle) and waits for the
decision without blocking. Policies are looked up by name in the worker via `bots.registry`,
so nothing but data crosses the pipe. If the worker crashes, raises, or misses the deadline,
the caller gets the fallback policy's decision at once and a hung or dead worker is killed and
replaced: a bad bot can slow one move down to its deadline, never stall a table.

The same workers run other work (`bots.tasks`, e.g. a step of a deal analysis) through `run`,
but only when no play decision waits for a worker: play always goes first, and a task keeps
a worker for one step only.
"""

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from bots.policy import Decision
from bots.registry import policy, warm_up
from bots.solver_cache import keep_fresh
from bots.tasks import run_task
from engine.rng import make_rng

__all__ = ["TASK", "BotPool", "Decider", "PoolStats", "TaskFailed"]

Request = tuple[str, str, Any, int]  # game (or TASK), policy (or task) name, payload, seed
TASK = "task"
KILL_WAIT_SECONDS = 1.0


def _serve(conn: Connection, warm: bool) -> None:
    """Worker main loop: warm up, say ready, then one request at a time until the pipe closes.

    Warming up (loading, on a machine's very first start compiling, the solver) happens
    before "ready", so a worker only takes decisions once it can answer within a deadline:
    a worker killed for lateness while compiling would never finish compiling.
    """
    keep_fresh()  # before any policy may load the solver
    if warm:
        warm_up()
    conn.send(("ready", None))
    while True:
        try:
            game, name, observation, seed = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if game == TASK:
                answer = run_task(name, observation, seed)
            else:
                answer = policy(game, name)(observation, make_rng(seed))
        except Exception as error:  # a policy bug must not kill the worker
            conn.send(("error", repr(error)))
        else:
            conn.send(("ok", answer))


class Decider(Protocol):
    """What a table needs from bots: `BotPool`, or the server's remote workers in front of one."""

    @property
    def size(self) -> int: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def decide(
        self, game: str, policy_name: str, observation: Any, seed: int, deadline: float
    ) -> Decision[Any]: ...


class _WorkerLost(Exception):
    """The worker's pipe closed: the process died."""


class TaskFailed(Exception):
    """A task raised in its worker, or its worker died or missed the deadline."""


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection


@dataclass
class PoolStats:
    """Counters for metrics: decisions answered, how many by the fallback, workers replaced,
    and the summed decision latency in seconds."""

    decisions: int = 0
    fallbacks: int = 0
    replaced: int = 0
    latency_seconds: float = 0.0


class BotPool:
    """Worker processes answering `decide`; `start` before use, `close` at the end.

    Args:
        workers: number of processes; 0 means one per core.
        fallback: policy name that answers when a worker fails or is late.
        on_latency: called with each decision's latency in seconds (for metrics).
        warm_up: load what the strong bots need in each worker before it takes decisions
            (`bots.registry.warm_up`); off for pools that serve only cheap bots.
    """

    def __init__(
        self,
        workers: int = 0,
        *,
        fallback: str = "random",
        on_latency: Callable[[float], None] | None = None,
        warm_up: bool = True,
    ) -> None:
        self.size = workers or os.cpu_count() or 1
        self.warm_up = warm_up
        self.fallback = fallback
        self.stats = PoolStats()
        self._on_latency = on_latency
        self._context = multiprocessing.get_context("spawn")
        # The worker freed last is taken first: a seat's next decision (the next bid, the
        # skat, the discard, the declaration) then usually finds its hand's valuation and
        # solved worlds in that worker's caches (bots.skat.score_bidding, bots.skat.expected).
        self._idle: asyncio.LifoQueue[_Worker] = asyncio.LifoQueue()
        self._workers: list[_Worker] = []
        self._respawning: set[asyncio.Task[None]] = set()
        self._deciding = 0  # decisions waiting for a worker: tasks wait while any do
        self._freed = asyncio.Event()  # a worker became idle

    async def start(self) -> None:
        """Spawn the workers (in a thread: spawning takes a moment per process, warming up
        a few seconds with a warm numba cache, up to a minute on a machine's first start)."""
        for _ in range(self.size):
            worker = await asyncio.to_thread(self._spawn)
            self._release(worker)

    async def close(self) -> None:
        """Stop every worker."""
        for task in list(self._respawning):
            task.cancel()
        for worker in list(self._workers):
            self._kill(worker)
        self._workers.clear()

    async def decide(
        self, game: str, policy_name: str, observation: Any, seed: int, deadline: float
    ) -> Decision[Any]:
        """The decision of `policy_name` for `observation`, or the fallback's if no worker
        answers within `deadline` seconds (waiting for a free worker counts)."""
        started = time.perf_counter()
        request: Request = (game, policy_name, observation, seed)
        worker: _Worker | None = None
        decision: Decision[Any] | None = None
        try:
            async with asyncio.timeout(deadline):
                self._deciding += 1
                try:
                    worker = await self._idle.get()
                finally:
                    self._deciding -= 1
                decision = await self._ask(worker, request)
        except (TimeoutError, _WorkerLost):
            if worker is not None:
                self._replace(worker)
                worker = None
        if worker is not None:
            self._release(worker)
        if decision is None:
            self.stats.fallbacks += 1
            decision = policy(game, self.fallback)(observation, make_rng(seed))
        elapsed = time.perf_counter() - started
        self.stats.decisions += 1
        self.stats.latency_seconds += elapsed
        if self._on_latency is not None:
            self._on_latency(elapsed)
        return decision

    async def run(self, task: str, payload: Any, seed: int, deadline: float) -> Any:
        """The result of task `task` (`bots.tasks`) on `payload`, from the first worker that
        is idle while no play decision waits. `deadline` counts from when a worker is taken;
        raises TaskFailed if the task raised, its worker died or missed the deadline (then
        the worker is replaced)."""
        worker = await self._worker_for_task()
        try:
            async with asyncio.timeout(deadline):
                status, answer = await self._exchange(worker, (TASK, task, payload, seed))
        except (TimeoutError, _WorkerLost) as error:
            self._replace(worker)
            raise TaskFailed(f"task {task} lost its worker") from error
        self._release(worker)
        if status != "ok":
            raise TaskFailed(f"task {task} failed: {answer}")
        return answer

    async def _worker_for_task(self) -> _Worker:
        """An idle worker, taken only when no decision is waiting for one."""
        while self._deciding or self._idle.empty():
            self._freed.clear()
            await self._freed.wait()
        return self._idle.get_nowait()

    def _release(self, worker: _Worker) -> None:
        """Make `worker` idle: a waiting decision takes it first, else a waiting task."""
        self._idle.put_nowait(worker)
        self._freed.set()

    async def _ask(self, worker: _Worker, request: Request) -> Decision[Any] | None:
        """Send `request` to `worker` and await its answer (None if the policy raised)."""
        status, payload = await self._exchange(worker, request)
        if status != "ok":
            return None
        if not isinstance(payload, Decision):
            return None
        return payload

    async def _exchange(self, worker: _Worker, request: Request) -> tuple[str, Any]:
        """Send `request` to `worker` and await its (status, payload) answer."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[str, Any]] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(worker.conn.recv())
            except (EOFError, OSError):
                answer.set_exception(_WorkerLost())

        loop.add_reader(fd, readable)
        try:
            worker.conn.send(request)
            return await answer
        except (BrokenPipeError, OSError) as error:
            raise _WorkerLost() from error
        finally:
            loop.remove_reader(fd)

    def _spawn(self) -> _Worker:
        """Start a worker and wait until it has imported the bots (blocking: run in a thread)."""
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child, self.warm_up), daemon=True)
        process.start()
        child.close()
        parent.recv()  # ("ready", None)
        worker = _Worker(process, parent)
        self._workers.append(worker)
        return worker

    async def _respawn(self) -> None:
        self._release(await asyncio.to_thread(self._spawn))

    def _kill(self, worker: _Worker) -> None:
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(KILL_WAIT_SECONDS)
        if worker in self._workers:
            self._workers.remove(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill a hung or dead worker and put a fresh one in its place."""
        self._kill(worker)
        self.stats.replaced += 1
        task = asyncio.create_task(self._respawn())
        self._respawning.add(task)
        task.add_done_callback(self._respawning.discard)
