"""Bombs: four of a kinds and straight flushes, found by a few shifts of the hand mask.

A seat may bomb at any time, so `has_bomb` and `bombs` are asked at every answer and every
interrupt; the seeds of a hand's bombs are cached.
"""

from functools import lru_cache
from typing import Final

from engine.tichu.card_sets import LAST_STRAIGHT_BOTTOM, NIBBLE, NIBBLE_BASES, Play
from engine.tichu.cards import ACE, LOWEST_RANK, RANK_STRIDE, STANDARD, CardMask
from engine.tichu.combos import BOMB4, BOMBSF, MIN_STRAIGHT, NO_COMBO, Combo, combo, height

__all__ = ["add_bombs", "bomb_seeds", "bombs", "flushes", "has_bomb"]

_SUITS: Final = RANK_STRIDE
_BOMB4_LENGTH: Final = 4
# A hand comes back within a round (a seat passing keeps its cards): a small cache catches
# that and keeps the garbage collector's work (a tracked object per entry) small.
_HAND_CACHE: Final = 1 << 10
_FIFTH_VALUE: Final = (MIN_STRAIGHT - 1) * RANK_STRIDE  # shift from a value to four above


def bombs(hand: CardMask, table: Combo = NO_COMBO) -> list[Play]:
    """Every bomb of `hand` that beats `table` (every bomb when NO_COMBO)."""
    out: list[Play] = []
    add_bombs(hand, table, out)
    return out


@lru_cache(maxsize=_HAND_CACHE)
def bomb_seeds(hand: CardMask) -> tuple[int, int]:
    """(fours, starts): the lowest bit of every full nibble, and every card that has the four
    cards above it in its suit (the bottom of a five-card straight flush). Cached: a hand is
    asked for its bombs at every answer and every interrupt."""
    standard = hand & STANDARD
    halves = standard & standard >> 1  # (these shift-and-fold steps save big-int operations)
    fours = halves & halves >> 2 & NIBBLE_BASES
    runs = standard & standard >> RANK_STRIDE
    starts = runs & runs >> 2 * RANK_STRIDE & standard >> _FIFTH_VALUE
    return fours, starts


def has_bomb(hand: CardMask) -> bool:
    """Whether `hand` holds any bomb: a few shifts, no enumeration."""
    fours, starts = bomb_seeds(hand)
    return bool(fours or starts)


def flushes(hand: CardMask, bottom: int, top: int) -> tuple[int, ...]:
    """Straight flushes of `hand` exactly covering bottom..top (none through the Mah Jong)."""
    if bottom < LOWEST_RANK:
        return ()
    base = sum(1 << (RANK_STRIDE * v) for v in range(bottom, top + 1))
    return tuple(base << suit for suit in range(_SUITS) if hand & (base << suit) == base << suit)


def add_bombs(hand: CardMask, table: Combo, out: list[Play]) -> None:
    """Four of a kinds and straight flushes above `table`, appended to `out`."""
    fours, starts = bomb_seeds(hand)
    if not fours and not starts:
        return
    for v in range(LOWEST_RANK, ACE + 1):
        if fours >> (RANK_STRIDE * v) & 1:
            bomb = combo(BOMB4, _BOMB4_LENGTH, height(v))
            if bomb > table:
                out.append((NIBBLE << (RANK_STRIDE * v), bomb))
    if not starts:
        return
    for bottom in range(LOWEST_RANK, LAST_STRAIGHT_BOTTOM + 1):
        for suit in range(_SUITS):
            if not starts >> (RANK_STRIDE * bottom + suit) & 1:
                continue
            run = 0
            for top in range(bottom, ACE + 1):
                card = 1 << (RANK_STRIDE * top + suit)
                if not hand & card:
                    break
                run |= card
                if top - bottom + 1 >= MIN_STRAIGHT:
                    bomb = combo(BOMBSF, top - bottom + 1, height(top))
                    if bomb > table:
                        out.append((run, bomb))
