"""Analysis positions: a play-phase State built from one hand, the trick and the wish.

The command line (`tischrunde tichu legal`), the reference tests and bots asking "what could I
play here" use it, so they go through the same predicates as a real match instead of a second
implementation of the rules.
"""

from typing import Final

import msgspec

from engine.bits import iter_bits
from engine.errors import InvalidInput
from engine.tichu.cards import ALL_CARDS, DOG, CardMask
from engine.tichu.combos import NO_COMBO, classify
from engine.tichu.deal import SEATS
from engine.tichu.rules import Rules
from engine.tichu.state import State, new_game

__all__ = ["ON_TURN", "TRICK_SEAT", "position"]

ON_TURN: Final = 0
TRICK_SEAT: Final = SEATS - 1  # the player before the one on turn
_ANALYSIS_SEED: Final = 0


def position(
    hand: CardMask, trick: CardMask | None, wish: int = 0, rules: Rules | None = None
) -> State:
    """Seat 0 holds `hand` and is on turn; `trick` (None: the seat leads) lies on the table,
    led by seat 3; `wish` (0: none) is pending. The other cards are spread over seats 1-3.

    Raises InvalidInput when the hand is empty, the cards overlap, or the trick is no
    combination that can be answered (the Dog ends its trick at once).
    """
    table_cards = trick or 0
    if not hand:
        raise InvalidInput("the hand is empty")
    if hand & table_cards:
        raise InvalidInput("a card is both in the hand and on the table")
    table = NO_COMBO
    if trick is not None:
        table = classify(trick, NO_COMBO, phoenix_as_one=(rules or Rules()).phoenix_as_one)
        if table == NO_COMBO:
            raise InvalidInput("the trick is no combination")
        if trick == DOG:
            raise InvalidInput("the Dog ends its trick at once: nothing to answer")
    hands = [hand, 0, 0, 0]
    for i, card in enumerate(iter_bits(ALL_CARDS & ~hand & ~table_cards)):
        hands[1 + i % (SEATS - 1)] |= 1 << card
    start = new_game(rules or Rules(), seed=_ANALYSIS_SEED)
    return msgspec.structs.replace(
        start,
        phase="play",
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock=(0, 0, 0, 0),
        decided=(1 << SEATS) - 1,
        turn=ON_TURN,
        table=table,
        table_cards=table_cards,
        owner=TRICK_SEAT if trick is not None else -1,
        trick=table_cards,
        wish=wish,
    )
