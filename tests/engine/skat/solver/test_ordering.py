"""The lead ordering's ruff test: which plain suits an opponent of the leader can ruff, and
whether any opponent holds a trump."""

import numpy as np

from engine.skat.solver.ordering import _ruffed_suits
from engine.skat.solver.position import KIND_POINTS, R_MASK, TRUMP_ID, rules_table


def _hand(rules: np.ndarray, *suits: int, trumps: int = 0) -> int:
    """One card of each of `suits` and `trumps` trumps, in internal indices."""
    hand = 0
    for suit in suits:
        mask = int(rules[R_MASK + suit])
        hand |= mask & -mask
    trump_cards = int(rules[R_MASK + TRUMP_ID])
    for _ in range(trumps):
        low = trump_cards & -trump_cards
        hand |= low
        trump_cards ^= low
    return hand


def test_a_suit_is_ruffed_only_by_an_opponent_void_in_it_with_trumps() -> None:
    rules = rules_table("hearts", KIND_POINTS)
    declarer_hand = _hand(rules, 0, 1, trumps=2)  # void in suits 2 and 3
    defender_trumps = _hand(rules, 0, 2)  # void in 1 and 3, but holds no trumps ...
    defender = _hand(rules, 1, 2, 3, trumps=0)  # void in 0, no trumps
    hands = np.array([declarer_hand, defender_trumps, defender], dtype=np.int64)
    no_trumps = 1 << TRUMP_ID
    # Defenders lead: the declarer can ruff suits 2 and 3.
    assert _ruffed_suits(hands, 1, 0, rules) == 0b1100
    # The declarer leads: no defender holds a trump.
    assert _ruffed_suits(hands, 0, 0, rules) == no_trumps
    hands[1] |= _hand(rules, trumps=3) & ~declarer_hand  # now defender 1 holds trumps
    assert _ruffed_suits(hands, 0, 0, rules) == 0b1010
