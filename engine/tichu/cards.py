"""Tichu cards as bits of a 64-bit mask, their text form, values and points.

Bit layout, rank-major so that a rank is a nibble and straights are shifts by `RANK_STRIDE`:
card value `v` (0..15) owns bits `4v .. 4v+3`, one per suit in the order j s p t (Jade, Sword,
Pagoda, Star). Standard cards 2..A (values 2..14) take bits 8..59; the specials sit in free
slots of their value's nibble: Dog bit 0 (value 0), Mah Jong bit 4 (value 1), Dragon bit 60
(value 15), Phoenix bit 61. All bits stay below 63, so masks fit numba's int64.

Because of this layout, ascending bit order is exactly the canonical order of the reference
file (value, then suit j s p t; Dog 0, Mah Jong 1, Dragon 15, Phoenix 16).

Text form is rank then suit, ranks `2-9 T J Q K A`, suits `j s p t`; specials `MahJong`, `Dog`,
`Phoenix`, `Dragon` (e.g. `Tj`, `As`).
"""

from collections.abc import Iterable
from typing import Final

from engine.bits import bit_index, popcount
from engine.errors import InvalidInput

__all__ = [
    "ACE",
    "ALL_CARDS",
    "DOG",
    "DRAGON",
    "DRAGON_VALUE",
    "FIVES",
    "LOWEST_RANK",
    "MAHJONG",
    "MAHJONG_VALUE",
    "PHOENIX",
    "RANKS",
    "RANK_MASK",
    "RANK_STRIDE",
    "SPECIALS",
    "STANDARD",
    "SUITS",
    "SUIT_MASK",
    "TENS_AND_KINGS",
    "CardMask",
    "card_points",
    "format_card",
    "format_cards",
    "format_rank",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "rank_of",
    "to_text",
]

CardMask = int

SUITS: Final = "jspt"
RANKS: Final = "23456789TJQKA"
RANK_STRIDE: Final = 4  # bits per value: a rank is one nibble
LOWEST_RANK: Final = 2
ACE: Final = 14
MAHJONG_VALUE: Final = 1
DRAGON_VALUE: Final = 15
_SUIT_COUNT: Final = 4
_NIBBLE: Final = (1 << RANK_STRIDE) - 1

DOG: Final = 1 << 0
MAHJONG: Final = 1 << (RANK_STRIDE * MAHJONG_VALUE)
DRAGON: Final = 1 << (RANK_STRIDE * DRAGON_VALUE)
PHOENIX: Final = 1 << (RANK_STRIDE * DRAGON_VALUE + 1)
SPECIALS: Final = DOG | MAHJONG | DRAGON | PHOENIX

# RANK_MASK[v]: the four standard cards of value v (0 outside 2..14).
RANK_MASK: Final = tuple(
    _NIBBLE << (RANK_STRIDE * v) if LOWEST_RANK <= v <= ACE else 0 for v in range(DRAGON_VALUE + 1)
)
STANDARD: Final = sum(RANK_MASK)
ALL_CARDS: Final = STANDARD | SPECIALS
# SUIT_MASK[s]: the thirteen standard cards of suit s.
SUIT_MASK: Final = tuple(
    sum(1 << (RANK_STRIDE * v + s) for v in range(LOWEST_RANK, ACE + 1)) for s in range(_SUIT_COUNT)
)
FIVES: Final = RANK_MASK[5]
TENS_AND_KINGS: Final = RANK_MASK[10] | RANK_MASK[13]

_FIVE_POINTS: Final = 5
_TEN_POINTS: Final = 10
_DRAGON_POINTS: Final = 25
_PHOENIX_POINTS: Final = -25

_SPECIAL_NAMES: Final = {DOG: "Dog", MAHJONG: "MahJong", DRAGON: "Dragon", PHOENIX: "Phoenix"}


def _build_names() -> dict[int, str]:
    names = {bit_index(bit): name for bit, name in _SPECIAL_NAMES.items()}
    for v in range(LOWEST_RANK, ACE + 1):
        for s, suit in enumerate(SUITS):
            names[RANK_STRIDE * v + s] = RANKS[v - LOWEST_RANK] + suit
    return names


_NAMES: Final = _build_names()
_INDEX: Final = {name: index for index, name in _NAMES.items()}
_BYTE: Final = 8
# _BYTE_NAMES[i][b]: names of the cards in byte i of a mask when that byte is b (fast format;
# a bit that is no card shows as "?").
_BYTE_NAMES: Final = tuple(
    tuple(
        tuple(_NAMES.get(_BYTE * i + bit, "?") for bit in range(_BYTE) if b >> bit & 1)
        for b in range(1 << _BYTE)
    )
    for i in range(_BYTE)
)


def rank_of(card: int) -> int:
    """Value of the card with bit index `card`: 0 Dog, 1 Mah Jong, 2..14, 15 Dragon/Phoenix."""
    return card // RANK_STRIDE


def card_points(mask: CardMask) -> int:
    """Card points of a set: 5s count 5, tens and kings 10, Dragon 25, Phoenix -25."""
    points = _FIVE_POINTS * popcount(mask & FIVES) + _TEN_POINTS * popcount(mask & TENS_AND_KINGS)
    if mask & DRAGON:
        points += _DRAGON_POINTS
    if mask & PHOENIX:
        points += _PHOENIX_POINTS
    return points


def parse_card(text: str) -> int:
    """Bit index of a card text (`"Tj"`, `"Phoenix"`); raises InvalidInput for anything else."""
    card = _INDEX.get(text)
    if card is None:
        raise InvalidInput(
            f"not a Tichu card: {text!r} (rank 2-9 T J Q K A then suit j s p t, "
            "or MahJong, Dog, Phoenix, Dragon)"
        )
    return card


def parse_cards(cards: str | Iterable[str]) -> CardMask:
    """Mask of a space-separated string or a sequence of card texts; duplicates are an error."""
    items = cards.split() if isinstance(cards, str) else cards
    mask = 0
    for item in items:
        if not isinstance(item, str):
            raise InvalidInput(f"a card is a string, not {item!r}")
        bit = 1 << parse_card(item)
        if mask & bit:
            raise InvalidInput(f"card {item} appears twice")
        mask |= bit
    return mask


def format_card(card: int) -> str:
    """Text of the card with bit index `card`."""
    return _NAMES[card]


def format_cards(mask: CardMask) -> tuple[str, ...]:
    """Texts of a set of cards in canonical order (value, then suit j s p t; Phoenix last)."""
    names: tuple[str, ...] = ()
    for i, byte in enumerate(mask.to_bytes(_BYTE, "little")):
        if byte:
            names += _BYTE_NAMES[i][byte]
    return names


def to_text(mask: CardMask) -> str:
    """The canonical card-set string of the reference file: canonical order, single spaces."""
    return " ".join(format_cards(mask))


def parse_rank(text: str) -> int:
    """Value 2..14 of a wish rank text `"2"`..`"A"`; raises InvalidInput otherwise."""
    if len(text) != 1 or text not in RANKS:
        raise InvalidInput(f"not a rank: {text!r} (one of 2-9 T J Q K A)")
    return RANKS.index(text) + LOWEST_RANK


def format_rank(value: int) -> str:
    """Text `"2"`..`"A"` of a standard value 2..14."""
    return RANKS[value - LOWEST_RANK]
