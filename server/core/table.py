"""A table without I/O: commands in, effects out (HOUSE_STYLE.md F).

`TableCore.handle(command)` validates a command through the game engine, turns it into table
events, folds them into its state and returns the effects for `server.core.actor` to carry out in
order: `Append` (commit the events; nothing after it may run before the commit), then `Send`
and `Publish`, then `AskBot` and `StartTimer`. The core never awaits, never reads a clock and
draws randomness only from the `random.Random` it is given, so its tests need neither sockets
nor a database. On restart `restore` folds the stored events back in.
"""

import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from engine.errors import IllegalAction
from server.core.views import BotHint, visible_event
from server.events import (
    Append,
    Chatted,
    DealStarted,
    GameOver,
    ListOver,
    Moved,
    Player,
    Seated,
    SeriesEnded,
    Status,
    TableEvent,
    TakenOver,
    Vacated,
)
from server.games import GameKind, GameState
from server.protocol import Error, Event, Joined, Ok, Reply, SeatInfo, Snapshot, TableInfo

__all__ = [
    "Act",
    "AddBot",
    "Append",
    "AskBot",
    "BotMoved",
    "ClientId",
    "Command",
    "Disconnect",
    "Effect",
    "Followed",
    "GameOver",
    "Join",
    "Leave",
    "ListOver",
    "Publish",
    "Resume",
    "Say",
    "Send",
    "StartTimer",
    "TableConfig",
    "TableCore",
    "TimerFired",
    "User",
    "Watch",
]

ClientId = int
SEED_BITS = 63


@dataclass(frozen=True)
class User:
    """An authenticated user as the table knows it; `bot`: a program (an external bot)."""

    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True)
class TableConfig:
    """What a table is, fixed at creation (stored in the `tables` row).

    `grace_seconds` and the other durations come from the server settings at load time.
    """

    id: str
    game: str
    rules: dict[str, Any]
    private: bool
    invite: str | None
    series_length: int
    created_by: int
    fill_bots_after: float | None = None
    fill_level: str = "random"
    grace_seconds: float = 60.0
    move_seconds: float = 0.0
    timeout_bot: str = "random"
    resume_window: int = 64
    followed: bool = False  # another process writes it (a tournament): watch only


# --- commands --------------------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    client: ClientId
    user: User
    request_id: int | str | None
    seat: int | None
    invite: str | None


@dataclass(frozen=True)
class Watch:
    client: ClientId
    user: User
    request_id: int | str | None
    invite: str | None


@dataclass(frozen=True)
class Leave:
    client: ClientId
    user: User
    request_id: int | str | None


@dataclass(frozen=True)
class AddBot:
    client: ClientId
    user: User
    request_id: int | str | None
    seat: int
    level: str


@dataclass(frozen=True)
class Act:
    client: ClientId
    user: User
    request_id: int | str | None
    seq: int
    action: bytes


@dataclass(frozen=True)
class Say:
    client: ClientId
    user: User
    request_id: int | str | None
    text: str


@dataclass(frozen=True)
class Resume:
    client: ClientId
    user: User
    request_id: int | str | None
    seq: int


@dataclass(frozen=True)
class Disconnect:
    """The client's connection closed."""

    client: ClientId


@dataclass(frozen=True)
class BotMoved:
    """A bot's decision for `seat`, asked for when the table was at `seq`."""

    seat: int
    seq: int
    action: Any
    why: dict[str, Any] | None = None


@dataclass(frozen=True)
class TimerFired:
    key: tuple[Any, ...]


@dataclass(frozen=True)
class Followed:
    """Events another process committed to a followed table (`TableConfig.followed`), in
    `seq` order; ones the core has already are skipped."""

    events: tuple[tuple[int, TableEvent], ...]


Command = (
    Join
    | Watch
    | Leave
    | AddBot
    | Act
    | Say
    | Resume
    | Disconnect
    | BotMoved
    | TimerFired
    | Followed
)

# --- effects ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    clients: tuple[ClientId, ...]
    message: Reply


@dataclass(frozen=True)
class Publish:
    """Public information for the bus: a table event, the lobby entry or a result."""

    channel: Literal["table", "lobby", "result"]
    message: Any


@dataclass(frozen=True)
class AskBot:
    seat: int
    level: str
    observation: Any
    seed: int
    seq: int


@dataclass(frozen=True)
class StartTimer:
    """Feed `TimerFired(key)` back after `seconds` (a timer with the same key is replaced)."""

    key: tuple[Any, ...]
    seconds: float


Effect = Append | Send | Publish | AskBot | StartTimer


@dataclass
class _Viewer:
    user: User
    seat: int | None


@dataclass
class _Recent:
    seq: int
    event: TableEvent
    before: GameState | None
    after: GameState | None
    hints: tuple[BotHint, ...] = ()


@dataclass
class _Batch:
    """Effects of one command under construction: events first, the rest after the commit."""

    status: Status  # the table's status before the command
    events: list[TableEvent] = field(default_factory=list)
    games: list[GameOver] = field(default_factory=list)
    list_over: ListOver | None = None
    attach: dict[ClientId, _Viewer] = field(default_factory=dict)
    after: list[Effect | Callable[[], list[Effect]]] = field(default_factory=list)


class TableCore:
    """The state of one table and its rules of conduct; the single writer is `server.core.actor`."""

    def __init__(
        self,
        config: TableConfig,
        game: GameKind,
        rng: random.Random,
        bot_levels: Iterable[str],
    ) -> None:
        self.config = config
        self.game = game
        self.rules = game.parse_rules(config.rules)
        self.seat_count = game.seat_count(self.rules)
        self.bot_levels = frozenset(bot_levels)
        self.rng = rng
        self.seq = 0
        self.game_seq = 0  # seq of the last event that changed the game (not chat)
        self.seats: list[Player | None] = [None] * self.seat_count
        self.away: set[int] = set()
        self.asked: set[int] = set()  # seats with a bot decision on the way
        self.status: Status = "waiting"
        self.deal_number = -1
        self.state: GameState | None = None
        self.results: list[dict[str, Any]] = []
        self.standings: list[dict[str, Any]] | None = None
        self.recent: deque[_Recent] = deque(maxlen=config.resume_window)
        self.hints: list[BotHint] = []  # the running deal's bot diagnostics
        self.clients: dict[ClientId, _Viewer] = {}
        self.moves = 0

    # --- public queries ------------------------------------------------------------

    def info(self) -> TableInfo:
        """Public metadata, for the lobby and snapshots."""
        return TableInfo(
            id=self.config.id,
            game=self.config.game,
            rules=self.game.rules_options(self.rules),
            seats=[self._seat_info(s) for s in range(self.seat_count)],
            status=self.status,
            private=self.config.private,
            series_length=self.config.series_length,
            deal=max(self.deal_number, 0),
            spectators=sum(1 for v in self.clients.values() if v.seat is None),
        )

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` owns at this table, if any."""
        for seat, player in enumerate(self.seats):
            if player is not None and player.user_id == user_id and player.bot is None:
                return seat
        return None

    # --- restart ---------------------------------------------------------------------

    def restore(self, events: Iterable[tuple[int, TableEvent]]) -> None:
        """Fold stored events (in `seq` order) into a fresh core; nobody is connected."""
        for seq, event in events:
            if seq != self.seq + 1:
                raise ValueError(f"table {self.config.id}: event {seq} follows {self.seq}")
            self._fold(event)

    def wake(self) -> list[Effect]:
        """Effects to run once the table is live (new or restored): bots to ask, timers."""
        batch = _Batch(status=self.status)
        if self.status == "waiting" and self.config.fill_bots_after is not None:
            batch.after.append(StartTimer(("fill",), self.config.fill_bots_after))
        self._time_absent(batch)
        self._schedule(batch)
        return self._finish(batch)

    # --- commands --------------------------------------------------------------------

    def handle(self, command: Command) -> list[Effect]:
        """Effects of one command, in the order they must be carried out."""
        batch = _Batch(status=self.status)
        if isinstance(command, Followed):
            return self._follow(command)
        if self.config.followed and isinstance(command, Join | AddBot | Act | Say):
            self._error(batch, command, "watch_only", "a tournament table can only be watched")
        elif isinstance(command, Act):
            self._act(command, batch)
        elif isinstance(command, BotMoved):
            self._bot_moved(command, batch)
        elif isinstance(command, Join):
            self._join(command, batch)
        elif isinstance(command, Watch):
            self._watch(command, batch)
        elif isinstance(command, Resume):
            self._resume(command, batch)
        elif isinstance(command, Leave):
            self._leave(command, batch)
        elif isinstance(command, AddBot):
            self._add_bot(command, batch)
        elif isinstance(command, Say):
            self._say(command, batch)
        elif isinstance(command, Disconnect):
            self._disconnect(command, batch)
        else:
            self._timer(command, batch)
        return self._finish(batch)

    def _follow(self, cmd: Followed) -> list[Effect]:
        """Fold committed events of a followed table and show them to its spectators (one at
        a time: a batch may be longer than the window of recent events)."""
        effects: list[Effect] = []
        for seq, event in cmd.events:
            if seq <= self.seq:
                continue
            if seq != self.seq + 1:
                raise ValueError(f"table {self.config.id}: event {seq} follows {self.seq}")
            self._fold(event)
            effects += self._broadcast(1)
        return effects

    def _act(self, cmd: Act, batch: _Batch) -> None:
        viewer = self.clients.get(cmd.client)
        seat = self.seat_of(cmd.user.id)
        if viewer is None or viewer.seat is None or seat is None:
            return self._error(batch, cmd, "not_seated", "you have no seat at this table")
        if self.status != "playing" or self.state is None:
            return self._error(batch, cmd, "not_playing", "no deal is running at this table")
        if not self.game_seq <= cmd.seq <= self.seq:
            return self._error(
                batch,
                cmd,
                "stale_seq",
                f"the game changed at seq {self.game_seq}; you saw {cmd.seq}",
            )
        try:
            action = self.game.decode_action(cmd.action)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            return self._error(batch, cmd, "bad_action", f"not an action: {error}")
        try:
            self.state.apply(seat, action)
        except IllegalAction as error:
            return self._error(batch, cmd, error.code, error.message)
        self._move(seat, action, batch)
        batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))

    def _bot_moved(self, cmd: BotMoved, batch: _Batch) -> None:
        self.asked.discard(cmd.seat)
        if self.state is None or cmd.seat not in self.game.acting_seats(self.state):
            return  # the seat has acted or may not act now: the answer is void
        simultaneous = self.state.to_move is None
        if cmd.seq != self.game_seq and not simultaneous:
            return  # the game moved on (owner returned, timer raced): the answer is void
        action, why = cmd.action, cmd.why
        try:
            self.state.apply(cmd.seat, action)
        except IllegalAction:
            if cmd.seq != self.game_seq:
                return  # decided on an older state; the seat is asked again
            # A buggy policy must not stall the table.
            action, why = self.state.legal_actions(cmd.seat)[0], None
        self._move(cmd.seat, action, batch, why or None)

    def _join(self, cmd: Join, batch: _Batch) -> None:
        own = self.seat_of(cmd.user.id)
        if own is not None:
            return self._attach(cmd.client, cmd.user, cmd.request_id, own, batch, joined=True)
        if not self._invited(cmd.invite):
            return self._error(batch, cmd, "bad_invite", "this private table needs its invite")
        if self.status != "waiting":
            return self._error(batch, cmd, "already_started", "the list has begun")
        free = [s for s, p in enumerate(self.seats) if p is None]
        if not free:
            return self._error(batch, cmd, "table_full", "every seat is taken")
        seat = free[0] if cmd.seat is None else cmd.seat
        if seat >= self.seat_count:
            return self._error(batch, cmd, "no_such_seat", f"seats are 0..{self.seat_count - 1}")
        if seat not in free:
            return self._error(batch, cmd, "seat_taken", f"seat {seat} is taken")
        self._emit(batch, Seated(seat, Player(cmd.user.id, cmd.user.name, client_bot=cmd.user.bot)))
        self._attach(cmd.client, cmd.user, cmd.request_id, seat, batch, joined=True)
        self._start_if_full(batch)

    def _watch(self, cmd: Watch, batch: _Batch) -> None:
        if not self._invited(cmd.invite):
            return self._error(batch, cmd, "bad_invite", "this private table needs its invite")
        self._attach(cmd.client, cmd.user, cmd.request_id, None, batch, joined=False)

    def _resume(self, cmd: Resume, batch: _Batch) -> None:
        seat = self.seat_of(cmd.user.id)
        if seat is None and cmd.client not in self.clients and self.config.private:
            return self._error(batch, cmd, "bad_invite", "watch this private table with its invite")
        if cmd.seq > self.seq:
            return self._error(batch, cmd, "bad_seq", f"the table is only at seq {self.seq}")
        self.clients.pop(cmd.client, None)
        batch.attach[cmd.client] = _Viewer(cmd.user, seat)
        self._take_back(seat, batch)
        batch.after.append(lambda: self._missed(cmd.client, seat, cmd.seq))
        batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))

    def _leave(self, cmd: Leave, batch: _Batch) -> None:
        seat = self.seat_of(cmd.user.id)
        if seat is None:
            if self.clients.pop(cmd.client, None) is None:
                return self._error(batch, cmd, "not_at_table", "you are not at this table")
            batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))
            return None
        for client, viewer in list(self.clients.items()):
            if viewer.user.id == cmd.user.id:
                del self.clients[client]
        if self.status == "waiting":
            self._emit(batch, Vacated(seat))
        else:
            level = self.config.timeout_bot
            self._emit(batch, Seated(seat, Player(None, f"bot:{level}", level)))
        batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))
        return None

    def _add_bot(self, cmd: AddBot, batch: _Batch) -> None:
        if self.seat_of(cmd.user.id) is None and cmd.user.id != self.config.created_by:
            return self._error(batch, cmd, "not_seated", "only players and the host add bots")
        if cmd.level not in self.bot_levels:
            known = ", ".join(sorted(self.bot_levels))
            return self._error(batch, cmd, "unknown_bot", f"no bot {cmd.level!r}; known: {known}")
        if self.status != "waiting":
            return self._error(batch, cmd, "already_started", "the list has begun")
        if cmd.seat >= self.seat_count:
            return self._error(batch, cmd, "no_such_seat", f"seats are 0..{self.seat_count - 1}")
        if self.seats[cmd.seat] is not None:
            return self._error(batch, cmd, "seat_taken", f"seat {cmd.seat} is taken")
        self._emit(batch, Seated(cmd.seat, Player(None, f"bot:{cmd.level}", cmd.level)))
        batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))
        self._start_if_full(batch)
        return None

    def _say(self, cmd: Say, batch: _Batch) -> None:
        viewer = self.clients.get(cmd.client)
        if viewer is None:
            return self._error(batch, cmd, "not_at_table", "join or watch the table to chat")
        self._emit(batch, Chatted(viewer.seat, cmd.user.name, cmd.text))
        batch.after.append(Send((cmd.client,), Ok(id=cmd.request_id)))
        return None

    def _disconnect(self, cmd: Disconnect, batch: _Batch) -> None:
        viewer = self.clients.pop(cmd.client, None)
        if viewer is None or viewer.seat is None:
            return
        if not any(v.user.id == viewer.user.id for v in self.clients.values()):
            batch.after.append(StartTimer(("grace", viewer.seat), self.config.grace_seconds))

    def _timer(self, cmd: TimerFired, batch: _Batch) -> None:
        kind = cmd.key[0]
        if kind == "fill" and self.status == "waiting":
            for seat, player in enumerate(self.seats):
                if player is None:
                    level = self.config.fill_level
                    self._emit(batch, Seated(seat, Player(None, f"bot:{level}", level)))
            self._start_if_full(batch)
        elif kind == "grace":
            seat = cmd.key[1]
            player = self.seats[seat]
            if (
                self.status == "playing"
                and player is not None
                and player.bot is None
                and seat not in self.away
                and not any(v.seat == seat for v in self.clients.values())
            ):
                self._emit(batch, TakenOver(seat, True))
        elif kind == "move":
            seq = cmd.key[1]
            if seq == self.game_seq and self.state is not None:
                for seat in self.game.acting_seats(self.state):
                    player = self.seats[seat]
                    if player is not None and player.bot is None:
                        self._ask_bot(seat, self.config.timeout_bot, batch)

    # --- helpers ---------------------------------------------------------------------

    def _error(self, batch: _Batch, cmd: Any, code: str, message: str) -> None:
        error = Error(id=cmd.request_id, code=code, message=message)
        batch.after.append(Send((cmd.client,), error))

    def _missed(self, client: ClientId, seat: int | None, seq: int) -> list[Effect]:
        """Every event after `seq` as `seat` sees it, or a snapshot if they left the window."""
        missed = [item for item in self.recent if item.seq > seq]
        if self.seq - seq > len(missed):
            return [Send((client,), self._snapshot(seat))]
        effects: list[Effect] = []
        for item in missed:
            event, view = visible_event(
                item.event, seat, self.game, item.before, item.after, item.hints
            )
            message = Event(table=self.config.id, seq=item.seq, event=event, view=view)
            effects.append(Send((client,), message))
        return effects

    def _invited(self, invite: str | None) -> bool:
        return not self.config.private or invite == self.config.invite

    def _attach(
        self,
        client: ClientId,
        user: User,
        request_id: int | str | None,
        seat: int | None,
        batch: _Batch,
        *,
        joined: bool,
    ) -> None:
        self.clients.pop(client, None)
        batch.attach[client] = _Viewer(user, seat)
        self._take_back(seat, batch)
        reply: Reply = Ok(id=request_id)
        if joined and seat is not None:
            reply = Joined(id=request_id, table=self.config.id, seat=seat)
        batch.after.append(Send((client,), reply))
        batch.after.append(lambda: [Send((client,), self._snapshot(seat))])

    def _take_back(self, seat: int | None, batch: _Batch) -> None:
        if seat is not None and seat in self.away:
            self._emit(batch, TakenOver(seat, False))

    def _start_if_full(self, batch: _Batch) -> None:
        if self.status == "waiting" and all(p is not None for p in self.seats):
            self._deal(0, batch)
            self._time_absent(batch)

    def _time_absent(self, batch: _Batch) -> None:
        """Grace timers for human seats nobody is connected to (after a restart, at the
        start of a list filled by bots)."""
        present = {v.seat for v in (*self.clients.values(), *batch.attach.values())}
        for seat, player in enumerate(self.seats):
            if player is not None and player.bot is None and seat not in present | self.away:
                batch.after.append(StartTimer(("grace", seat), self.config.grace_seconds))

    def _deal(self, number: int, batch: _Batch) -> None:
        start, _ = self.game.deal(self.rules, self.rng.getrandbits(SEED_BITS), number)
        self._emit(batch, DealStarted(number, msgspec.Raw(start)))

    def _move(
        self, seat: int, action: Any, batch: _Batch, why: dict[str, Any] | None = None
    ) -> None:
        self._emit(batch, Moved(seat, msgspec.Raw(self.game.encode_action(action)), why))
        state = self.state
        if state is None or not state.is_over:
            return
        names = [p.name if p else "" for p in self.seats]
        batch.games.append(
            GameOver(
                self.deal_number,
                self.game.result_payload(state),
                self.game.record(state, names),
                tuple(self.seats),
            )
        )
        if self.deal_number + 1 < self.config.series_length:
            self._deal(self.deal_number + 1, batch)
        else:
            self._emit(batch, SeriesEnded(self.game.standings(self.seat_count, self.results)))
            batch.list_over = ListOver(self.standings or [], tuple(self.seats))

    def _emit(self, batch: _Batch, event: TableEvent) -> None:
        """Record `event` in the batch and fold it in now, so later checks see it."""
        batch.events.append(event)
        self._fold(event)

    def _fold(self, event: TableEvent) -> None:
        self.seq += 1
        if not isinstance(event, Chatted):
            self.game_seq = self.seq
        before = self.state
        if isinstance(event, Seated):
            self.seats[event.seat] = event.player
            self.away.discard(event.seat)
        elif isinstance(event, Vacated):
            self.seats[event.seat] = None
        elif isinstance(event, TakenOver):
            (self.away.add if event.bot else self.away.discard)(event.seat)
        elif isinstance(event, DealStarted):
            self.status = "playing"
            self.deal_number = event.number
            self.state = self.game.restore(event.start)
            self.hints = []
            before = None
        elif isinstance(event, Moved):
            if self.state is None:
                raise ValueError(f"table {self.config.id}: a move outside a deal")
            action = self.game.decode_action(event.action)
            self.state = self.state.apply(event.seat, action)
            if event.why:
                self.hints.append(BotHint(self.seq, event.seat, action, event.why))
            self.moves += 1
            if self.state.is_over:
                self.results.append(self.game.result_payload(self.state))
        elif isinstance(event, SeriesEnded):
            self.status = "finished"
            self.standings = event.standings
        after = self.state if isinstance(event, DealStarted | Moved) else None
        hints = tuple(self.hints) if after is not None and after.is_over else ()
        self.recent.append(_Recent(self.seq, event, before, after, hints))

    def _schedule(self, batch: _Batch) -> None:
        """Ask a bot for the next move, or time the human to move (not at a followed table:
        its own process plays it)."""
        if self.status != "playing" or self.state is None or self.config.followed:
            return
        simultaneous = self.state.to_move is None
        timed = False
        for seat in self.game.acting_seats(self.state):
            if simultaneous and seat in self.asked:
                continue  # its answer is on the way; a decision there outlives other moves
            player = self.seats[seat]
            if player is not None and player.bot is not None:
                self._ask_bot(seat, player.bot, batch)
            elif seat in self.away:
                self._ask_bot(seat, self.config.timeout_bot, batch)
            else:
                timed = True
        if timed and self.config.move_seconds > 0:
            batch.after.append(StartTimer(("move", self.game_seq), self.config.move_seconds))

    def _ask_bot(self, seat: int, level: str, batch: _Batch) -> None:
        if self.state is None:
            return
        observation = self.state.observation(seat)
        seed = self.rng.getrandbits(SEED_BITS)
        self.asked.add(seat)
        batch.after.append(AskBot(seat, level, observation, seed, self.game_seq))

    def _finish(self, batch: _Batch) -> list[Effect]:
        """Order the batch: commit, then tell every client and the bus, then bots and timers."""
        effects: list[Effect] = []
        if batch.events:
            first = self.seq - len(batch.events) + 1
            effects.append(
                Append(
                    first,
                    tuple(batch.events),
                    tuple(batch.games),
                    batch.list_over,
                    self.status if self.status != batch.status else None,
                )
            )
            effects += self._broadcast(len(batch.events))
            for game in batch.games:
                result = {"table": self.config.id, "deal": game.number, "result": game.result}
                effects.append(Publish("result", result))
            self._schedule(batch)
        self.clients.update(batch.attach)
        for item in batch.after:
            effects += item() if callable(item) else [item]
        return effects

    def _broadcast(self, count: int) -> list[Effect]:
        """Each recipient's view of the new events: seats their own, spectators the public."""
        by_view: dict[int | None, list[ClientId]] = {}
        for client, viewer in self.clients.items():
            by_view.setdefault(viewer.seat, []).append(client)
        effects: list[Effect] = []
        lobby_changed = False
        for item in list(self.recent)[-count:]:
            public = None
            for viewer, clients in by_view.items():
                event, view = visible_event(
                    item.event, viewer, self.game, item.before, item.after, item.hints
                )
                message = Event(table=self.config.id, seq=item.seq, event=event, view=view)
                effects.append(Send(tuple(clients), message))
                if viewer is None:
                    public = event
            if public is None:  # no spectators: the bus needs the public event, not a view
                public, _ = visible_event(
                    item.event,
                    None,
                    self.game,
                    item.before,
                    item.after,
                    item.hints,
                    with_view=False,
                )
            effects.append(
                Publish("table", Event(table=self.config.id, seq=item.seq, event=public))
            )
            lobby_changed |= isinstance(item.event, Seated | Vacated | DealStarted | SeriesEnded)
            if isinstance(item.event, SeriesEnded):
                standings = {"table": self.config.id, "standings": item.event.standings}
                effects.append(Publish("result", standings))
        if lobby_changed and not self.config.private:
            effects.append(Publish("lobby", self.info()))
        return effects

    def _snapshot(self, seat: int | None) -> Snapshot:
        view = self.game.view(self.state, seat, history=True) if self.state is not None else None
        standings = self.game.standings(self.seat_count, self.results) if self.results else None
        return Snapshot(
            table=self.info(),
            seq=self.seq,
            seat=seat,
            view=view,
            standings=standings,
            results=list(self.results) or None,
        )

    def _seat_info(self, seat: int) -> SeatInfo:
        player = self.seats[seat]
        if player is None:
            return SeatInfo(seat)
        return SeatInfo(seat, player.name, player.bot, seat in self.away, player.client_bot)
