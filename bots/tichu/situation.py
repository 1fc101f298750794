"""What a seat knows, as card masks: the bots' reading of an `Observation`.

The engine's observation speaks in card texts and events (the wire format); the bots think in
masks. `situation(obs)` parses it once per decision: own hand, cards played, the trick on the
table, the wish, calls, and the trick history replayed from the public events (`tricks`), so
every policy works from the observation alone and never from the true state.
"""

from collections.abc import Iterator
from functools import lru_cache
from typing import Final, NamedTuple

from engine.bits import popcount
from engine.tichu.actions import CallTichu, Event, Exchange, GiveDragon, Pass, Play
from engine.tichu.cards import (
    ALL_CARDS,
    DOG,
    RANK_MASK,
    CardMask,
    card_points,
    parse_card,
    parse_cards,
    parse_rank,
)
from engine.tichu.combos import NO_COMBO, Combo, classify
from engine.tichu.deal import HAND_SIZE, PARTNER, SEATS, seat_at
from engine.tichu.observation import Observation
from engine.tichu.scoring import GRAND, NO_CALL, TICHU, team_of

__all__ = [
    "CALL_CODES",
    "LegalPlay",
    "Situation",
    "TrickEvent",
    "cards_of",
    "situation",
    "trick_events",
]

CALL_CODES: Final = {"none": NO_CALL, "tichu": TICHU, "grand_tichu": GRAND}
_PARSE_CACHE: Final = 1 << 16
_NO_SEAT: Final = -1


@lru_cache(maxsize=_PARSE_CACHE)
def cards_of(cards: tuple[str, ...]) -> CardMask:
    """The mask of a tuple of card texts (cached: the same tuples recur all round)."""
    return parse_cards(cards)


class LegalPlay(NamedTuple):
    """One legal Play of the observing seat: its cards, and the action to return."""

    cards: CardMask
    action: Play


class TrickEvent(NamedTuple):
    """A public play or pass with the trick it happened in (see `trick_events`).

    Attributes:
        seat: who acted.
        cards: cards played (0 for a pass).
        combo: the combination played, or for a pass the one passed on.
        owner: for a pass, the seat whose combination was on top; for a play, the seat it beat
            (-1 on a lead).
        trick: 0-based index of the trick.
        lead: the play opened the trick.
        sizes: hand sizes before the event.
        wish: the wished value pending before the event (0: none).
        dragon_to: for the gift of a Dragon trick (cards 0), the opponent receiving it; else -1.
    """

    seat: int
    cards: CardMask
    combo: Combo
    owner: int
    trick: int
    lead: bool
    sizes: tuple[int, int, int, int]
    wish: int = 0
    dragon_to: int = _NO_SEAT


def _next_holder(sizes: list[int], seat: int) -> int:
    for step in range(1, SEATS + 1):
        other = seat_at(seat, step)
        if sizes[other]:
            return other
    return seat


def trick_events(history: tuple[Event, ...]) -> Iterator[TrickEvent]:
    """Replay the public events of a round into plays, passes and Dragon gifts with their trick.

    Follows docs/tichu-rules.md sections 4-7: a trick closes when every other player holding cards
    passed (or at once on the Dog), and its next lead comes from the winner (the next holder if he
    is out; for the Dog the partner's side). A play on a closed trick by anyone else than the next
    leader is a bomb on that trick.
    """
    sizes = [HAND_SIZE] * SEATS
    table, owner, passed = NO_COMBO, _NO_SEAT, 0
    closed, leader, trick, wish = True, _NO_SEAT, -1, 0
    for event in history:
        action = event.action
        seat = event.seat
        snapshot = (sizes[0], sizes[1], sizes[2], sizes[3])
        if isinstance(action, Play):
            cards = cards_of(action.cards)
            lead = closed and (leader in (_NO_SEAT, seat))
            if lead:
                trick += 1
                table = NO_COMBO
            combo = classify(cards, table)
            yield TrickEvent(
                seat, cards, combo, _NO_SEAT if lead else owner, trick, lead, snapshot, wish
            )
            if wish and cards & RANK_MASK[wish]:
                wish = 0
            if action.wish is not None:
                wish = parse_rank(action.wish)
            sizes[seat] -= popcount(cards)
            table, owner, passed, closed = combo, seat, 0, False
            if cards == DOG:
                partner = seat_at(seat, PARTNER)
                leader = partner if sizes[partner] else _next_holder(sizes, partner)
                closed = True
        elif isinstance(action, Pass):
            yield TrickEvent(seat, 0, table, owner, trick, False, snapshot, wish)
            passed |= 1 << seat
            others = sum(1 << s for s in range(SEATS) if sizes[s] and s != owner)
            if passed & others == others:
                closed = True
                leader = owner if sizes[owner] else _next_holder(sizes, owner)
        elif isinstance(action, GiveDragon):
            yield TrickEvent(seat, 0, table, owner, trick, False, snapshot, wish, action.to)
            closed = True
            leader = seat if sizes[seat] else _next_holder(sizes, seat)


class Situation(NamedTuple):
    """A seat's knowledge in masks (all derived from its observation).

    Attributes:
        seat: the observing seat.
        hand: its cards.
        sizes: cards held per seat.
        played: every card played this round.
        unseen: cards in the other hands (neither held nor played).
        table: the combination to beat; NO_COMBO when the seat leads or the table is empty.
        owner: seat whose combination is on top (-1: none).
        trick_cards: every card of the trick on the table (its points go to its winner).
        closed: every other player passed on the trick on the table.
        on_turn: it is the seat's ordinary turn (play phase).
        to_move: the seat whose ordinary turn it is (-1: none).
        trick: 0-based index of the current (or next, when leading) trick.
        calls: NO_CALL, TICHU or GRAND per seat.
        finish: seats out, in order.
        wish: wished value still pending (0: none).
        given: cards this seat passed (right, partner, left), 0s before the exchange.
        received: cards received (from right, partner, left), 0s before the exchange ends.
        events: the round's plays and passes with their tricks.
        legal: the seat's legal plays.
        can_pass: passing is legal.
        can_call: calling Tichu is legal.
    """

    seat: int
    hand: CardMask
    sizes: tuple[int, int, int, int]
    played: CardMask
    unseen: CardMask
    table: Combo
    owner: int
    trick_cards: CardMask
    closed: bool
    on_turn: bool
    to_move: int
    trick: int
    calls: tuple[int, int, int, int]
    finish: tuple[int, ...]
    wish: int
    given: tuple[CardMask, CardMask, CardMask]
    received: tuple[CardMask, CardMask, CardMask]
    events: tuple[TrickEvent, ...]
    legal: tuple[LegalPlay, ...]
    can_pass: bool
    can_call: bool

    @property
    def partner(self) -> int:
        """The partner's seat."""
        return seat_at(self.seat, PARTNER)

    @property
    def leading(self) -> bool:
        """The seat is on turn with nothing to beat."""
        return self.on_turn and self.table == NO_COMBO

    def is_opponent(self, other: int) -> bool:
        """Whether `other` plays for the other team."""
        return team_of(other) != team_of(self.seat)

    @property
    def trick_points(self) -> int:
        """Card points of the trick on the table."""
        return card_points(self.trick_cards)


def _exchange(exchange: Exchange | None) -> tuple[CardMask, CardMask, CardMask]:
    if exchange is None:
        return 0, 0, 0
    return (
        1 << parse_card(exchange.right),
        1 << parse_card(exchange.partner),
        1 << parse_card(exchange.left),
    )


def situation(obs: Observation) -> Situation:
    """Parse an observation (of a seat, not a spectator) into masks."""
    seat = obs.seat
    if seat is None:
        raise ValueError("a spectator's observation has no hand to play")
    hand = cards_of(obs.hand)
    events = tuple(trick_events(obs.history))
    played = 0
    for event in events:
        played |= event.cards
    on_turn = obs.phase == "play" and obs.to_move == seat
    trick_cards = 0
    for public in obs.trick:
        if isinstance(public.action, Play):
            trick_cards |= cards_of(public.action.cards)
    owner = obs.table_seat if obs.table_seat is not None else _NO_SEAT
    leading = on_turn and (not obs.table or obs.trick_closed)
    table = NO_COMBO
    if obs.table and not leading:  # the top of the trick is the last combination played
        table = next(event.combo for event in reversed(events) if event.cards)
    trick = (events[-1].trick if events else -1) + (1 if leading or not events else 0)
    legal: list[LegalPlay] = []
    can_pass = can_call = False
    for action in obs.legal:
        if isinstance(action, Play):
            legal.append(LegalPlay(cards_of(action.cards), action))
        elif isinstance(action, Pass):
            can_pass = True
        elif isinstance(action, CallTichu):
            can_call = True
    calls = tuple(CALL_CODES[c] for c in obs.calls)
    return Situation(
        seat=seat,
        hand=hand,
        sizes=obs.hand_sizes,
        played=played,
        unseen=ALL_CARDS & ~hand & ~played,
        table=table,
        owner=owner,
        trick_cards=trick_cards,
        closed=obs.trick_closed,
        on_turn=on_turn,
        to_move=obs.to_move if obs.to_move is not None else _NO_SEAT,
        trick=max(trick, 0),
        calls=(calls[0], calls[1], calls[2], calls[3]),
        finish=obs.finish,
        wish=parse_rank(obs.wish) if obs.wish else 0,
        given=_exchange(obs.given),
        received=_exchange(obs.received),
        events=events,
        legal=tuple(legal),
        can_pass=can_pass,
        can_call=can_call,
    )
