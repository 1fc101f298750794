"""What one seat may know of a match: the information state bots and clients receive.

Every field is computed from the seat's own cards and public facts only (docs/conventions.md
section 5): own hand, the cards it passed and (once the exchange is complete) received, every
public action of the round, calls, hand sizes, the wish, scores, and its own legal actions.
"""

from typing import TYPE_CHECKING, Final, Literal

import msgspec

from engine.bits import bit_index, popcount
from engine.tichu.actions import Action, Event, Exchange, Play
from engine.tichu.cards import format_card, format_cards, format_rank
from engine.tichu.deal import LEFT, PARTNER, RIGHT, SEATS, seat_at
from engine.tichu.rules import Phase
from engine.tichu.scoring import GRAND, NO_CALL, TICHU, RoundScore

if TYPE_CHECKING:
    from engine.tichu.state import State

__all__ = ["CALL_NAMES", "Observation", "observe"]

CallName = Literal["none", "tichu", "grand_tichu"]
CALL_NAMES: Final[dict[int, CallName]] = {NO_CALL: "none", TICHU: "tichu", GRAND: "grand_tichu"}


class Observation(msgspec.Struct, frozen=True, kw_only=True):
    """The information state of `seat` (None: a spectator, who sees public facts only).

    Attributes:
        hand: own cards (the first eight during the Grand Tichu decision).
        hand_sizes: number of cards each seat holds.
        grand_tichu_decided: which seats made their Grand Tichu decision.
        calls: "none", "tichu" or "grand_tichu" per seat.
        exchanged: which seats fixed their exchange.
        given: the cards this seat passed (to left, partner, right), once fixed.
        received: the cards received from left, partner and right, once all four exchanges
            are fixed.
        history: public actions of the round in order.
        trick: the events since the current trick's lead.
        table: cards of the combination on top of the trick; `table_seat` played them.
        trick_closed: every other player passed; the next lead takes the trick.
        wish: the wished rank still to be fulfilled.
        finish: seats in the order they went out.
        legal: what this seat may do now (`State.legal_actions`), except Exchange actions, which
            `must_exchange` summarises (any three different cards of the hand).
    """

    seat: int | None
    phase: Phase
    round_index: int
    to_move: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, int, int, int]
    grand_tichu_decided: tuple[bool, bool, bool, bool]
    calls: tuple[CallName, CallName, CallName, CallName]
    exchanged: tuple[bool, bool, bool, bool]
    given: Exchange | None
    received: Exchange | None
    history: tuple[Event, ...]
    trick: tuple[Event, ...]
    table: tuple[str, ...]
    table_seat: int | None
    trick_closed: bool
    wish: str | None
    finish: tuple[int, ...]
    totals: tuple[int, int]
    rounds: tuple[RoundScore, ...]
    winner: int | None
    legal: tuple[Action, ...]
    must_exchange: bool


def observe(state: "State", seat: int | None, *, history: bool = True) -> Observation:
    """The observation of `seat` in `state`; `State.observation` delegates here.
    `history=False` leaves the round's history empty (a server sending per-event updates
    sends the events themselves)."""
    given = received = None
    if seat is not None:
        own = state.gifts[seat]
        if own is not None:
            given = Exchange(right=_card(own[0]), partner=_card(own[1]), left=_card(own[2]))
        gifts = state.gifts
        from_left = gifts[seat_at(seat, LEFT)]
        from_partner = gifts[seat_at(seat, PARTNER)]
        from_right = gifts[seat_at(seat, RIGHT)]
        if (
            from_left is not None
            and from_partner is not None
            and from_right is not None
            and state.phase != "exchange"
        ):
            received = Exchange(
                left=_card(from_left[RIGHT - 1]),
                partner=_card(from_partner[PARTNER - 1]),
                right=_card(from_right[LEFT - 1]),
            )
    has_table = state.table_cards != 0
    trick = _public(state.log[state.trick_start :]) if has_table else ()
    plays = [event.seat for event in trick if isinstance(event.action, Play)]
    hands = state.hands
    return Observation(
        seat=seat,
        phase=state.phase,
        round_index=state.round_index,
        to_move=state.to_move,
        hand=format_cards(hands[seat]) if seat is not None else (),
        hand_sizes=(popcount(hands[0]), popcount(hands[1]), popcount(hands[2]), popcount(hands[3])),
        grand_tichu_decided=_flags(state.decided),
        calls=(
            CALL_NAMES[state.calls[0]],
            CALL_NAMES[state.calls[1]],
            CALL_NAMES[state.calls[2]],
            CALL_NAMES[state.calls[3]],
        ),
        exchanged=_flags(sum(1 << s for s in range(SEATS) if state.gifts[s] is not None)),
        given=given,
        received=received,
        history=_public(state.log) if history else (),
        trick=trick,
        table=format_cards(state.table_cards),
        table_seat=plays[-1] if plays else None,
        trick_closed=state.closed and has_table,
        wish=format_rank(state.wish) if state.wish else None,
        finish=state.finish,
        totals=state.totals,
        rounds=state.rounds,
        winner=state.winner,
        legal=tuple(state.legal_actions(seat, exchanges=False)) if seat is not None else (),
        must_exchange=seat is not None and state.phase == "exchange" and given is None,
    )


def _public(events: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events everybody saw: all but the exchanges."""
    return tuple(e for e in events if not isinstance(e.action, Exchange))


def _card(mask: int) -> str:
    return format_card(bit_index(mask))


def _flags(seats: int) -> tuple[bool, bool, bool, bool]:
    """Per seat, whether its bit is set in the seat set `seats`."""
    flags = [bool(seats >> seat & 1) for seat in range(SEATS)]
    return flags[0], flags[1], flags[2], flags[3]
