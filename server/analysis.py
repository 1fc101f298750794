"""Deal analyses on request: computed in the bot pool step by step, stored once, shared.

An `analyze` request (or, with `analyze_finished`, the end of every Skat deal) starts the
analysis of a finished deal unless it is stored or under way: several requests for the same
deal share one computation, each listener hears every step's progress and the result. The
steps run in the bot pool's workers (`bots.tasks`: the solver never loads in this process),
one at a time and only while no play decision waits (`BotPool.run`), so play keeps its
workers. A user may have `analysis_per_user` analyses under way at once.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from bots.pool import BotPool, TaskFailed
from engine.skat.state import State as SkatState
from server.games import game_kind
from server.lobby import LobbyError
from server.settings import Settings
from server.store.db import Store
from server.store.replays import DealLog
from server.tasks import cancel

__all__ = ["Analyses", "Done", "Progress"]

log = logging.getLogger(__name__)
SEED = 0  # one analysis per deal: the same for everybody, whoever asks first


@dataclass(frozen=True)
class Progress:
    done: int
    total: int


@dataclass(frozen=True)
class Done:
    """The analysis as JSON, or None when it failed (`error` says why)."""

    analysis: str | None
    error: str = ""


Listener = Callable[[Progress | Done], None]


@dataclass
class _Job:
    listeners: list[Listener] = field(default_factory=list)
    users: set[int] = field(default_factory=set)
    progress: Progress | None = None
    task: "asyncio.Task[None] | None" = None

    def tell(self, update: Progress | Done) -> None:
        for listener in self.listeners:
            listener(update)


class Analyses:
    """The analyses this process computes; `close` cancels the ones under way."""

    def __init__(self, store: Store, pool: BotPool, settings: Settings) -> None:
        self.store = store
        self.pool = pool
        self.settings = settings
        self.budget = (settings.analysis_card_worlds, settings.analysis_skat_worlds)
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._started: set[asyncio.Task[None]] = set()

    async def request(
        self, table_id: str, number: int, user_id: int | None, listener: Listener
    ) -> str | None:
        """The stored analysis of the deal, or None after starting (or joining) its
        computation, which tells `listener`. Raises LobbyError `no_such_record` for a deal
        that is not a finished Skat deal, `analysis_limit` for a user with too many under
        way. Whether the asker may see the deal is the caller's check."""
        stored = await self.store.analysis(table_id, number)
        if stored is not None:
            return stored
        key = (table_id, number)
        job = self._jobs.get(key)
        limit = self.settings.analysis_per_user
        joins = job is not None and user_id in job.users
        if user_id is not None and not joins and self.under_way(user_id) >= limit:
            raise LobbyError("analysis_limit", f"at most {limit} analyses at once; wait for one")
        if job is None:
            found = await self.store.game_log(table_id, number)
            if found is None or found.game != "skat":
                raise LobbyError("no_such_record", "no finished Skat deal of that number")
            job = self._jobs.get(key)  # another request may have started it meanwhile
            if job is None:
                job = self._jobs[key] = _Job()
                job.task = asyncio.create_task(self._compute(key, job, found))
        if user_id is not None:
            job.users.add(user_id)
        job.listeners.append(listener)
        if job.progress is not None:
            listener(job.progress)
        return None

    def under_way(self, user_id: int) -> int:
        """How many analyses under way `user_id` asked for."""
        return sum(user_id in job.users for job in self._jobs.values())

    def finished(self, table_id: str, number: int) -> None:
        """A deal ended: analyse it when the server says so (`analyze_finished`)."""
        if self.settings.analyze_finished:
            task = asyncio.create_task(self._quietly(table_id, number))
            self._started.add(task)
            task.add_done_callback(self._started.discard)

    async def close(self) -> None:
        for task in list(self._started):
            await cancel(task)
        for job in list(self._jobs.values()):
            if job.task is not None:
                await cancel(job.task)

    async def _quietly(self, table_id: str, number: int) -> None:
        with contextlib.suppress(LobbyError):  # not a Skat deal
            await self.request(table_id, number, None, lambda _: None)

    async def _compute(self, key: tuple[str, int], job: _Job, found: DealLog) -> None:
        try:
            analysis = await self._steps(job, found)
            await self.store.keep_analysis(key[0], key[1], analysis)
            job.tell(Done(analysis))
        except TaskFailed as error:
            log.warning("analysis of %s deal %d failed: %s", key[0], key[1], error)
            job.tell(Done(None, "the analysis failed"))
        except Exception:  # a bug or the store away: the askers must not wait forever
            log.exception("analysis of %s deal %d failed", key[0], key[1])
            job.tell(Done(None, "the analysis failed"))
        finally:
            del self._jobs[key]

    async def _steps(self, job: _Job, found: DealLog) -> str:
        kind = game_kind("skat")
        state = kind.restore(found.start)
        assert isinstance(state, SkatState)  # a Skat deal: checked when the job was asked for
        for seat, raw in found.moves:
            state = state.record(seat, kind.decode_action(raw))
        seconds = self.settings.analysis_step_seconds
        total = int(await self.pool.run("skat_analysis_steps", state, SEED, seconds))
        parts: list[bytes] = []
        for index in range(total):
            payload = (state, index, self.budget)
            parts.append(await self.pool.run("skat_analysis_step", payload, SEED, seconds))
            job.progress = Progress(index + 1, total)
            job.tell(job.progress)
        whole = await self.pool.run(
            "skat_analysis_assemble", (state, parts, self.budget), SEED, seconds
        )
        return bytes(whole).decode()
