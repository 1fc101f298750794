"""Straights and stairs: the runs of consecutive values a hand can lead or play.

The windows of values that can carry a run depend only on which values are held and are
cached; a window's card sets are the product of its values' cards, built by itertools. The
Phoenix fills at most one slot, and a Phoenix card set with several readings is produced once,
for its highest reading (the one `classify` gives).
"""

from functools import lru_cache
from itertools import product, repeat
from typing import Final

from engine.tichu.bombs import bomb_seeds, flushes
from engine.tichu.card_sets import (
    LAST_STRAIGHT_BOTTOM,
    NIBBLE,
    PAIR_SIZE,
    RUN_CARDS,
    SETS,
    SPAN_CACHE,
    WITH_PHOENIX,
    Play,
)
from engine.tichu.cards import (
    ACE,
    LOWEST_RANK,
    MAHJONG,
    MAHJONG_VALUE,
    PHOENIX,
    RANK_STRIDE,
    CardMask,
)
from engine.tichu.combos import MIN_STRAIGHT, STAIRS, STRAIGHT, combo, height, lowest_value_above

__all__ = ["stairs", "straights"]

# A window of values bottom..top: (bottom, top, pure, slots). `pure`: every value is held, so
# there are straights without the Phoenix; `slots`: the values the Phoenix may stand for.
Window = tuple[int, int, bool, tuple[int, ...]]


def _phoenix_may_be(slot: int, bottom: int, top: int, phoenix_as_one: bool) -> bool:
    """Whether the Phoenix may stand for value `slot` in the straight bottom..top: not for the
    bottom unless the top is the Ace (the set reads one higher, extended at the top), and not
    for the Mah Jong unless `phoenix_as_one`."""
    return (slot != bottom or top == ACE) and (slot != MAHJONG_VALUE or phoenix_as_one)


# _PURE_SLOTS[phoenix_as_one][bottom][top]: the values the Phoenix may stand for in a straight
# whose values bottom..top are all held.
_PURE_SLOTS: Final = tuple(
    tuple(
        tuple(
            tuple(s for s in range(bottom, top + 1) if _phoenix_may_be(s, bottom, top, one))
            for top in range(ACE + 1)
        )
        for bottom in range(ACE + 1)
    )
    for one in (False, True)
)
# Lowest bit of every value's nibble, the Mah Jong's included; in a nibble holding a count of
# at most 5, the bit `_FOURS_BIT` is set for 4 and 5 only.
_RUN_BASES: Final = sum(1 << (RANK_STRIDE * v) for v in range(ACE + 1))
_FOURS_BIT: Final = 2


def _may_hold_straight(present: int, wild: bool) -> bool:
    """Whether five consecutive values (four of five with the Phoenix) are held: the sum of
    five shifted copies counts per nibble (at most 5, no carry)."""
    counts = present
    for step in range(1, MIN_STRAIGHT):
        counts += present >> (RANK_STRIDE * step)
    if wild:
        return bool(counts & _RUN_BASES << _FOURS_BIT)  # a count of 4 or 5
    return bool(counts & counts >> _FOURS_BIT & _RUN_BASES)  # a count of 5 (0b101)


@lru_cache(maxsize=SPAN_CACHE)
def _straight_windows(present: int, wild: bool, phoenix_as_one: bool) -> tuple[Window, ...]:
    """Every straight window over the held values (`present`: bit 4v set when value v is held,
    the Mah Jong as 1).

    The Phoenix stands for a missing value, or in a pure window for any value but the bottom
    one: that card set reads one higher as the run extended at the top, unless the top is the
    Ace. It never stands for the Mah Jong unless `phoenix_as_one`. So each card set comes
    once, in the window of its highest reading.
    """
    windows: list[Window] = []
    pure_slots = _PURE_SLOTS[phoenix_as_one]
    for bottom in range(MAHJONG_VALUE, LAST_STRAIGHT_BOTTOM + 1):
        gap = 0
        for top in range(bottom, ACE + 1):
            if not present >> (RANK_STRIDE * top) & 1:
                if not wild or gap:
                    break
                gap = top
            if top - bottom + 1 < MIN_STRAIGHT:
                continue
            if not gap:
                windows.append((bottom, top, True, pure_slots[bottom][top] if wild else ()))
            elif _phoenix_may_be(gap, bottom, top, phoenix_as_one):
                windows.append((bottom, top, False, (gap,)))
    return tuple(windows)


def straights(
    hand: CardMask,
    some: int,
    length: int,
    floor: int,
    phoenix_as_one: bool,
    out: list[Play],
) -> None:
    """Straights of `length` (0: every length) topping above `floor`; straight flushes are
    left to `bombs`. `some` has bit 4v set where the
    hand holds standard value v. The card sets of a window are
    the product of its values' cards (itertools, so the loops run in C)."""
    wild = hand & PHOENIX
    present = some | hand & MAHJONG
    if not _may_hold_straight(present, bool(wild)):
        return
    windows = _straight_windows(present, bool(wild), phoenix_as_one)
    if not windows:
        return
    cards = [RUN_CARDS[v][hand >> (RANK_STRIDE * v) & NIBBLE] for v in range(ACE + 1)]
    flush_starts = bomb_seeds(hand)[1]
    lowest_top = lowest_value_above(floor)
    for bottom, top, pure, slots in windows:
        size = top - bottom + 1
        if top < lowest_top or (length and size != length):
            continue
        label = combo(STRAIGHT, size, height(top))
        run = cards[bottom : top + 1]
        if pure:
            sets = map(sum, product(*run))
            if flush_starts >> (RANK_STRIDE * bottom) & NIBBLE:
                flush_sets = flushes(hand, bottom, top)
                out += [(s, label) for s in sets if s not in flush_sets]
            else:
                out += zip(sets, repeat(label))
        for slot in slots:
            held = run[slot - bottom]
            run[slot - bottom] = (wild,)
            out += zip(map(sum, product(*run)), repeat(label))
            run[slot - bottom] = held


# _VALUE_RANGE[bottom][top]: the values bottom..top.
_VALUE_RANGE: Final = tuple(
    tuple(tuple(range(bottom, top + 1)) for top in range(ACE + 1)) for bottom in range(ACE + 1)
)


@lru_cache(maxsize=SPAN_CACHE)
def _stairs_windows(two: int, some: int, wild: bool) -> tuple[Window, ...]:
    """Every stairs window (`two`, `some`: bit 4v set where the hand holds
    at least two, one cards of value v; `some` matters only with the
    Phoenix): each value holds a pair, or with the Phoenix one value holds a single card that
    the Phoenix completes; in a pure window the Phoenix may complete any value."""
    windows: list[Window] = []
    for bottom in range(LOWEST_RANK, ACE):
        short = 0
        for top in range(bottom, ACE + 1):
            if not two >> (RANK_STRIDE * top) & 1:
                if short or not wild or not some >> (RANK_STRIDE * top) & 1:
                    break
                short = top
            if top == bottom:
                continue
            slots = (short,) if short else _VALUE_RANGE[bottom][top] if wild else ()
            windows.append((bottom, top, not short, slots))
    return tuple(windows)


def stairs(hand: CardMask, some: int, two: int, pairs: int, floor: int, out: list[Play]) -> None:
    """Stairs of `pairs` consecutive pairs (0: any number) topping above `floor`; the Phoenix
    may complete one pair. As for straights, a window's card sets are a product."""
    wild = hand & PHOENIX
    # two neighbouring values with a pair each, or with the Phoenix a pair next to a single
    if not (
        two & two >> RANK_STRIDE
        if not wild
        else two & some >> RANK_STRIDE | some & two >> RANK_STRIDE
    ):
        return
    windows = _stairs_windows(two, some if wild else 0, bool(wild))
    if not windows:
        return
    nibbles = [hand >> (RANK_STRIDE * v) & NIBBLE for v in range(ACE + 1)]
    lowest_top = lowest_value_above(floor)
    for bottom, top, pure, slots in windows:
        size = top - bottom + 1
        if top < lowest_top or (pairs and size != pairs):
            continue
        label = combo(STAIRS, PAIR_SIZE * size, height(top))
        run = [SETS[v][nibbles[v]][PAIR_SIZE] for v in range(bottom, top + 1)]
        if pure:
            out += zip(map(sum, product(*run)), repeat(label))
        for slot in slots:
            held = run[slot - bottom]
            run[slot - bottom] = WITH_PHOENIX[slot][nibbles[slot]]
            out += zip(map(sum, product(*run)), repeat(label))
            run[slot - bottom] = held
