"""What a table knows: its fixed configuration, and the fold of its events.

`TableState` is an immutable value and `evolve(table, event)` the one function that makes the
next one: every event a table commits goes through it when the core decides
(`server/core/decide.py`), and so does every stored event when a table is restored or
followed, so a restored table is the table that was. A move is evolved with the action and
the engine state its command already decoded and applied; only a stored move is decoded and
applied here. Unchanged parts are shared between states (tuples, the engine's frozen game
states), so an event costs a few small copies.

The last `resume_window` events are kept with the deal's states around them (`Recent`), so a
reconnecting client gets exactly the events it missed, rendered for its seat. The last
`CHAT_HISTORY` chat lines are kept for snapshots: chat is stored as events like the moves, so
the conversation survives a reload and, folded again, a restart.

Who is connected, and which bots are thinking, is not folded: `Live`, which the table's actor
keeps and hands to each decision.
"""

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from server.core.commands import User
from server.events import (
    Chatted,
    DealStarted,
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
from server.plain import Plain
from server.protocol import ChatLine
from server.standings import ListStanding

__all__ = [
    "CHAT_HISTORY",
    "BotHint",
    "Live",
    "Recent",
    "TableConfig",
    "TableState",
    "TurnClock",
    "Viewer",
    "draw",
    "evolve",
    "evolve_recorded",
    "new_table",
    "restore",
]

CHAT_HISTORY = 50  # chat lines a snapshot repeats
SEED_BITS = 63


@dataclass(frozen=True)
class TableConfig:
    """What a table is, fixed at creation (stored in the `tables` row).

    `grace_seconds` and the other durations come from the server settings at load time.
    """

    id: str
    game: str
    rules: Plain
    private: bool
    invite: str | None
    series_length: int
    created_by: int
    host: str | None = None  # the name of who opened it (None: a tournament, an older table)
    fill_bots_after: float | None = None
    fill_level: str = "random"
    grace_seconds: float = 60.0
    move_seconds: float = 0.0
    timeout_bot: str = "random"
    resume_window: int = 64
    followed: bool = False  # another process writes it (a tournament): watch only
    tournament: str | None = None  # a people's tournament's table (server/tournament/people.py)


@dataclass(frozen=True)
class Viewer:
    """A connected client at the table: a seat's owner (`seat`) or a spectator (None)."""

    user: User
    seat: int | None


@dataclass(frozen=True)
class TurnClock:
    """The move timer of the game as of `seq` (its `game_seq`) runs for `seats`."""

    seq: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Live:
    """What a table's actor knows besides its events: the connected clients (`viewers`), the
    seats with a bot decision on the way (`asked`) and the humans the move timer times
    (`clock`, `views.clock`). Every decision gets it and hands back the next one; nobody
    else keeps a copy."""

    viewers: Mapping[int, Viewer] = field(default_factory=dict)
    asked: frozenset[int] = frozenset()
    clock: TurnClock | None = None


class BotHint(msgspec.Struct, frozen=True):
    """Why a bot made the move of event `seq`: its policy's diagnostics."""

    seq: int
    seat: int
    action: Any
    why: dict[str, Any]


@dataclass(frozen=True)
class Recent:
    """One event of the resume window: its decoded action (moves) and the deal's states
    before and after it (None outside a deal), and the deal's bot hints once it is over."""

    seq: int
    event: TableEvent
    action: msgspec.Struct | None
    before: GameState | None
    after: GameState | None
    hints: tuple[BotHint, ...] = ()


@dataclass(frozen=True)
class TableState:
    """The state of one table after its event `seq`. `secret` seeds its deals and bots
    (`draw`); a restarted table draws a new one."""

    config: TableConfig
    game: GameKind
    rules: msgspec.Struct
    seat_count: int
    bot_levels: frozenset[str]
    secret: int
    seats: tuple[Player | None, ...]
    seq: int = 0
    game_seq: int = 0  # seq of the last event that changed the game (not chat)
    away: frozenset[int] = frozenset()
    status: Status = "waiting"
    deal_number: int = -1
    state: GameState | None = None  # the running deal's engine state
    results: tuple[Plain, ...] = ()
    standings: list[ListStanding] | None = None
    recent: tuple[Recent, ...] = ()
    hints: tuple[BotHint, ...] = ()  # the running deal's bot diagnostics
    chat: tuple[ChatLine, ...] = ()
    moves: int = 0

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` owns at this table, if any."""
        for seat, player in enumerate(self.seats):
            if player is not None and player.user_id == user_id and player.bot is None:
                return seat
        return None


def new_table(
    config: TableConfig, game: GameKind, secret: int, bot_levels: Iterable[str]
) -> TableState:
    """A table before its first event."""
    rules = game.parse_rules(config.rules)
    seat_count = game.seat_count(rules)
    return TableState(
        config, game, rules, seat_count, frozenset(bot_levels), secret, (None,) * seat_count
    )


def draw(table: TableState, *purpose: object) -> int:
    """A seed for `purpose` (a deal's number, a bot's question), from the table's secret:
    the same question gets the same seed, so deciding is a function of the state."""
    text = repr((table.secret, *purpose)).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def restore(table: TableState, events: Iterable[tuple[int, TableEvent]]) -> TableState:
    """`table` after stored `events` (in `seq` order, each the next one)."""
    for seq, event in events:
        if seq != table.seq + 1:
            raise ValueError(f"table {table.config.id}: event {seq} follows {table.seq}")
        table = evolve(table, event)
    return table


def evolve(
    table: TableState,
    event: TableEvent,
    action: msgspec.Struct | None = None,
    after: GameState | None = None,
) -> TableState:
    """The table after `event`. A deal or a move comes with the engine state after it
    (`after`, and the move's decoded `action`) when the core made it; without them (a
    stored event) the deal is restored and the move decoded and applied here."""
    return evolve_recorded(table, event, action, after)[0]


def evolve_recorded(
    table: TableState,
    event: TableEvent,
    action: msgspec.Struct | None = None,
    after: GameState | None = None,
) -> tuple[TableState, Recent]:
    """`evolve`, and the event as the views show it (its `Recent`, also when the resume
    window keeps none)."""
    seq = table.seq + 1
    changes: dict[str, object] = {}
    before = table.state
    shown: GameState | None = None
    if isinstance(event, Seated):
        changes["seats"] = _with(table.seats, event.seat, event.player)
        changes["away"] = table.away - {event.seat}
    elif isinstance(event, Vacated):
        changes["seats"] = _with(table.seats, event.seat, None)
    elif isinstance(event, TakenOver):
        seat = frozenset((event.seat,))
        changes["away"] = table.away | seat if event.bot else table.away - seat
    elif isinstance(event, DealStarted):
        shown = after if after is not None else table.game.restore(event.start)
        changes.update(status="playing", deal_number=event.number, state=shown, hints=())
        before = None
    elif isinstance(event, Moved):
        if before is None:
            raise ValueError(f"table {table.config.id}: a move outside a deal")
        if after is None:
            action = table.game.decode_action(event.action)
            after = before.apply(event.seat, action)
        shown = after
        changes.update(state=after, moves=table.moves + 1)
        if event.why:
            changes["hints"] = (*table.hints, BotHint(seq, event.seat, action, event.why))
        if after.is_over:
            changes["results"] = (*table.results, table.game.result_payload(after))
    elif isinstance(event, Chatted):
        line = ChatLine(seq, event.seat, event.name, event.text)
        changes["chat"] = (*table.chat[1 - CHAT_HISTORY :], line)
    elif isinstance(event, SeriesEnded):
        changes.update(status="finished", standings=table.game.decode_standings(event.standings))
    hints = changes.get("hints", table.hints) if shown is not None and shown.is_over else ()
    item = Recent(seq, event, action, before, shown, hints)
    window = table.config.resume_window
    recent = (*table.recent[len(table.recent) + 1 - window :], item) if window > 0 else ()
    game_seq = table.game_seq if isinstance(event, Chatted) else seq
    changes.update(seq=seq, game_seq=game_seq, recent=recent)
    return _replaced(table, changes), item


def _replaced(table: TableState, changes: dict[str, object]) -> TableState:
    """`table` with `changes`: a shallow copy of its fields, made directly (what
    `dataclasses.replace` checks and sets field by field cost more than the rest of an
    event, and an event is evolved on every move)."""
    new = object.__new__(TableState)
    new.__dict__.update(table.__dict__)
    new.__dict__.update(changes)
    return new


def _with(
    seats: tuple[Player | None, ...], seat: int, player: Player | None
) -> tuple[Player | None, ...]:
    return (*seats[:seat], player, *seats[seat + 1 :])
