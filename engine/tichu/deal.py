"""A Tichu deal: eight cards per seat before the Grand Tichu decision, then six more."""

from typing import Final

import msgspec

from engine.bits import popcount
from engine.errors import InvalidInput
from engine.rng import make_stream_rng
from engine.tichu.cards import ALL_CARDS, CardMask, format_cards, parse_cards

__all__ = [
    "FIRST_CARDS",
    "HAND_SIZE",
    "LEFT",
    "PARTNER",
    "RIGHT",
    "SEATS",
    "Deal",
    "Hands",
    "deal_from_seed",
    "parse_deal",
    "seat_at",
]

SEATS: Final = 4
# Offsets from a seat in turn order: the next player (right), the partner, the previous (left).
RIGHT: Final = 1
PARTNER: Final = 2
LEFT: Final = 3
FIRST_CARDS: Final = 8
HAND_SIZE: Final = 14
_SECOND_CARDS: Final = HAND_SIZE - FIRST_CARDS
_CARD_MASKS: Final = tuple(1 << i for i in range(64) if ALL_CARDS >> i & 1)
_SIZES: Final = [FIRST_CARDS] * SEATS + [_SECOND_CARDS] * SEATS

Hands = tuple[CardMask, CardMask, CardMask, CardMask]


def seat_at(seat: int, offset: int) -> int:
    """The seat `offset` places after `seat` in turn order (RIGHT, PARTNER, LEFT)."""
    return (seat + offset) % SEATS


class Deal(msgspec.Struct, frozen=True):
    """Cards by seat: `first[s]` seen before the Grand Tichu decision, `second[s]` after."""

    first: Hands
    second: Hands

    def __post_init__(self) -> None:
        masks = (*self.first, *self.second)
        union = 0
        for mask in masks:
            union |= mask
        sizes = [popcount(m) for m in masks]
        if sum(sizes) != popcount(union):
            raise InvalidInput("a card is dealt twice")
        if sizes != _SIZES or union != ALL_CARDS:
            raise InvalidInput("a deal gives every seat 8 + 6 of the 56 cards")

    def to_text(self) -> dict[str, list[list[str]]]:
        """Card notation: {"first": [[...] x4], "second": [[...] x4]}."""
        return {
            "first": [list(format_cards(m)) for m in self.first],
            "second": [list(format_cards(m)) for m in self.second],
        }


def parse_deal(first: list[list[str]], second: list[list[str]]) -> Deal:
    """A deal from card texts per seat; raises InvalidInput unless it is a full, valid deal."""
    if len(first) != SEATS or len(second) != SEATS:
        raise InvalidInput("a deal needs four seats")
    a0, a1, a2, a3 = (parse_cards(h) for h in first)
    b0, b1, b2, b3 = (parse_cards(h) for h in second)
    return Deal(first=(a0, a1, a2, a3), second=(b0, b1, b2, b3))


def deal_from_seed(seed: int, round_index: int) -> Deal:
    """A uniformly random deal, reproducible from (`seed`, `round_index`).

    The shuffled deck is dealt in blocks: seat s gets d[8s : 8s+8] first and
    d[32+6s : 38+6s] after the Grand Tichu decisions.
    """
    order = make_stream_rng(seed, round_index).permutation(len(_CARD_MASKS)).tolist()
    deck = [_CARD_MASKS[i] for i in order]
    second_start = SEATS * FIRST_CARDS
    # distinct single bits: their sum is their union
    first = [
        sum(deck[start : start + FIRST_CARDS]) for start in range(0, second_start, FIRST_CARDS)
    ]
    second = [
        sum(deck[start : start + _SECOND_CARDS])
        for start in range(second_start, len(deck), _SECOND_CARDS)
    ]
    return Deal(
        first=(first[0], first[1], first[2], first[3]),
        second=(second[0], second[1], second[2], second[3]),
    )
