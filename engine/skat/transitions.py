"""How each action changes a Skat deal: the transitions `State.apply` runs once `legality`
has accepted the action (or the caller vouches for it, `State.apply_listed`).

Bidding (middlehand to forehand, rearhand to the survivor, forehand alone), the Schieberamsch
pushes, taking the skat, the declaration, card play with its early ends, Kontra and Re,
resignations and claims: each a pure function from the state before to the state after.
"""

from typing import TYPE_CHECKING

import msgspec

from engine.bits import popcount
from engine.errors import IllegalAction
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
    PickUpSkat,
    Play,
    Re,
    RefuseClaim,
    Resign,
)
from engine.skat.cards import card_points, parse_card, winning_index
from engine.skat.rules import CARDS_PER_TRICK, NO_SEAT, TRICKS_PER_DEAL
from engine.skat.scoring import SCHNEIDER_LOSS_POINTS

if TYPE_CHECKING:
    from engine.skat.state import State

__all__ = ["STAGE_FOREHAND_ALONE", "STAGE_MIDDLEHAND", "STAGE_REARHAND", "Trick", "transition"]

# Bidding stages: middlehand bids to forehand, rearhand to the survivor, forehand alone.
STAGE_MIDDLEHAND, STAGE_REARHAND, STAGE_FOREHAND_ALONE = 1, 2, 3


class Trick(msgspec.Struct, frozen=True):
    """A completed trick: who led, the cards in playing order, who won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int


def transition(state: "State", seat: int, action: Action) -> "State":
    log = (*state.log, (seat, action))
    if isinstance(action, Abandon):
        return msgspec.structs.replace(
            state, phase="over", abandoned_by=seat, ended_by="abandoned", log=log
        )
    if state.phase == "bidding":
        return _bidding_step(state, seat, action, log)
    if state.phase == "push":
        return _push_step(state, seat, action, log)
    if isinstance(action, PickUpSkat):
        hands = _with(state.hands, seat, state.hands[seat] | state.skat)
        return msgspec.structs.replace(
            state, phase="discard", hands=hands, skat=0, picked_up=True, log=log
        )
    if isinstance(action, Discard):
        mask = sum(1 << parse_card(c) for c in action.cards)
        hands = _with(state.hands, seat, state.hands[seat] & ~mask)
        return msgspec.structs.replace(state, phase="declare", hands=hands, skat=mask, log=log)
    if isinstance(action, Declare):
        return msgspec.structs.replace(
            state, phase="play", contract=action, leader=state.position_seat(0), log=log
        )
    if isinstance(action, Kontra):
        return msgspec.structs.replace(
            state, kontra=1, kontra_hand=popcount(state.hands[state.declarer]), log=log
        )
    if isinstance(action, Re):
        return msgspec.structs.replace(state, kontra=2, log=log)
    if isinstance(action, Resign):
        return _resign(state, seat, log)
    if isinstance(action, Claim):
        return msgspec.structs.replace(
            state, shown=True, claim_open=True, claim_accepted=0, log=log
        )
    if isinstance(action, AcceptClaim):
        accepted = state.claim_accepted | (1 << seat)
        if all(accepted >> s & 1 for s in state.defenders):
            return msgspec.structs.replace(
                state, claim_accepted=accepted, phase="over", ended_by="claimed", log=log
            )
        return msgspec.structs.replace(state, claim_accepted=accepted, log=log)
    if isinstance(action, RefuseClaim):
        return msgspec.structs.replace(
            state,
            claim_open=False,
            claim_accepted=0,
            claim_refused_at=len(state.tricks),
            log=log,
        )
    if isinstance(action, Play):
        return _play(state, seat, parse_card(action.card), log)
    raise IllegalAction("unknown_action", f"unknown action {action!r}")


def _bidding_step(
    state: "State", seat: int, action: Action, log: tuple[tuple[int, Action], ...]
) -> "State":
    replace = msgspec.structs.replace
    bidders = state.bidders | (1 << seat) if isinstance(action, Bid | Hold) else state.bidders
    if isinstance(action, Bid):
        if state.stage == STAGE_FOREHAND_ALONE:
            return _end_bidding(state, seat, action.value, bidders, log)
        return replace(state, bid=action.value, awaiting_answer=True, bidders=bidders, log=log)
    if isinstance(action, Hold):
        return replace(state, awaiting_answer=False, bidders=bidders, log=log)
    # A pass.
    if state.stage == STAGE_FOREHAND_ALONE:
        return _all_passed(state, log)
    survivor = state.answerer if seat == state.bidder else state.bidder
    if state.stage == STAGE_MIDDLEHAND:
        return replace(
            state,
            stage=STAGE_REARHAND,
            bidder=state.position_seat(2),
            answerer=survivor,
            awaiting_answer=False,
            log=log,
        )
    if seat == state.bidder and state.bid == 0:
        return replace(
            state,
            stage=STAGE_FOREHAND_ALONE,
            bidder=state.position_seat(0),
            answerer=NO_SEAT,
            awaiting_answer=False,
            log=log,
        )
    return _end_bidding(state, survivor, state.bid, bidders, log)


def _end_bidding(
    state: "State", declarer: int, bid: int, bidders: int, log: tuple[tuple[int, Action], ...]
) -> "State":
    return msgspec.structs.replace(
        state,
        phase="skat",
        declarer=declarer,
        bid=bid,
        bidders=bidders,
        bidder=NO_SEAT,
        answerer=NO_SEAT,
        awaiting_answer=False,
        log=log,
    )


def _all_passed(state: "State", log: tuple[tuple[int, Action], ...]) -> "State":
    if state.rules.all_pass == "schieberamsch":
        return msgspec.structs.replace(
            state,
            phase="push",
            ramsch=True,
            pusher=state.position_seat(0),
            bidder=NO_SEAT,
            answerer=NO_SEAT,
            log=log,
        )
    if state.rules.all_pass == "ramsch":
        return msgspec.structs.replace(
            state,
            phase="play",
            ramsch=True,
            leader=state.position_seat(0),
            bidder=NO_SEAT,
            answerer=NO_SEAT,
            log=log,
        )
    return msgspec.structs.replace(state, phase="over", ended_by="passed_in", log=log)


def _push_step(
    state: "State", seat: int, action: Action, log: tuple[tuple[int, Action], ...]
) -> "State":
    """Schieberamsch: pick up the skat, then push two cards on (a doubling); or pass it
    on unseen. After rearhand the Ramsch is played, forehand leading."""
    replace = msgspec.structs.replace
    if isinstance(action, PickUpSkat):
        hands = _with(state.hands, seat, state.hands[seat] | state.skat)
        return replace(state, hands=hands, skat=0, picked_up=True, log=log)
    pushed = state
    if isinstance(action, Discard):
        mask = sum(1 << parse_card(c) for c in action.cards)
        hands = _with(state.hands, seat, state.hands[seat] & ~mask)
        pushed = replace(state, hands=hands, skat=mask, pushes=state.pushes + 1)
    if seat == state.position_seat(2):
        return replace(
            pushed,
            phase="play",
            pusher=NO_SEAT,
            picked_up=False,
            leader=state.position_seat(0),
            log=log,
        )
    return replace(pushed, pusher=state.next_seat(seat), picked_up=False, log=log)


def _play(state: "State", seat: int, card: int, log: tuple[tuple[int, Action], ...]) -> "State":
    hands = _with(state.hands, seat, state.hands[seat] & ~(1 << card))
    trick = (*state.trick, card)
    if len(trick) < CARDS_PER_TRICK:
        return msgspec.structs.replace(state, hands=hands, trick=trick, log=log)
    game = state.game
    assert game is not None
    winner = state.leader
    for _ in range(winning_index(game, trick)):
        winner = state.next_seat(winner)
    mask = sum(1 << c for c in trick)
    taken = _with(state.taken, winner, state.taken[winner] | mask)
    tricks = (*state.tricks, Trick(state.leader, trick, winner))
    after = msgspec.structs.replace(
        state, hands=hands, trick=(), tricks=tricks, taken=taken, leader=winner, log=log
    )
    ended_by = _early_end(after, winner)
    if ended_by:
        return msgspec.structs.replace(after, phase="over", ended_by=ended_by)
    return after


def _early_end(state: "State", winner: int) -> str:
    """Why the deal ends after this trick, or "" to play on (docs/iss-format.md section 4)."""
    if len(state.tricks) == TRICKS_PER_DEAL:
        return "played_out"
    if state.ramsch or state.contract is None:
        return ""
    if state.contract.game == "null":
        return "null_trick" if winner == state.declarer else ""
    if winner != state.declarer and (state.contract.schwarz or state.contract.ouvert):
        return "schwarz_broken"
    if state.contract.schneider:
        against = sum(card_points(state.taken[s]) for s in state.defenders)
        if against > SCHNEIDER_LOSS_POINTS:
            return "schneider_broken"
    return ""


def _resign(state: "State", seat: int, log: tuple[tuple[int, Action], ...]) -> "State":
    resigned = state.resigned | (1 << seat)
    after = msgspec.structs.replace(state, resigned=resigned, log=log)
    both_defenders = all(resigned >> s & 1 for s in state.defenders)
    if seat == state.declarer or not state.rules.iss_compat or both_defenders:
        return msgspec.structs.replace(after, phase="over", ended_by="resigned")
    return after


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])
