"""Which Skat actions a seat may take: the one predicate behind `State.legal_actions` and
`State.apply` (ISkO 3-4; docs/skat-rules.md).

`candidates` lists a superset of the legal actions and `reject` says why an action is not
allowed (None when it is): `legal` filters the first by the second and `apply` asks the
second, so what is offered and what is accepted cannot disagree. `legal` skips the question
where `reject` could refuse none of the seat to move's candidates (`_unrefused`: his cards,
bids and discards), and asks only the card play's part of it for the actions open out of
turn (`_any_turn`), since a server lists every seat's actions after each move; a property
test checks the lists are the same.
"""

from bisect import bisect_right
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from engine.bits import iter_bits, popcount
from engine.errors import IllegalAction, InvalidInput
from engine.skat.actions import (
    Abandon,
    AcceptClaim,
    Action,
    Bid,
    Claim,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    Play,
    Re,
    RefuseClaim,
    Resign,
)
from engine.skat.cards import GAME_TYPES, NULL_VALUES, format_card, parse_card
from engine.skat.rules import BID_VALUES, CONCEDE_MIN_CARDS, FULL_HAND

if TYPE_CHECKING:
    from engine.skat.state import State

__all__ = ["candidates", "legal", "reject"]


def candidates(state: "State", seat: int) -> Iterator[Action]:
    """A superset of the legal actions of `seat`; `reject` filters it."""
    if state.phase == "over" or seat not in state.active_seats:
        return
    if seat != state.to_move:  # out of turn only these, and only in the card play
        if state.phase == "play":
            yield from _any_turn_in_play(state, seat)
        return
    if state.phase == "bidding":
        yield Pass()
        yield Hold()
        if not state.awaiting_answer:  # who answers a bid may only hold or pass
            for value in BID_VALUES:
                if value > state.bid:
                    yield Bid(value)
    elif state.phase == "skat":
        yield PickUpSkat()
        yield from _declarations(hand=True)
    elif state.phase == "discard":
        yield from _discards(state.hands[seat])
    elif state.phase == "declare":
        yield from _declarations(hand=False)
    elif state.phase == "push":
        yield from _push_candidates(state, seat)
    elif state.phase == "play":
        yield from _plays(state, seat)
        yield from _any_turn_in_play(state, seat)


def legal(state: "State", seat: int) -> list[Action]:
    """Every action `seat` may take now: `candidates` that `reject` allows. Where `reject`
    could refuse none of them, the seat to move's actions are listed without asking it
    (`_unrefused`): a server lists every seat's actions after each move."""
    if seat == state.to_move:  # None once the deal is over
        listed = _unrefused(state, seat)
        if listed is not None:
            return listed
    elif state.phase == "play" and seat in state.active_seats:
        return _any_turn(state, seat)
    return [a for a in candidates(state, seat) if reject(state, seat, a) is None]


def _unrefused(state: "State", seat: int) -> list[Action] | None:
    """The legal actions of the seat to move where each is allowed by construction: the
    cards he may play (`State.playable` is `reject`'s own test of a card; unless a claim
    waits), the bids above the last (or hold and pass when he answers one) and every
    discard (two cards of his hand, the higher first); None in the other phases."""
    phase = state.phase
    if phase == "play" and not state.claim_open:
        listed: list[Action] = list(_plays(state, seat))
        return listed + _any_turn(state, seat)
    if phase == "bidding":
        if state.awaiting_answer:
            return [_PASS, _HOLD]
        return [_PASS, *_BIDS[bisect_right(BID_VALUES, state.bid) :]]
    if phase == "discard":
        return list(_discards(state.hands[seat]))
    return None


def _plays(state: "State", seat: int) -> Iterator[Play]:
    return (_PLAYS[card] for card in sorted(iter_bits(state.playable(seat)), reverse=True))


_PLAYS: Final = tuple(Play(format_card(card)) for card in range(32))
_PASS: Final = Pass()
_HOLD: Final = Hold()
_BIDS: Final = tuple(Bid(value) for value in BID_VALUES)


def _discards(hand: int) -> Iterator[Discard]:
    """Every pair of cards of `hand`, the higher card first, in `candidates`' order."""
    cards = sorted(iter_bits(hand), reverse=True)
    for i, first in enumerate(cards):
        for second in cards[i + 1 :]:
            yield _DISCARDS[first, second]


_DISCARDS: Final = {
    (first, second): Discard((format_card(first), format_card(second)))
    for first in range(32)
    for second in range(first)
}


def reject(state: "State", seat: int, action: Action) -> IllegalAction | None:
    """Why `seat` may not take `action` now, or None if it may."""
    if state.phase == "over":
        return IllegalAction("game_over", "the deal is over")
    if seat not in state.active_seats:
        return IllegalAction("not_a_player", f"seat {seat} does not play this deal")
    if isinstance(action, Abandon):
        return IllegalAction("not_a_move", "leaving the table is not a move: the server records it")
    if state.phase == "bidding":
        return _reject_bidding(state, seat, action)
    if isinstance(action, _ANY_TURN):
        return _reject_any_turn(state, seat, action)
    if state.claim_open:
        return _claim_open()
    if seat != state.to_move:
        return IllegalAction("not_your_turn", f"it is seat {state.to_move}'s turn")
    if state.phase == "skat":
        if isinstance(action, PickUpSkat):
            return None
        if isinstance(action, Declare):
            return _reject_declaration(action, hand=True, bid=state.bid)
        return _wrong_phase(action, "pick up the skat or declare a hand game")
    if state.phase == "discard":
        if isinstance(action, Discard):
            return _reject_discard(state, seat, action)
        return _wrong_phase(action, "discard two cards")
    if state.phase == "push":
        return _reject_push(state, seat, action)
    if state.phase == "declare":
        if isinstance(action, Declare):
            return _reject_declaration(action, hand=False, bid=state.bid)
        return _wrong_phase(action, "declare the game")
    if isinstance(action, Play):
        return _reject_play(state, seat, action)
    return _wrong_phase(action, "play a card")


def _reject_bidding(state: "State", seat: int, action: Action) -> IllegalAction | None:
    if seat != state.to_move:
        return IllegalAction("not_your_turn", f"it is seat {state.to_move}'s turn to bid")
    if isinstance(action, Pass):
        return None
    if isinstance(action, Hold):
        if not state.awaiting_answer:
            return IllegalAction("nothing_to_hold", "there is no bid to hold: bid or pass")
        return None
    if isinstance(action, Bid):
        if state.awaiting_answer:
            return IllegalAction("must_answer", "answer the bid: hold or pass")
        if action.value not in _BID_VALUE_SET:
            return IllegalAction("not_a_bid_value", f"{action.value} is not a bid value")
        if action.value <= state.bid:
            return IllegalAction("bid_too_low", f"a bid must exceed {state.bid}")
        return None
    return _wrong_phase(action, "bid, hold or pass")


_BID_VALUE_SET: Final = frozenset(BID_VALUES)  # a bid is checked once per value offered


def _push_candidates(state: "State", seat: int) -> Iterator[Action]:
    """Schieberamsch: pick up or pass on; after a pick-up, every pair of cards (jacks too:
    `reject` refuses them, with the reason)."""
    if not state.picked_up:
        yield PickUpSkat()
        yield Pass()
        return
    yield from _discards(state.hands[seat])


def _reject_push(state: "State", seat: int, action: Action) -> IllegalAction | None:
    if isinstance(action, PickUpSkat | Pass):
        if state.picked_up:
            return IllegalAction("push_two_cards", "you took the skat: push two cards on")
        return None
    if isinstance(action, Discard):
        if not state.picked_up:
            return IllegalAction("skat_not_taken", "pick up the skat before pushing cards")
        error = _reject_discard(state, seat, action)
        if error is None and any(c.startswith("J") for c in action.cards):
            return IllegalAction("no_jacks_pushed", "jacks may not be pushed on")
        return error
    return _wrong_phase(action, "pick up the skat or pass it on")


def _reject_discard(state: "State", seat: int, action: Discard) -> IllegalAction | None:
    try:
        cards = [parse_card(c) for c in action.cards]
    except InvalidInput as error:
        return IllegalAction("not_a_card", str(error))
    if cards[0] == cards[1]:
        return IllegalAction("bad_discard", "discard two different cards")
    if any(not state.hands[seat] >> c & 1 for c in cards):
        return IllegalAction("not_in_hand", "you can only discard cards you hold")
    if cards[0] < cards[1]:
        return IllegalAction(
            "discard_order",
            f"name the higher card first, as legal_actions lists it: "
            f"{action.cards[1]} {action.cards[0]}",
        )
    return None


def _reject_play(state: "State", seat: int, action: Play) -> IllegalAction | None:
    try:
        card = parse_card(action.card)
    except InvalidInput as error:
        return IllegalAction("not_a_card", str(error))
    if not state.hands[seat] >> card & 1:
        return IllegalAction("not_in_hand", f"you do not hold {action.card}")
    if not state.playable(seat) >> card & 1:
        return IllegalAction("must_follow_suit", f"{action.card} does not follow suit")
    return None


_ANY_TURN: Final = (Claim, AcceptClaim, RefuseClaim, Kontra, Re, Resign)


def _reject_any_turn(state: "State", seat: int, action: Action) -> IllegalAction | None:
    """`reject` for an action of `_ANY_TURN` (open to a seat out of turn) in a deal that is
    not over or in its bidding, by a seat that plays it."""
    if isinstance(action, Claim | AcceptClaim | RefuseClaim):
        return _reject_claim(state, seat, action)
    if state.claim_open:
        return _claim_open()
    assert isinstance(action, Kontra | Re | Resign)
    return _reject_special(state, seat, action)


def _claim_open() -> IllegalAction:
    return IllegalAction("claim_open", "the defenders answer the declarer's claim first")


def _any_turn(state: "State", seat: int) -> list[Action]:
    """The legal actions of `_any_turn_in_play`: `candidates` and `reject` without the
    checks they pass in the card play."""
    return [a for a in _any_turn_in_play(state, seat) if _reject_any_turn(state, seat, a) is None]


def _reject_claim(
    state: "State", seat: int, action: Claim | AcceptClaim | RefuseClaim
) -> IllegalAction | None:
    """ISkO 4.4.4: the declarer claims during the card play of a declared game; each
    defender answers once; after a refusal he may claim again once a trick is complete."""
    if state.phase != "play" or state.ramsch:
        return IllegalAction("wrong_phase", "only during the card play of a declared game")
    if isinstance(action, Claim):
        if seat != state.declarer:
            return IllegalAction("not_declarer", "only the declarer claims the rest")
        if state.claim_open:
            return IllegalAction("claim_open", "your claim waits for the defenders' answers")
        if state.claim_refused_at == len(state.tricks):
            return IllegalAction(
                "claim_refused", "your claim was refused: claim again after the next trick"
            )
        return None
    if not state.claim_open:
        return IllegalAction("no_claim", "there is no claim to answer")
    if seat == state.declarer:
        return IllegalAction("not_a_defender", "the defenders answer the claim")
    if state.claim_accepted >> seat & 1:
        return IllegalAction("already_answered", "you have accepted the claim already")
    return None


def _reject_special(
    state: "State", seat: int, action: Kontra | Re | Resign
) -> IllegalAction | None:
    if state.phase != "play" or state.ramsch:
        return IllegalAction("wrong_phase", "only during the card play of a declared game")
    is_declarer = seat == state.declarer
    if isinstance(action, Resign):
        if state.resigned >> seat & 1:
            return IllegalAction("already_resigned", "you have already resigned")
        if (
            is_declarer
            and not state.rules.iss_compat
            and popcount(state.hands[seat]) < CONCEDE_MIN_CARDS
        ):
            return IllegalAction(
                "too_late_to_concede",
                "the declarer may give up alone only while he holds nine or ten cards",
            )
        return None
    if not state.rules.kontra:
        return IllegalAction("kontra_not_played", "Kontra and Re are off at this table")
    if isinstance(action, Kontra):
        if is_declarer or not state.bidders >> seat & 1:
            return IllegalAction(
                "kontra_not_allowed", "only a defender who took part in the bidding says Kontra"
            )
        if state.kontra:
            return IllegalAction("kontra_not_allowed", "Kontra has been said already")
        if popcount(state.hands[seat]) < FULL_HAND:
            return IllegalAction("kontra_too_late", "Kontra only before your first card")
        return None
    if not is_declarer or state.kontra != 1:
        return IllegalAction("re_not_allowed", "only the declarer answers a Kontra with Re")
    if popcount(state.hands[seat]) != state.kontra_hand:
        return IllegalAction("re_too_late", "Re only before your next card after the Kontra")
    return None


def _wrong_phase(action: Action, expected: str) -> IllegalAction:
    name = type(action).__name__.lower()
    return IllegalAction("wrong_phase", f"{name} is not possible now: {expected}")


def _any_turn_in_play(state: "State", seat: int) -> Iterator[Action]:
    """Card-play actions open to a seat whether or not it is his turn, without those `reject`
    refuses before looking further (in Ramsch; Kontra and Re off; a claim by a defender, an
    answer with no claim open); `reject` decides the rest."""
    if state.ramsch:
        return
    if state.rules.kontra:
        yield _KONTRA
        yield _RE
    yield _RESIGN
    if seat == state.declarer:
        yield _CLAIM
    elif state.claim_open:
        yield _ACCEPT_CLAIM
        yield _REFUSE_CLAIM


_KONTRA: Final = Kontra()
_RE: Final = Re()
_RESIGN: Final = Resign()
_CLAIM: Final = Claim()
_ACCEPT_CLAIM: Final = AcceptClaim()
_REFUSE_CLAIM: Final = RefuseClaim()


def _declarations(*, hand: bool) -> Iterator[Declare]:
    """Every declaration form once, in normalised form (ouvert implies both announcements)."""
    for game in GAME_TYPES:
        if game == "null":
            yield Declare("null")
            yield Declare("null", ouvert=True)
        elif not hand:
            yield Declare(game)
        else:
            yield Declare(game)
            yield Declare(game, schneider=True)
            yield Declare(game, schneider=True, schwarz=True)
            yield Declare(game, schneider=True, schwarz=True, ouvert=True)


def _reject_declaration(action: Declare, *, hand: bool, bid: int) -> IllegalAction | None:
    """ISkO 3.4 / docs/skat-rules.md section 4: which announcements combine."""
    if action.game not in GAME_TYPES:
        return IllegalAction("unknown_game", f"unknown game type {action.game!r}")
    if action.game == "null":
        if action.schneider or action.schwarz:
            return IllegalAction("bad_announcement", "null has no schneider or schwarz")
        value = NULL_VALUES[(action.ouvert, hand)]
        if value < bid:
            return IllegalAction(
                "null_below_bid", f"this null is worth {value}, less than the bid {bid}"
            )
        return None
    if (action.schneider or action.schwarz or action.ouvert) and not hand:
        return IllegalAction(
            "bad_announcement", "schneider, schwarz and ouvert are announced only in hand games"
        )
    if action.schwarz and not action.schneider:
        return IllegalAction("bad_announcement", "schwarz announced implies schneider announced")
    if action.ouvert and not action.schwarz:
        return IllegalAction("bad_announcement", "ouvert implies schneider and schwarz announced")
    return None
