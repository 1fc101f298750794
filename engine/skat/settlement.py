"""The result of a finished Skat deal: game value, won or lost, list and Seeger-Fabian points
(ISkO 5; docs/skat-rules.md), for declared games, Ramsch, passed-in and aborted deals, a
Bock deal's list value doubled."""

from typing import TYPE_CHECKING

import msgspec

from engine.skat.cards import CARD_POINTS, card_points
from engine.skat.rules import NO_SEAT, TRICKS_PER_DEAL
from engine.skat.scoring import (
    SCHNEIDER_POINTS,
    WIN_POINTS,
    Result,
    bock_deals_after,
    doubled,
    matadors,
    ramsch_scores,
    seeger_fabian,
    value_null_game,
    value_trump_game,
)

if TYPE_CHECKING:
    from engine.skat.state import State

__all__ = ["settle"]


def settle(state: "State") -> Result:
    """The deal's result; at a Bock table with the Bock deals its list then owes."""
    result = _settle(state)
    if not state.rules.bock:
        return result
    due = bock_deals_after(state.players, state.start.bock_due, result)
    return msgspec.structs.replace(result, bock_due=due)


def _settle(state: "State") -> Result:
    n = state.players
    zeros = (0,) * n
    if state.ended_by == "passed_in":
        return _empty_result(state, passed_in=True, seeger_fabian=zeros)
    if state.ramsch:
        return _settle_ramsch(state)
    if state.contract is None:
        return _settle_abort(state)
    return _settle_declared(state)


def _empty_result(state: "State", **fields: object) -> Result:
    base: dict[str, object] = {
        "declarer": None,
        "game": None,
        "hand": False,
        "schneider_announced": False,
        "schwarz_announced": False,
        "ouvert": False,
        "bid": state.bid,
        "won": None,
        "game_value": 0,
        "list_value": 0,
        "matadors": 0,
        "overbid": False,
        "declarer_points": 0,
        "declarer_tricks": 0,
        "schneider": False,
        "schwarz": False,
        "seeger_fabian": (0,) * state.players,
        "ended_by": state.ended_by,
        "bock": state.start.bock,
    }
    base.update(fields)
    return Result(**base)  # type: ignore[arg-type]


def _settle_ramsch(state: "State") -> Result:
    """Ramsch: the skat goes to the winner of the last trick (house rule)."""
    seats = state.active_seats
    taken = list(state.taken)
    if state.tricks:
        last = state.tricks[-1].winner
        taken[last] |= state.skat
    points = tuple(card_points(taken[s]) for s in seats)
    tricks = tuple(sum(1 for t in state.tricks if t.winner == s) for s in seats)
    played_out = state.ended_by == "played_out"
    scores = ramsch_scores(points, tricks, state.pushes) if played_out else (0, 0, 0)
    per_seat = [0] * state.players
    for seat, score in zip(seats, scores, strict=True):
        per_seat[seat] = doubled(score, kontra=0, bock=state.start.bock)
    return _empty_result(state, ramsch=True, seeger_fabian=tuple(per_seat), pushes=state.pushes)


def _settle_abort(state: "State") -> Result:
    """Abandoned before a contract: a penalty game. A declarer who leaves before announcing
    loses the value of his bid, doubled; otherwise nothing is scored."""
    culprit = state.abandoned_by
    if state.declarer == NO_SEAT or culprit != state.declarer:
        declarer = None if state.declarer == NO_SEAT else state.declarer
        return _empty_result(state, declarer=declarer, aborted=True, penalized=(culprit,))
    list_value = -2 * state.bid
    return _empty_result(
        state,
        declarer=culprit,
        won=False,
        game_value=state.bid,
        list_value=list_value,
        aborted=True,
        penalized=(culprit,),
        seeger_fabian=seeger_fabian(state.players, culprit, False, list_value),
    )


def _settle_declared(state: "State") -> Result:
    contract = state.contract
    assert contract is not None
    declarer = state.declarer
    defenders = state.defenders
    hand = not state.picked_up
    remaining = sum(state.hands) | sum(1 << c for c in state.trick)
    open_tricks = TRICKS_PER_DEAL - len(state.tricks)
    own_points = card_points(state.taken[declarer] | state.skat)
    own_tricks = sum(1 for t in state.tricks if t.winner == declarer)
    against = sum(card_points(state.taken[s]) for s in defenders)

    declarer_quit = state.ended_by in ("resigned", "abandoned") and (
        state.abandoned_by == declarer or state.resigned >> declarer & 1
    )
    # An accepted claim gives the declarer the rest, as a defenders' resignation does.
    defenders_quit = state.ended_by == "claimed" or (
        state.ended_by in ("resigned", "abandoned") and not declarer_quit
    )
    needed = WIN_POINTS
    if contract.schneider or contract.ouvert:
        needed = SCHNEIDER_POINTS
    lost_before = state.ended_by != "played_out" and (
        against > sum(CARD_POINTS) - needed
        or (
            (contract.schwarz or contract.ouvert)
            and any(t.winner != declarer for t in state.tricks)
        )
    )
    won_before = (
        not state.rules.iss_compat
        and not (contract.schwarz or contract.ouvert)
        and contract.game != "null"
        and own_points >= needed
    )
    # After a broken announcement the announced levels already count; the declarer's own
    # schneider/schwarz are not judged on an unfinished deal (as ISS record 13577 scores it).
    levels_against = state.ended_by not in ("schwarz_broken", "schneider_broken")
    if defenders_quit and contract.game != "null":
        own_points += card_points(remaining)
        own_tricks += open_tricks
    elif declarer_quit:
        levels_against = bool(state.tricks) and not (
            state.ended_by == "resigned" and not state.rules.iss_compat
        )
    lost_anyway = (declarer_quit and not won_before) or (defenders_quit and lost_before)

    if contract.game == "null":
        won = not declarer_quit and own_tricks == 0
        value = value_null_game(hand=hand, ouvert=contract.ouvert, won=won)
        matador_count = 0
    else:
        matador_count = matadors(
            contract.game,
            state.start.deal.hands[_position_of(state, declarer)] | state.start.deal.skat,
        )
        value = value_trump_game(
            contract.game,
            matador_count,
            hand=hand,
            schneider_announced=contract.schneider,
            schwarz_announced=contract.schwarz,
            ouvert=contract.ouvert,
            bid=state.bid,
            declarer_points=own_points,
            declarer_tricks=own_tricks,
            lost_anyway=lost_anyway,
            levels_against_declarer=levels_against,
        )
    list_value = doubled(value.list_value, kontra=state.kontra, bock=state.start.bock)
    return Result(
        declarer=declarer,
        game=contract.game,
        hand=hand,
        schneider_announced=contract.schneider,
        schwarz_announced=contract.schwarz,
        ouvert=contract.ouvert,
        bid=state.bid,
        won=value.won,
        game_value=value.game_value,
        list_value=list_value,
        matadors=matador_count,
        overbid=value.overbid,
        declarer_points=own_points,
        declarer_tricks=own_tricks,
        schneider=value.schneider,
        schwarz=value.schwarz,
        seeger_fabian=seeger_fabian(state.players, declarer, value.won, list_value),
        resigned=state.ended_by == "resigned",
        penalized=(state.abandoned_by,) if state.abandoned_by != NO_SEAT else (),
        kontra=state.kontra,
        ended_by=state.ended_by,
        bock=state.start.bock,
    )


def _position_of(state: "State", seat: int) -> int:
    return state.active_seats.index(seat)
