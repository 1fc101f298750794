"""Tichu and Grand Tichu calls: a threshold on the utility of the hand's best partition.

The utility of a hand is the evaluation function applied to its best partition with nothing
played (as if the hand were held with the lead to come). A seat calls when the utility
reaches the threshold, never when its partner has called already (one caller per team keeps
the partner free to support). Grand Tichu is decided on eight cards: its utility is the mean
utility of the hand completed with random draws of the six cards still to come.
"""

from collections.abc import Callable
from typing import Final

import numpy as np

from bots.tichu.evaluation import Evaluator
from bots.tichu.partition import HandPartitions, partitions
from bots.tichu.situation import Situation
from engine.bits import iter_bits
from engine.tichu.cards import ALL_CARDS, CardMask
from engine.tichu.combos import NO_COMBO
from engine.tichu.deal import FIRST_CARDS, HAND_SIZE
from engine.tichu.scoring import NO_CALL

__all__ = ["GRAND_SAMPLES", "grand_utility", "hand_utility", "partner_called"]

GRAND_SAMPLES: Final = 8  # random completions of the eight-card hand
_SECOND_CARDS: Final = HAND_SIZE - FIRST_CARDS


def partner_called(sit: Situation) -> bool:
    """Whether the partner has called Tichu or Grand Tichu."""
    return sit.calls[sit.partner] != NO_CALL


def hand_utility(evaluator: Evaluator, hand_partitions: HandPartitions) -> float:
    """The evaluation of the hand's best partition with nothing played."""
    best = 0.0
    for parts in hand_partitions.partitions:
        terms = evaluator.partition_terms(parts)
        value = evaluator.score(evaluator.properties(terms, None, NO_COMBO, 0.0))
        best = max(best, value)
    return best


def grand_utility(
    sit: Situation,
    make_evaluator: Callable[[Situation], Evaluator],
    slack: int,
    rng: np.random.Generator,
    samples: int = GRAND_SAMPLES,
) -> float:
    """Mean utility of the eight-card hand completed by `samples` random six-card draws."""
    pool = [1 << c for c in iter_bits(ALL_CARDS & ~sit.hand)]
    total = 0.0
    for _ in range(samples):
        drawn: CardMask = 0
        for index in rng.choice(len(pool), size=_SECOND_CARDS, replace=False):
            drawn |= pool[int(index)]
        hand = sit.hand | drawn
        full = sit._replace(hand=hand, unseen=ALL_CARDS & ~hand)
        total += hand_utility(make_evaluator(full), partitions(hand, slack))
    return total / samples
