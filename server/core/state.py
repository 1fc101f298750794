"""What a table knows: its fixed configuration, and the fold of its events.

Every event a table commits is folded in here at once (`TableState.fold`), and so is every
stored event when a table is restored or followed: the same function either way, so a
restored table is the table that was. A move is folded with the action and the engine state
its command already decoded and applied; only a stored move is decoded and applied here.

The last `resume_window` events are kept with the deal's states around them (`Recent`), so a
reconnecting client gets exactly the events it missed, rendered for its seat. The last
`CHAT_HISTORY` chat lines are kept for snapshots: chat is stored as events like the moves, so
the conversation survives a reload and, folded again, a restart.
"""

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from server.core.commands import ClientId, User
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

__all__ = ["CHAT_HISTORY", "BotHint", "Recent", "TableConfig", "TableState", "TurnClock", "Viewer"]

CHAT_HISTORY = 50  # chat lines a snapshot repeats


@dataclass(frozen=True)
class TurnClock:
    """The move timer of the game as of `seq` (its `game_seq`) runs for `seats`."""

    seq: int
    seats: tuple[int, ...]


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


@dataclass
class Viewer:
    """A connected client at the table: a seat's owner (`seat`) or a spectator (None)."""

    user: User
    seat: int | None


class BotHint(msgspec.Struct, frozen=True):
    """Why a bot made the move of event `seq`: its policy's diagnostics."""

    seq: int
    seat: int
    action: Any
    why: dict[str, Any]


@dataclass
class Recent:
    """One event of the resume window: its decoded action (moves) and the deal's states
    before and after it (None outside a deal), and the deal's bot hints once it is over."""

    seq: int
    event: TableEvent
    action: msgspec.Struct | None
    before: GameState | None
    after: GameState | None
    hints: tuple[BotHint, ...] = ()


class TableState:
    """The state of one table. `clients` is not folded: who is connected right now."""

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
        self.state: GameState | None = None  # the running deal's engine state
        self.results: list[Plain] = []
        self.standings: list[ListStanding] | None = None
        self.recent: deque[Recent] = deque(maxlen=config.resume_window)
        self.hints: list[BotHint] = []  # the running deal's bot diagnostics
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)
        self.clock: TurnClock | None = None  # the humans the move timer times (`views.clock`)
        self.clients: dict[ClientId, Viewer] = {}
        self.moves = 0

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` owns at this table, if any."""
        for seat, player in enumerate(self.seats):
            if player is not None and player.user_id == user_id and player.bot is None:
                return seat
        return None

    def fold(
        self,
        event: TableEvent,
        action: msgspec.Struct | None = None,
        after: GameState | None = None,
    ) -> None:
        """Take `event` as the next one. A deal or a move comes with the engine state after
        it (`after`, and the move's decoded `action`) when the core made it; without them
        (a stored event) the deal is restored and the move decoded and applied here."""
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
            self.state = after if after is not None else self.game.restore(event.start)
            self.hints = []
            before = None
        elif isinstance(event, Moved):
            if self.state is None:
                raise ValueError(f"table {self.config.id}: a move outside a deal")
            if after is None:
                action = self.game.decode_action(event.action)
                after = self.state.apply(event.seat, action)
            self.state = after
            if event.why:
                self.hints.append(BotHint(self.seq, event.seat, action, event.why))
            self.moves += 1
            if after.is_over:
                self.results.append(self.game.result_payload(after))
        elif isinstance(event, Chatted):
            self.chat.append(ChatLine(self.seq, event.seat, event.name, event.text))
        elif isinstance(event, SeriesEnded):
            self.status = "finished"
            self.standings = self.game.decode_standings(event.standings)
        shown = self.state if isinstance(event, DealStarted | Moved) else None
        hints = tuple(self.hints) if shown is not None and shown.is_over else ()
        self.recent.append(Recent(self.seq, event, action, before, shown, hints))
