"""Hands seen by value: how many cards of each value, and the combinations such counts form.

Suits only matter for straight-flush bombs, so the bots reason about hands as *counts*: one
nibble per value (nibble 0 the Dog, 1 the Mah Jong, 2..14 the standard ranks, 15 the Dragon)
and nibble 16 for the Phoenix, packed in one int. Two card sets with equal counts form the
same combination (straight flushes aside, which `partition` handles at card level), so
"equivalent" combinations and partitions coincide with equal counts.

A `Part` is one combination of a partition: `(combo, counts)`, the engine's packed
combination (`engine.tichu.combos`; a Phoenix single carries its led height) and its counts.
"""

from functools import lru_cache
from typing import Final

from engine.bits import nibble_popcounts
from engine.tichu.cards import (
    ACE,
    DOG,
    DRAGON,
    DRAGON_VALUE,
    LOWEST_RANK,
    MAHJONG,
    PHOENIX,
    RANK_STRIDE,
    CardMask,
)
from engine.tichu.combos import (
    BOMB4,
    BOMBSF,
    DOG_KIND,
    MIN_STRAIGHT,
    NO_COMBO,
    SINGLE,
    STAIRS,
    STRAIGHT,
    Combo,
    classify,
    kind_of,
    length_of,
)

__all__ = [
    "CLASSES",
    "PHOENIX_COUNT",
    "PHOENIX_SLOT",
    "Counts",
    "Part",
    "class_of",
    "combo_of_counts",
    "count_of",
    "counts_of",
    "lowest_value",
    "parts_with_lowest",
    "points_of",
]

Counts = int
Part = tuple[Combo, Counts]

PHOENIX_SLOT: Final = 16  # the Phoenix's nibble in a Counts
PHOENIX_COUNT: Final = 1 << (RANK_STRIDE * PHOENIX_SLOT)
_NIBBLE: Final = (1 << RANK_STRIDE) - 1
_PAIR: Final = 2
_TRIPLE: Final = 3
_FOUR: Final = 4
_MIN_STAIRS_PAIRS: Final = 2
_COMBO_CACHE: Final = 1 << 16
FIVE: Final = 5
TEN: Final = 10
KING: Final = 13
FIVE_POINTS: Final = 5
TEN_POINTS: Final = 10
DRAGON_POINTS: Final = 25  # the Dragon's points; the Phoenix's are their negative

# Combination classes of the initiative statistics: single, pair, triple, full house, then
# straights by length 5..14 and stairs by number of pairs 2..7. Bombs and the Dog have none.
_FIRST_STRAIGHT: Final = 4
_FIRST_STAIRS: Final = _FIRST_STRAIGHT + ACE - MIN_STRAIGHT + 2
CLASSES: Final = _FIRST_STAIRS + 6


def count_of(counts: Counts, value: int) -> int:
    """Number of cards of `value` (PHOENIX_SLOT: the Phoenix) in `counts`."""
    return (counts >> (RANK_STRIDE * value)) & _NIBBLE


def counts_of(cards: CardMask) -> Counts:
    """The counts of a card set."""
    counts: int = nibble_popcounts(cards & ~PHOENIX)
    return counts | PHOENIX_COUNT if cards & PHOENIX else counts


@lru_cache(maxsize=_COMBO_CACHE)
def points_of(counts: Counts) -> int:
    """Card points of the counted cards (5s, tens, kings, Dragon, Phoenix)."""
    return (
        FIVE_POINTS * count_of(counts, FIVE)
        + TEN_POINTS * (count_of(counts, TEN) + count_of(counts, KING))
        + DRAGON_POINTS * count_of(counts, DRAGON_VALUE)
        - DRAGON_POINTS * count_of(counts, PHOENIX_SLOT)
    )


def lowest_value(counts: Counts) -> int:
    """The lowest value present, the Phoenix (PHOENIX_SLOT) only if nothing else is left."""
    plain = counts & (PHOENIX_COUNT - 1)
    if not plain:
        return PHOENIX_SLOT
    return ((plain & -plain).bit_length() - 1) // RANK_STRIDE


def _one(value: int, count: int = 1) -> Counts:
    return count << (RANK_STRIDE * value)


@lru_cache(maxsize=_COMBO_CACHE)
def combo_of_counts(counts: Counts) -> Combo:
    """The combination a card set with these counts forms when led (NO_COMBO if none).

    Classified on a representative card set whose suits rotate with the value, so a run of
    single cards never forms a straight flush.
    """
    cards = PHOENIX if count_of(counts, PHOENIX_SLOT) else 0
    for value in range(DRAGON_VALUE + 1):
        n = count_of(counts, value)
        if not n:
            continue
        if value < LOWEST_RANK or value > ACE:
            cards |= (DOG, MAHJONG)[value] if value < LOWEST_RANK else DRAGON
            continue
        for i in range(n):
            cards |= 1 << (RANK_STRIDE * value + (value + i) % RANK_STRIDE)
    return classify(cards)


def class_of(combo: Combo) -> int:
    """Index of a combination's class in the initiative statistics (-1: bomb or Dog)."""
    kind = kind_of(combo)
    if kind == STRAIGHT:
        return _FIRST_STRAIGHT + length_of(combo) - MIN_STRAIGHT
    if kind == STAIRS:
        return _FIRST_STAIRS + length_of(combo) // _PAIR - _MIN_STAIRS_PAIRS
    if kind in (DOG_KIND, BOMB4, BOMBSF, NO_COMBO):
        return -1
    return kind - SINGLE


def parts_with_lowest(counts: Counts) -> list[Part]:
    """Every combination (once per distinct counts) that uses a card of the lowest value.

    Every partition of `counts` contains exactly one such part, so choosing it and recursing
    on the rest enumerates all partitions.
    """
    v = lowest_value(counts)
    if v == PHOENIX_SLOT:
        return [(combo_of_counts(PHOENIX_COUNT), PHOENIX_COUNT)]
    single = _one(v)
    if v == 0 or v == DRAGON_VALUE:
        return [(combo_of_counts(single), single)]
    wild = count_of(counts, PHOENIX_SLOT)
    found: dict[Counts, Combo] = {single: combo_of_counts(single)}
    candidates: list[Counts] = []
    if v >= LOWEST_RANK:
        candidates += _sets_of_a_kind(counts, v, wild)
        candidates += _fullhouses(counts, v, wild)
        candidates += _stairs(counts, v, wild)
    candidates += _straights(counts, v, wild)
    for candidate in candidates:
        if candidate not in found:
            combo = combo_of_counts(candidate)
            if combo != NO_COMBO:
                found[candidate] = combo
    return [(combo, c) for c, combo in found.items()]


def _sets_of_a_kind(counts: Counts, v: int, wild: int) -> list[Counts]:
    """Pairs, triples and the four of a kind of value v, the Phoenix completing one card."""
    n = count_of(counts, v)
    sets = [_one(v, k) for k in range(_PAIR, min(n, _FOUR) + 1)]
    if wild:
        sets += [_one(v, k) | PHOENIX_COUNT for k in range(1, min(n, _TRIPLE - 1) + 1)]
    return sets


def _groups(counts: Counts, v: int, size: int, wild: int) -> list[Counts]:
    """Ways to take `size` cards of value v, with the Phoenix for one of them if `wild`."""
    n = count_of(counts, v)
    out = [_one(v, size)] if n >= size else []
    if wild and n >= size - 1 >= 1:
        out.append(_one(v, size - 1) | PHOENIX_COUNT)
    return out


def _fullhouses(counts: Counts, v: int, wild: int) -> list[Counts]:
    """Full houses with v as the triple or the pair; the other value is higher."""
    out: list[Counts] = []
    for w in range(v + 1, ACE + 1):
        if not count_of(counts, w):
            continue
        for low, high in ((_TRIPLE, _PAIR), (_PAIR, _TRIPLE)):
            for a in _groups(counts, v, low, wild):
                for b in _groups(counts, w, high, wild and not a & PHOENIX_COUNT):
                    out.append(a | b)
    return out


def _straights(counts: Counts, v: int, wild: int) -> list[Counts]:
    """Straights whose lowest real card has value v (the Mah Jong included). The Phoenix may
    stand for any one value above v (a missing one, or one whose card is kept for another
    combination) or extend a run ending with the Ace downwards; never for the Mah Jong's 1."""
    out: list[Counts] = []
    for slot in (0, *range(v + 1, ACE + 1)) if wild else (0,):
        run = PHOENIX_COUNT if slot else 0
        for top in range(v, ACE + 1):
            if top != slot:
                if not count_of(counts, top):
                    break
                run |= _one(top)
            length = top - v + 1
            if length >= MIN_STRAIGHT and top >= slot:
                out.append(run)
            if not slot and wild and top == ACE and v > LOWEST_RANK and length + 1 >= MIN_STRAIGHT:
                out.append(run | PHOENIX_COUNT)
    return out


def _stairs(counts: Counts, v: int, wild: int) -> list[Counts]:
    """Runs of consecutive pairs from v; with the Phoenix, one pair (`hole`) may be one real
    card plus the Phoenix."""
    out: list[Counts] = []
    holes = [0, *range(v, ACE + 1)] if wild else [0]
    for hole in holes:
        run = 0
        for top in range(v, ACE + 1):
            n = count_of(counts, top)
            if top == hole and n:
                run |= _one(top) | PHOENIX_COUNT
            elif top != hole and n >= _PAIR:
                run |= _one(top, _PAIR)
            else:
                break
            if top - v + 1 >= _MIN_STAIRS_PAIRS and top >= hole:
                out.append(run)
    return out
