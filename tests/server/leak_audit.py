"""The leak audit shared by the leak tests: which cards a message shows, which its recipient may
see, and a driver that plays whole bot lists through a `TableCore` and audits every message.

The oracle is the engine's `observation(viewer)` at the message's `seq`, with its history: the
engine's property tests show that it does not depend on cards the viewer has not seen
(docs/conventions.md section 5.2). A message passes when every card in its JSON text is in
that oracle.
"""

import random
import re
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np

from bots.registry import policy
from server.core.commands import (
    Act,
    AddBot,
    BotMoved,
    Disconnect,
    Join,
    Resume,
    TimerFired,
    User,
    Watch,
)
from server.core.effects import AskBot, Effect, Publish, Send
from server.core.state import TableConfig
from server.core.table import TableCore
from server.core.views import MoveView
from server.events import DealStarted
from server.games import GameKind, GameState
from server.protocol import Event, Snapshot, encode, encode_public

__all__ = ["CARD_PATTERNS", "Audit", "AuditedTable", "audit_tables", "cards_in"]

CARD_PATTERNS = {
    "skat": re.compile(r'"([789TJQKA][CSHD])"'),
    "tichu": re.compile(r'"([2-9TJQKA][jspt]|MahJong|Dog|Phoenix|Dragon)"'),
}
SPECTATOR_CLIENT = 0
RESUME_EVERY = 23  # every so many actions a seated client reconnects and catches up
TAKEOVER_EVERY = 97  # every so many actions a seated client drops past its grace period


def cards_in(game: str, text: str | bytes) -> set[str]:
    """Every card of `game` written as a JSON string in `text`."""
    if isinstance(text, bytes):
        text = text.decode()
    return set(CARD_PATTERNS[game].findall(text))


@dataclass
class Audit:
    """What an audit saw: messages checked per kind of recipient, and every leak found."""

    games: int = 0
    messages: dict[str, int] = field(default_factory=lambda: {"seat": 0, "spectator": 0, "bus": 0})
    leaks: list[str] = field(default_factory=list)


class AuditedTable:
    """One table run by `TableCore` alone: bot and "human" seats all play the game's random
    policy, a spectator watches, seated clients reconnect now and then and drop long enough
    for a bot to take over; every `Send` and `Publish` is encoded as the server encodes it
    and checked against its recipient's oracle."""

    def __init__(self, game: GameKind, rules: dict[str, Any], seed: int, deals: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        seats = game.seat_count(game.parse_rules(rules))
        config = TableConfig(
            id=f"t{seed}",
            game=game.name,
            rules=rules,
            private=False,
            invite=None,
            series_length=deals,
            created_by=1,
        )
        self.core = TableCore(config, game, random.Random(seed), ["random"])
        self.humans = {s for s in range(seats) if self.rng.random() < 0.5}
        self.users = {s: User(s + 1, f"player{s}") for s in range(seats)}
        self.viewer: dict[int, int | None] = {SPECTATOR_CLIENT: None}
        self.states: dict[int, tuple[GameState | None, Any]] = {0: (None, None)}  # seq ->
        self.deal_end: dict[int, tuple[GameState, Any]] = {}  # deal number -> final state
        self.known: dict[tuple[int | None, Any], tuple[int, set[str]]] = {}
        self.recorded = 0
        self.deal = -1
        self.audit = Audit()
        self.actions = 0

    def run(self) -> Audit:
        """Seat everyone, play the whole list, return the audit."""
        core, host = self.core, self.users[0]
        self._do(core.handle(Watch(SPECTATOR_CLIENT, User(99, "watcher"), 1, None)))
        for seat in range(core.seat_count):
            if seat in self.humans:
                self.viewer[seat + 1] = seat
                self._do(core.handle(Join(seat + 1, self.users[seat], 1, seat, None)))
            else:
                self._do(core.handle(AddBot(SPECTATOR_CLIENT, host, 1, seat, "random")))
        while core.status == "playing":
            self._human_turns()
        self.audit.games = core.deal_number + 1
        return self.audit

    def _human_turns(self) -> None:
        core = self.core
        state = core.state
        if state is None:
            raise AssertionError("a list is playing without a deal")
        for seat in core.game.acting_seats(state):
            if seat not in self.humans or seat in core.away:
                continue
            self.actions += 1
            if self.actions % RESUME_EVERY == 0:
                back = self.rng.randrange(0, 2 * core.config.resume_window)
                seq = max(0, core.seq - back)
                self._do(core.handle(Resume(seat + 1, self.users[seat], 2, seq)))
            if self.actions % TAKEOVER_EVERY == 0:
                self._do(core.handle(Disconnect(seat + 1)))
                self._do(core.handle(TimerFired(("grace", seat))))
                self._do(core.handle(Join(seat + 1, self.users[seat], 3, seat, None)))
                return
            action = self._decide(state, seat, self.rng.getrandbits(32))
            encoded = self.game.encode_action(action)
            self._do(core.handle(Act(seat + 1, self.users[seat], 4, core.seq, encoded)))
            return
        if not any(seat in self.humans for seat in core.game.acting_seats(state)):
            raise AssertionError("nobody can move and no bot was asked")

    def _decide(self, state: GameState, seat: int, seed: int) -> Any:
        """The random policy's choice from the seat's observation (what a client sees)."""
        decision = policy(self.game.name, "random")(
            state.observation(seat), np.random.default_rng(seed)
        )
        return decision.action

    def _do(self, effects: list[Effect]) -> None:
        self._record_states()
        pending = list(effects)
        while pending:
            effect = pending.pop(0)
            if isinstance(effect, Send):
                for client in effect.clients:
                    viewer = self.viewer.get(client)
                    kind = "spectator" if viewer is None else "seat"
                    self._check(viewer, effect.message, encode(effect.message), kind)
            elif isinstance(effect, Publish):
                self._check(None, effect.message, encode_public(effect.message).decode(), "bus")
            elif isinstance(effect, AskBot):
                bot = policy(self.game.name, effect.level)
                decision = bot(effect.observation, np.random.default_rng(effect.seed))
                moved = BotMoved(effect.seat, effect.seq, decision.action, decision.diagnostics)
                more = self.core.handle(moved)
                self._record_states()
                pending += more

    def _record_states(self) -> None:
        """Remember the deal state after every new event and the round it belongs to."""
        for item in self.core.recent:
            if item.seq <= self.recorded:
                continue
            self.recorded = item.seq
            if isinstance(item.event, DealStarted):
                self.deal = item.event.number
            state = item.after if item.after is not None else self.states[item.seq - 1][0]
            # Tichu plays its rounds inside one deal: what a seat knows starts over each round.
            round_key = (self.deal, getattr(state, "round_index", 0))
            self.states[item.seq] = (state, round_key)
            if item.after is not None and item.after.is_over:
                self.deal_end[self.deal] = (item.after, round_key)

    def _check(self, viewer: int | None, message: Any, text: str, kind: str) -> None:
        self.audit.messages[kind] += 1
        shown = cards_in(self.game.name, text)
        if not shown:
            return
        seq, state, round_key = self._state_for(message)
        shown -= self._made_public(message, state)
        if state is None or not shown <= self._allowed(viewer, seq, state, round_key, shown):
            extra = shown - (set() if state is None else self._oracle(viewer, state))
            self.audit.leaks.append(f"{self.core.config.id} to {viewer}: {sorted(extra)} {text}")

    def _made_public(self, message: Any, state: GameState | None) -> set[str]:
        """Cards a move event makes public by the rules of the protocol: the cards of a play
        (in Tichu the round may be over, and the next dealt, by the time it is sent), and
        the bots' moves of a deal once the deal is over (`MoveView.hints`)."""
        event = getattr(message, "event", None)
        if not isinstance(event, MoveView):
            return set()
        public = []
        action_kind = getattr(type(event.action), "__struct_config__", None)
        if action_kind is not None and action_kind.tag == "play":
            public.append(event.action)
        if state is not None and state.is_over:
            public += [hint.action for hint in event.hints]
        return cards_in(self.game.name, msgspec.json.encode(public))

    def _state_for(self, message: Any) -> tuple[int, GameState | None, Any]:
        """The seq a message speaks of and the deal state there (None: no cards allowed)."""
        if isinstance(message, Event | Snapshot):
            state, round_key = self.states[message.seq]
            return message.seq, state, round_key
        if isinstance(message, dict) and "deal" in message:  # a published deal result
            state, round_key = self.deal_end[message["deal"]]
            return self.core.seq, state, round_key
        return 0, None, None

    def _allowed(
        self, viewer: int | None, seq: int, state: GameState, round_key: Any, shown: set[str]
    ) -> set[str]:
        """The oracle, computed only when needed: within a round a viewer's knowledge only
        grows, so cards it was allowed at an earlier seq stay allowed."""
        seen_seq, seen = self.known.get((viewer, round_key), (-1, set()))
        if seen_seq <= seq and shown <= seen:
            return seen
        allowed = self._oracle(viewer, state)
        if seq >= seen_seq:
            self.known[(viewer, round_key)] = (seq, allowed)
        return allowed

    def _oracle(self, viewer: int | None, state: GameState) -> set[str]:
        return cards_in(self.game.name, msgspec.json.encode(state.observation(viewer)))


def audit_tables(
    game: GameKind, rules: dict[str, Any], *, tables: int, deals: int, seed: int
) -> Audit:
    """The audits of `tables` tables of `deals` deals each (seeds `seed`, `seed + 1`, ...)."""
    total = Audit()
    for index in range(tables):
        audit = AuditedTable(game, rules, seed + index, deals).run()
        total.games += audit.games
        total.leaks += audit.leaks
        for kind, count in audit.messages.items():
            total.messages[kind] += count
    return total
