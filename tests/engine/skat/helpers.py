"""Fixtures for Skat rules tests: readable deals and scripted auctions."""

from engine.skat.actions import Action, Bid, Declare, Hold, Pass
from engine.skat.deal import parse_deal
from engine.skat.rules import Rules
from engine.skat.state import State, new_game

# Forehand, middlehand, rearhand and skat of a deal used across the tests.
FH = "JC JS AC TC KC AS TS AH TH 7D"
MH = "JH JD QC 9C KS QS 9S KH QH AD"
HH = "8C 7C 8S 7S 9H 8H 7H TD KD QD"
SKAT = "9D 8D"
GRAND = Declare("grand")


def deal_state(
    fh: str = FH, mh: str = MH, hh: str = HH, skat: str = SKAT, rules: Rules | None = None
) -> State:
    """A fresh deal at a 3-table: seat 0 forehand, 1 middlehand, 2 rearhand."""
    deal = parse_deal([fh.split(), mh.split(), hh.split()], skat.split())
    return new_game(rules or Rules(), deal=deal)


def run(state: State, *moves: tuple[int, Action]) -> State:
    """Apply moves in order."""
    for seat, action in moves:
        state = state.apply(seat, action)
    return state


def declared(declarer: int = 0, game: Declare = GRAND, *, state: State | None = None) -> State:
    """A deal where `declarer` won the bidding at 18 and declared `game` as a hand game."""
    state = state or deal_state()
    if declarer == 0:
        state = run(state, (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    elif declarer == 1:
        state = run(state, (1, Bid(18)), (0, Pass()), (2, Pass()))
    else:
        state = run(state, (1, Pass()), (2, Bid(18)), (0, Pass()))
    return state.apply(declarer, game)
