"""Exact values of the last one and two tricks without search.

Most nodes of a search lie in its last tricks; enumerating the at most eight ways to play the
second-to-last trick is cheaper than searching them and saves their table lookups.
"""

from typing import Final

from engine.skat.solver.kernels import (
    GAIN_MASK,
    I64,
    RVEC,
    VEC,
    jit,
    legal_moves,
    lowest_index,
    trick_result,
    winner_offset,
)
from engine.skat.solver.position import PLAYERS, R_BONUS, R_CREDIT_DEFENDERS, R_PTS, Int64Array

__all__ = ["last_trick", "two_tricks"]

_NO_VALUE: Final = 1 << 20  # beyond any value
_ALL_PLAYERS: Final = (1 << PLAYERS) - 1


@jit(I64(VEC, I64, I64, RVEC))
def last_trick(hands: Int64Array, leader: int, declarer: int, rules: Int64Array) -> int:
    """What the last trick (one card in each hand, `leader` to lead) banks: it is forced."""
    first = lowest_index(hands[leader])
    second = lowest_index(hands[(leader + 1) % PLAYERS])
    third = lowest_index(hands[(leader + 2) % PLAYERS])
    gain: int = trick_result(first, second, third, leader, declarer, rules) & GAIN_MASK
    return gain


@jit(I64(I64, I64, I64, I64, I64, I64, I64, I64, RVEC))
def _two_trick_value(
    a: int,
    b: int,
    c: int,
    last0: int,
    last1: int,
    last2: int,
    credited: int,
    total: int,
    rules: Int64Array,
) -> int:
    """The counted value of the last two tricks when the first is a, b, c (in play order) and
    the hands keep last0, last1, last2; bit k of `credited`: a trick the k-th player of the
    first trick wins counts; `total`: the value of both tricks together."""
    first = rules[R_BONUS] + rules[R_PTS + a] + rules[R_PTS + b] + rules[R_PTS + c]
    lead = winner_offset(a, b, c, rules)
    if lead == 0:
        final = winner_offset(last0, last1, last2, rules)
    elif lead == 1:
        final = 1 + winner_offset(last1, last2, last0, rules)
    else:
        final = 2 + winner_offset(last2, last0, last1, rules)
    if final >= PLAYERS:
        final -= PLAYERS
    value = first if credited >> lead & 1 else 0
    return value + (total - first if credited >> final & 1 else 0)


@jit(I64(VEC, I64, I64, I64, RVEC), inline=True)
def two_tricks(hands: Int64Array, leader: int, declarer: int, total: int, rules: Int64Array) -> int:
    """Exact value of the last two tricks (two cards in each hand, `leader` to lead, `total`
    the value of both tricks together): the at most eight ways to play the first one (the
    second is forced) under alpha-beta, which with an open window at the top still gives
    the exact value."""
    offset = declarer - leader
    maximises = 1 << (offset + PLAYERS if offset < 0 else offset)  # bit k: k-th to play
    credited = _ALL_PLAYERS ^ maximises if rules[R_CREDIT_DEFENDERS] == 1 else maximises
    max0 = maximises == 1
    max1 = maximises == 2
    max2 = maximises == 4
    hand0 = hands[leader]
    hand1 = hands[(leader + 1) % PLAYERS]
    hand2 = hands[(leader + 2) % PLAYERS]
    best0 = -_NO_VALUE if max0 else _NO_VALUE
    rest0 = hand0
    while rest0:
        a = lowest_index(rest0)
        rest0 ^= 1 << a
        last0 = lowest_index(hand0 ^ 1 << a)
        low1 = best0 if max0 else -_NO_VALUE
        high1 = _NO_VALUE if max0 else best0
        best1 = -_NO_VALUE if max1 else _NO_VALUE
        rest1 = legal_moves(hand1, a, rules)
        legal2 = legal_moves(hand2, a, rules)
        while rest1:
            b = lowest_index(rest1)
            rest1 ^= 1 << b
            last1 = lowest_index(hand1 ^ 1 << b)
            low2 = max(low1, best1) if max1 else low1
            high2 = high1 if max1 else min(high1, best1)
            best2 = -_NO_VALUE if max2 else _NO_VALUE
            rest2 = legal2
            while rest2:
                c = lowest_index(rest2)
                rest2 ^= 1 << c
                last2 = lowest_index(hand2 ^ 1 << c)
                value = _two_trick_value(a, b, c, last0, last1, last2, credited, total, rules)
                if max2:
                    best2 = max(best2, value)
                    if best2 >= high2:
                        break
                else:
                    best2 = min(best2, value)
                    if best2 <= low2:
                        break
            if max1:
                best1 = max(best1, best2)
                if best1 >= high1:
                    break
            else:
                best1 = min(best1, best2)
                if best1 <= low1:
                    break
        best0 = max(best0, best1) if max0 else min(best0, best1)
    return best0
