"""The table actor: the single writer of one table (docs/conventions.md section 7).

Commands arrive on a queue; each is decided (`server/core/decide.py`: a pure function of the
table's state, the actor's `Live` and the command), the actor takes the decision's state and
`Live`, and the decision's effects run strictly in order. `Append` is awaited, so every event
is committed before any client or the bus hears of it (persist, then tell). Bots think in the
pool, timers fire later; both come back as commands on the same queue, so the core never sees
concurrency. The actor is the only part with I/O and the only one that knows the connected
clients: their connections here, who they are at the table in its `Live`.

While the database is away the table *holds*: the append in hand is retried with backoff until
it is durable (the core has already moved past it, so it can be neither skipped nor
acknowledged early), and every new client request is refused at once with `store_unavailable`
instead of waiting in the queue. The table resumes by itself when the database returns.
"""

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

import msgspec
from sqlalchemy.exc import IntegrityError

from bots.pool import Decider
from server.core import timers
from server.core.commands import (
    BotMoved,
    ClientId,
    Command,
    Disconnect,
    Join,
    Leave,
    Resume,
    TimerFired,
    TimerKey,
    Watch,
)
from server.core.decide import Decision, decide, wake
from server.core.effects import AskBot, Effect, Publish, Send, StartTimer
from server.core.state import Live, TableConfig, TableState
from server.core.views import table_info
from server.events import Append, Status
from server.plain import JSON, Plain
from server.protocol import Clock, Error, TableInfo, encode
from server.store.db import Store
from server.store.outages import is_unavailable
from server.store.writer import LeaseLost
from server.tasks import cancel

__all__ = ["Client", "Publisher", "Table"]

log = logging.getLogger(__name__)
MAX_WHY_BYTES = 2048  # a bot's diagnostics larger than this are not kept with its move
RETRY_FIRST_SECONDS = 0.05  # first wait before an append is retried while the database is away
RETRY_MAX_SECONDS = 2.0
# Commands that may change who is at the table (for presence, `on_people`, which also hears
# of every change of the table's status: a finished table has nobody playing at it).
PEOPLE_COMMANDS = (Join, Watch, Resume, Leave, Disconnect)
UNAVAILABLE = "the database is unavailable: nothing was changed; try again in a moment"


def _plain(diagnostics: Mapping[str, object]) -> Plain | None:
    """A bot's diagnostics as JSON-able data (numbers from numpy become plain), or None when
    empty, not encodable or too large to store with every move."""
    if not diagnostics:
        return None
    try:
        encoded = msgspec.json.encode(diagnostics, enc_hook=_plain_number)
    except (TypeError, ValueError):
        return None
    if len(encoded) > MAX_WHY_BYTES:
        return None
    plain: Plain = msgspec.json.decode(encoded)
    return plain


def _plain_number(value: object) -> JSON:
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        number: JSON = item()
        return number
    raise TypeError(f"cannot encode {type(value).__name__}")


class Client(Protocol):
    """A connection as a table sees it: something to push encoded messages to."""

    id: ClientId

    def push(self, data: bytes) -> None: ...


class Publisher(Protocol):
    """The bus as a table sees it."""

    def publish(self, channel: str, table_id: str, message: object) -> None: ...


class Table:
    """Runs one table from its state `table`; `start` it, `submit` commands, `stop` it."""

    def __init__(
        self,
        table: TableState,
        store: Store,
        pool: Decider,
        bus: Publisher,
        *,
        bot_delay: float,
        bot_deadline: float,
        on_moves: Callable[[int], None] | None = None,
        on_lost: Callable[["Table"], None] | None = None,
        on_people: Callable[["Table"], None] | None = None,
        on_deal_over: Callable[[str, int], None] | None = None,
    ) -> None:
        self._table = table
        self._live = Live()
        self._on_deal_over = on_deal_over
        self.id = table.config.id
        self._store = store
        self._pool = pool
        self._bus = bus
        self._bot_delay = bot_delay
        self._bot_deadline = bot_deadline
        self._on_moves = on_moves
        self._on_lost = on_lost
        self._on_people = on_people
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._clients: dict[ClientId, Client] = {}
        self._timers: dict[TimerKey, asyncio.TimerHandle] = {}
        self._bots: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._moves_reported = table.moves  # a restored table's moves were counted before
        self.broken = False
        self.holding = False
        # (client, request id) of the command whose append found the table taken over.
        self._in_flight: tuple[ClientId | None, int | str | None] = (None, None)

    @property
    def config(self) -> TableConfig:
        return self._table.config

    @property
    def status(self) -> Status:
        return self._table.status

    @property
    def seq(self) -> int:
        """The seq of the table's last event."""
        return self._table.seq

    def info(self) -> TableInfo:
        """The table's public metadata (its lobby entry)."""
        return table_info(self._table, self._live.viewers)

    def people(self) -> dict[int, bool]:
        """The users connected to the table now: user id -> seated (else a spectator)."""
        found: dict[int, bool] = {}
        for viewer in self._live.viewers.values():
            found[viewer.user.id] = found.get(viewer.user.id, False) or viewer.seat is not None
        return found

    def start(self) -> None:
        """Start the actor; what the table does once it is live (`decide.wake`) runs first."""
        effects = self._take(wake(self._table, self._live))
        self._task = asyncio.create_task(self._run(effects), name=f"table-{self.id}")

    def submit(self, command: Command, client: Client | None = None) -> None:
        """Queue a command; `client` is remembered as the recipient of the command's replies."""
        if client is not None:
            self._clients[client.id] = client
            request_id = getattr(command, "request_id", None)
            if self.holding and request_id is not None:
                client.push(
                    encode(Error(id=request_id, code="store_unavailable", message=UNAVAILABLE))
                )
                return
        self._queue.put_nowait(command)

    def _take(self, decision: Decision) -> tuple[Effect, ...]:
        """Make the decision's table and `Live` the actor's; its effects, to carry out."""
        self._table, self._live = decision.table, decision.live
        return decision.effects

    def tell_moved(self, url: str | None) -> None:
        """Tell this table's clients that another process serves it now (at `url`, or, if
        None, wherever they connect next): they reconnect and resume there. The request in
        flight, which was not carried out, is answered with the same error."""
        where = f"at {url}" if url else "by another server process"
        message = f"table {self.id} is served {where} now: connect there and resume"
        requester, request_id = self._in_flight
        for client in self._clients.values():
            answered = request_id if client.id == requester else None
            client.push(
                encode(Error(id=answered, code="moved", message=message, url=url, table=self.id))
            )
        self._clients.clear()

    async def stop(self) -> None:
        """Finish the queued commands, then stop (their effects are committed and sent).

        A table holding for the database stops at once: what it holds was never acknowledged,
        and waiting for a database that may not come back would block the shutdown forever."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._bots):
            task.cancel()
        if self._task is not None and not self._task.done():
            if not self.holding:
                await self._queue.join()
            await cancel(self._task)

    async def _run(self, effects: tuple[Effect, ...]) -> None:
        await self._carry_out(effects)
        while True:
            command = await self._queue.get()
            try:
                if isinstance(command, Disconnect):
                    self._clients.pop(command.client, None)  # its connection has closed
                if self.broken:
                    continue
                status = self._table.status
                effects = self._take(decide(self._table, self._live, command))
                await self._carry_out(effects)
                if self._on_people is not None and (
                    isinstance(command, PEOPLE_COMMANDS) or self._table.status != status
                ):
                    self._on_people(self)
            except LeaseLost:
                # Another process took the table over (this one stalled past its lease):
                # nothing of this command was stored or told; the new owner carries on.
                log.warning("table %s is owned by another process now; stopping here", self.id)
                self.broken = True
                self._in_flight = (
                    getattr(command, "client", None),
                    getattr(command, "request_id", None),
                )
                if self._on_lost is not None:
                    self._on_lost(self)
            except Exception:
                # The core has moved past what is stored: stop taking commands. A restart
                # resumes the table from its committed events.
                log.exception("table %s failed; it takes no more commands", self.id)
                self.broken = True
            finally:
                self._queue.task_done()

    async def _carry_out(self, effects: tuple[Effect, ...]) -> None:
        encoded: dict[int, bytes] = {}  # each message encoded once for all its recipients
        for effect in effects:
            if isinstance(effect, Append):
                await self._commit(effect)
                if self._on_deal_over is not None and not self.config.followed:
                    for game in effect.games:
                        self._on_deal_over(self.id, game.number)
            elif isinstance(effect, Send):
                data = encoded.get(id(effect.message))
                if data is None:
                    message = effect.message
                    if isinstance(message, Clock):
                        message = self._time_left(message)
                        if message is None:
                            continue
                    data = encoded[id(effect.message)] = encode(message)
                for client_id in effect.clients:
                    client = self._clients.get(client_id)
                    if client is not None:
                        client.push(data)
            elif isinstance(effect, Publish):
                self._bus.publish(effect.channel, self.id, effect.message)
            elif isinstance(effect, AskBot):
                task = asyncio.create_task(self._ask_bot(effect))
                self._bots.add(task)
                task.add_done_callback(self._bots.discard)
            elif isinstance(effect, StartTimer):
                self._start_timer(effect)
        self._count_moves()

    def _count_moves(self) -> None:
        """Report the moves committed since the last report (taken after the effects, which
        commit them). A followed table's moves were committed by its tournament's process, a
        restored table's before."""
        new = self._table.moves - self._moves_reported
        self._moves_reported = self._table.moves
        if new and self._on_moves is not None and not self.config.followed:
            self._on_moves(new)

    async def _commit(self, effect: Append) -> None:
        """Make `effect` durable, holding the table while the database is away."""
        wait = RETRY_FIRST_SECONDS
        while True:
            try:
                await self._store.append(self.id, effect)
                break
            except IntegrityError:
                # After a lost connection the commit may have landed without our hearing it.
                stored = self.holding and await self._store.has_events(
                    self.id, effect.first_seq, len(effect.events)
                )
                if not stored or not effect.events:
                    raise
                break
            except Exception as error:
                if not is_unavailable(error):
                    raise
                if not self.holding:
                    log.warning("table %s holds: the database is unavailable (%s)", self.id, error)
                self.holding = True
                await asyncio.sleep(wait)
                wait = min(2 * wait, RETRY_MAX_SECONDS)
        if self.holding:
            log.warning("table %s resumes: the database is back", self.id)
            self.holding = False

    def _time_left(self, clock: Clock) -> Clock | None:
        """The move clock with the seconds its timer has left (None: no such timer runs)."""
        handle = self._timers.get((timers.MOVE, clock.seq))
        if handle is None:
            return None
        left = max(0.0, handle.when() - asyncio.get_running_loop().time())
        return msgspec.structs.replace(clock, seconds=round(left, 1))

    def _start_timer(self, effect: StartTimer) -> None:
        old = self._timers.pop(effect.key, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._timers.pop(effect.key, None)
            self.submit(TimerFired(effect.key))

        self._timers[effect.key] = loop.call_later(effect.seconds, fire)

    async def _ask_bot(self, ask: AskBot) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        decision = await self._pool.decide(
            self._table.game.name, ask.level, ask.observation, ask.seed, self._bot_deadline
        )
        wait = self._bot_delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        self.submit(BotMoved(ask.seat, ask.seq, decision.action, _plain(decision.diagnostics)))
