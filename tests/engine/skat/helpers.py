"""Fixtures for Skat rules tests: readable deals and scripted auctions."""

from engine.skat.actions import Action, Bid, Declare, Pass, PickUpSkat
from engine.skat.deal import parse_deal
from engine.skat.rules import Rules
from engine.skat.state import State, new_game

# Forehand, middlehand, rearhand and skat of a deal used across the tests.
FH = "JC JS AC TC KC AS TS AH TH 7D"
MH = "JH JD QC 9C KS QS 9S KH QH AD"
HH = "8C 7C 8S 7S 9H 8H 7H TD KD QD"
SKAT = "9D 8D"


def deal_state(
    fh: str = FH, mh: str = MH, hh: str = HH, skat: str = SKAT, rules: Rules | None = None
) -> State:
    """A fresh deal at a 3-table: seat 0 forehand, 1 middlehand, 2 rearhand."""
    deal = parse_deal([fh.split(), mh.split(), hh.split()], skat.split())
    return new_game(rules or Rules(), deal=deal)


def run(state: State, *moves: tuple[int, Action]) -> State:
    for seat, action in moves:
        state = state.apply(seat, action)
    return state


def declared(
    declarer: int = 0,
    game: Declare = Declare("grand"),
    *,
    pickup: bool = False,
    discard: tuple[str, str] | None = None,
    state: State | None = None,
) -> State:
    """A deal where `declarer` won the bidding at 18 and declared `game`."""
    from engine.skat.actions import Discard, Hold

    state = state or deal_state()
    if declarer == 0:
        state = run(state, (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    elif declarer == 1:
        state = run(state, (1, Bid(18)), (0, Pass()), (2, Pass()))
    else:
        state = run(state, (1, Pass()), (2, Bid(18)), (0, Pass()))
    if pickup:
        state = state.apply(declarer, PickUpSkat())
        assert discard is not None
        state = state.apply(declarer, Discard(discard))
    return state.apply(declarer, game)
