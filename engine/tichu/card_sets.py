"""The building blocks of play generation (`plays`, `runs`, `bombs`): the card sets of one
value, precomputed per nibble of suits, and the sizes and masks the generators share.

A hand holds the cards of standard value v in the nibble at bit 4v (see `cards`), so the
cards of one value that a hand offers are a table lookup by that nibble.
"""

from typing import Final

from engine.bits import popcount
from engine.tichu.cards import (
    ACE,
    DRAGON_VALUE,
    LOWEST_RANK,
    MAHJONG,
    MAHJONG_VALUE,
    PHOENIX,
    RANK_STRIDE,
    CardMask,
)
from engine.tichu.combos import MIN_STRAIGHT, Combo

__all__ = [
    "LAST_STRAIGHT_BOTTOM",
    "NIBBLE",
    "NIBBLE_BASES",
    "PAIR_SIZE",
    "RUN_CARDS",
    "SETS",
    "SPAN_CACHE",
    "VALUE_SLOTS",
    "WITH_PHOENIX",
    "Play",
]

Play = tuple[CardMask, Combo]

NIBBLE: Final = (1 << RANK_STRIDE) - 1
PAIR_SIZE: Final = 2
VALUE_SLOTS: Final = DRAGON_VALUE + 1
# Cache size of the generators whose key is a span of values or a part of a hand.
SPAN_CACHE: Final = 1 << 16
LAST_STRAIGHT_BOTTOM: Final = ACE - MIN_STRAIGHT + 1
# Lowest bit of every standard nibble: where a full nibble (four of a kind) shows after ANDing
# the hand with its shifts by 1, 2 and 3.
NIBBLE_BASES: Final = sum(1 << (RANK_STRIDE * v) for v in range(LOWEST_RANK, ACE + 1))


def _subsets(value: int, nibble: int, k: int) -> tuple[CardMask, ...]:
    """The card sets of k cards of the standard `value` among the suits in `nibble`."""
    if not LOWEST_RANK <= value <= ACE:
        return ()
    shift = RANK_STRIDE * value
    return tuple(
        sub << shift for sub in range(NIBBLE + 1) if sub & nibble == sub and popcount(sub) == k
    )


# SETS[v][nibble][k]: `_subsets(v, nibble, k)`; WITH_PHOENIX[v][nibble]: each single of
# value v plus the Phoenix.
SETS: Final = tuple(
    tuple(tuple(_subsets(v, n, k) for k in range(RANK_STRIDE + 1)) for n in range(NIBBLE + 1))
    for v in range(VALUE_SLOTS)
)
WITH_PHOENIX: Final = tuple(
    tuple(tuple(s | PHOENIX for s in SETS[v][n][1]) for n in range(NIBBLE + 1))
    for v in range(VALUE_SLOTS)
)


# RUN_CARDS[v][nibble]: the cards that can stand for value v in a straight (the Mah Jong for 1).
RUN_CARDS: Final = tuple(
    tuple(
        ((MAHJONG,) if n & 1 else ()) if v == MAHJONG_VALUE else SETS[v][n][1]
        for n in range(NIBBLE + 1)
    )
    for v in range(VALUE_SLOTS)
)
