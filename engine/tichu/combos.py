"""Combinations: classifying a card set, the "beats" relation (docs/tichu-rules.md sections 5-7).

A combination is packed into one int, `kind << KIND_SHIFT | length << LENGTH_SHIFT | height`,
where `height` counts half ranks (twice the value) so that a Phoenix single (previous single
plus one half) stays an integer. The packing is chosen so that comparisons are integer ones:

* two combinations are of the same type and length iff `a >> LENGTH_SHIFT == b >> LENGTH_SHIFT`;
* bombs have the highest kinds (four of a kind below straight flush), then length, then height,
  so one bomb beats another iff its int is larger - exactly docs/tichu-rules.md section 6.

`NO_COMBO` (0) stands for both "invalid card set" and "empty table".
"""

from typing import Final

from engine.bits import bit_index, iter_bits, popcount
from engine.tichu.cards import (
    ACE,
    DOG,
    DRAGON,
    DRAGON_VALUE,
    LOWEST_RANK,
    MAHJONG,
    MAHJONG_VALUE,
    PHOENIX,
    RANK_STRIDE,
    SUIT_MASK,
    CardMask,
    rank_of,
)

__all__ = [
    "BOMB4",
    "BOMBSF",
    "DOG_COMBO",
    "DOG_KIND",
    "DRAGON_HEIGHT",
    "FULLHOUSE",
    "HALVES",
    "KIND_NAMES",
    "KIND_SHIFT",
    "LENGTH_SHIFT",
    "MIN_STRAIGHT",
    "NO_COMBO",
    "PAIR",
    "PHOENIX_LED_HEIGHT",
    "SINGLE",
    "STAIRS",
    "STRAIGHT",
    "TRIPLE",
    "Combo",
    "beats",
    "classify",
    "combo",
    "height",
    "height_of",
    "is_bomb",
    "kind_of",
    "length_of",
    "lowest_value_above",
    "rank_of_combo",
]

Combo = int

HALVES: Final = 2  # heights count half ranks, so a Phoenix single stays an integer
LENGTH_SHIFT: Final = 5  # heights use 5 bits: at most 30 (the Dragon)
KIND_SHIFT: Final = 9  # lengths use 4 bits: at most 14
_HEIGHT_MASK: Final = (1 << LENGTH_SHIFT) - 1
_LENGTH_MASK: Final = (1 << (KIND_SHIFT - LENGTH_SHIFT)) - 1

NO_COMBO: Final = 0
SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
FULLHOUSE: Final = 4
STRAIGHT: Final = 5
STAIRS: Final = 6
DOG_KIND: Final = 7  # the Dog: a lead only, beats nothing
BOMB4: Final = 8
BOMBSF: Final = 9
KIND_NAMES: Final = {
    NO_COMBO: "invalid",
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    FULLHOUSE: "fullhouse",
    STRAIGHT: "straight",
    STAIRS: "stairs",
    DOG_KIND: "dog",
    BOMB4: "bomb4",
    BOMBSF: "bombsf",
}

MIN_STRAIGHT: Final = 5
_MIN_STAIRS: Final = 4
_PAIR_SIZE: Final = 2
_TRIPLE_SIZE: Final = 3
_FULLHOUSE_LENGTH: Final = 5
_BOMB4_LENGTH: Final = 4
PHOENIX_LED_HEIGHT: Final = HALVES * MAHJONG_VALUE + 1  # 1.5: a Phoenix led alone
DRAGON_HEIGHT: Final = HALVES * DRAGON_VALUE
_BOMB_FLOOR: Final = BOMB4 << KIND_SHIFT


def combo(kind: int, length: int, half_ranks: int) -> Combo:
    """Pack a combination; `half_ranks` is its height, the deciding value in half ranks."""
    return (kind << KIND_SHIFT) | (length << LENGTH_SHIFT) | half_ranks


def height(value: int) -> int:
    """A card value in half ranks, the unit of combination heights (a Phoenix adds one)."""
    return value * HALVES


def lowest_value_above(floor: int) -> int:
    """The lowest card value whose height beats the height `floor`."""
    return floor // HALVES + 1


DOG_COMBO: Final = combo(DOG_KIND, 1, 0)


def kind_of(c: Combo) -> int:
    """Kind code (SINGLE .. BOMBSF; NO_COMBO for invalid)."""
    return c >> KIND_SHIFT


def length_of(c: Combo) -> int:
    """Number of cards."""
    return (c >> LENGTH_SHIFT) & _LENGTH_MASK


def height_of(c: Combo) -> int:
    """Twice the deciding value (a Phoenix single may be odd)."""
    return c & _HEIGHT_MASK


def rank_of_combo(c: Combo) -> float | int | None:
    """The reference file's `rank`: the deciding value (1.5 for a Phoenix led), None for Dog."""
    if kind_of(c) in (NO_COMBO, DOG_KIND):
        return None
    half_ranks = height_of(c)
    return half_ranks // HALVES if half_ranks % HALVES == 0 else half_ranks / HALVES


def is_bomb(c: Combo) -> bool:
    """Four of a kind or straight flush."""
    return c >= _BOMB_FLOOR


def beats(table: Combo, c: Combo) -> bool:
    """Whether `c` may be played on the non-empty `table` in turn, ignoring the wish.

    Bombs beat every non-bomb and every lower bomb; anything else needs the same kind and length
    and a greater height. The Dog beats nothing. Whether the table may be bombed at all (empty,
    Dog) is the caller's question.
    """
    if c >= _BOMB_FLOOR:
        return c > table
    return (c >> LENGTH_SHIFT) == (table >> LENGTH_SHIFT) and c > table and c != DOG_COMBO


def _single(mask: CardMask, table: Combo) -> Combo:
    if mask == PHOENIX:
        if kind_of(table) == SINGLE and height_of(table) < DRAGON_HEIGHT:
            return combo(SINGLE, 1, height_of(table) + 1)
        return combo(SINGLE, 1, PHOENIX_LED_HEIGHT)
    if mask == DOG:
        return DOG_COMBO
    return combo(SINGLE, 1, height(rank_of(bit_index(mask))))


def classify(mask: CardMask, table: Combo = NO_COMBO, *, phoenix_as_one: bool = False) -> Combo:
    """The combination that `mask` forms when played on `table` (NO_COMBO when led).

    The table matters only for a Phoenix single (previous single plus a half, 1.5 when led or
    on a non-single). Where the Phoenix admits several readings the highest is taken: it is
    never worse for the player. Returns NO_COMBO for a card set that is no combination.
    `phoenix_as_one` is the rule option that lets the Phoenix stand for the 1 of a straight.
    """
    n = popcount(mask)
    if n == 1:
        return _single(mask, table)
    if n == 0 or mask & (DOG | DRAGON):
        return NO_COMBO
    wild = 1 if mask & PHOENIX else 0
    counts: dict[int, int] = {}
    for card in iter_bits(mask & ~PHOENIX):
        value = card // RANK_STRIDE
        counts[value] = counts.get(value, 0) + 1
    values = sorted(counts)
    low, high = values[0], values[-1]
    if len(values) == n - wild:
        return _as_straight(mask, n, low, high, wild, phoenix_as_one)
    if mask & MAHJONG:
        return NO_COMBO
    if n <= _TRIPLE_SIZE:
        return (
            combo(PAIR if n == _PAIR_SIZE else TRIPLE, n, height(low)) if low == high else NO_COMBO
        )
    if n == _FULLHOUSE_LENGTH and len(values) == _PAIR_SIZE:  # a triple and a pair
        return _as_fullhouse(counts, low, high, wild)
    if n == _BOMB4_LENGTH and len(values) == 1:
        return combo(BOMB4, n, height(low)) if not wild else NO_COMBO
    return _as_stairs(counts, n, low, high, wild)


def _as_straight(
    mask: CardMask, n: int, low: int, high: int, wild: int, phoenix_as_one: bool
) -> Combo:
    """All values distinct: a straight (or straight flush) if at most one gap, filled by the
    Phoenix; a contiguous run plus Phoenix is read extended at the top when possible."""
    if n < MIN_STRAIGHT:
        if n == _PAIR_SIZE and wild and low >= LOWEST_RANK:  # a card and the Phoenix
            return combo(PAIR, n, height(low))
        return NO_COMBO
    span = high - low + 1
    if not wild:
        if span != n:
            return NO_COMBO
        if not mask & MAHJONG and any(mask & s == mask for s in SUIT_MASK):
            return combo(BOMBSF, n, height(high))
        return combo(STRAIGHT, n, height(high))
    if span == n:  # one inner gap filled by the Phoenix
        return combo(STRAIGHT, n, height(high))
    if span != n - 1:
        return NO_COMBO
    if high < ACE:
        return combo(STRAIGHT, n, height(high + 1))
    if low > LOWEST_RANK or (low == LOWEST_RANK and phoenix_as_one):
        return combo(STRAIGHT, n, height(high))
    return NO_COMBO


def _as_fullhouse(counts: dict[int, int], low: int, high: int, wild: int) -> Combo:
    """Two values in five cards: 3+2, or with the Phoenix 2+2 (higher pair becomes the triple)
    or 3+1. Four of a kind plus Phoenix is no full house."""
    if wild:
        if counts[low] == _PAIR_SIZE and counts[high] == _PAIR_SIZE:
            return combo(FULLHOUSE, _FULLHOUSE_LENGTH, height(high))
        triple = low if counts[low] == _TRIPLE_SIZE else high
        if counts[triple] != _TRIPLE_SIZE:
            return NO_COMBO
        return combo(FULLHOUSE, _FULLHOUSE_LENGTH, height(triple))
    triple = low if counts[low] == _TRIPLE_SIZE else high
    if counts[triple] != _TRIPLE_SIZE:
        return NO_COMBO
    return combo(FULLHOUSE, _FULLHOUSE_LENGTH, height(triple))


def _as_stairs(counts: dict[int, int], n: int, low: int, high: int, wild: int) -> Combo:
    """Consecutive pairs; the Phoenix may complete exactly one of them."""
    if n % _PAIR_SIZE or n < _MIN_STAIRS or high - low + 1 != n // _PAIR_SIZE:
        return NO_COMBO
    if any(count > _PAIR_SIZE for count in counts.values()) or len(counts) != n // _PAIR_SIZE:
        return NO_COMBO
    if sum(1 for count in counts.values() if count == 1) != wild:
        return NO_COMBO
    return combo(STAIRS, n, height(high))
