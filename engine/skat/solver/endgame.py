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
    winner_of,
)
from engine.skat.solver.position import PLAYERS, Int64Array

__all__ = ["last_trick", "two_tricks"]

_NO_VALUE: Final = 1 << 20  # beyond any value


@jit(I64(VEC, I64, I64, RVEC))
def last_trick(hands: Int64Array, leader: int, declarer: int, rules: Int64Array) -> int:
    """What the last trick (one card in each hand, `leader` to lead) banks: it is forced."""
    first = lowest_index(hands[leader])
    second = lowest_index(hands[(leader + 1) % PLAYERS])
    third = lowest_index(hands[(leader + 2) % PLAYERS])
    gain: int = trick_result(first, second, third, leader, declarer, rules) & GAIN_MASK
    return gain


@jit(I64(VEC, I64, I64, RVEC), inline=True)
def two_tricks(hands: Int64Array, leader: int, declarer: int, rules: Int64Array) -> int:
    """Exact value of the last two tricks (two cards in each hand, `leader` to lead), by
    enumerating the at most eight ways to play the first one; the second is forced."""
    second = (leader + 1) % PLAYERS
    third = (leader + 2) % PLAYERS
    hand0 = hands[leader]
    hand1 = hands[second]
    hand2 = hands[third]
    best0 = -_NO_VALUE if leader == declarer else _NO_VALUE
    rest0 = hand0
    while rest0:
        a = lowest_index(rest0)
        rest0 ^= 1 << a
        last0 = lowest_index(hand0 ^ 1 << a)
        best1 = -_NO_VALUE if second == declarer else _NO_VALUE
        rest1 = legal_moves(hand1, a, rules)
        while rest1:
            b = lowest_index(rest1)
            rest1 ^= 1 << b
            last1 = lowest_index(hand1 ^ 1 << b)
            best2 = -_NO_VALUE if third == declarer else _NO_VALUE
            rest2 = legal_moves(hand2, a, rules)
            while rest2:
                c = lowest_index(rest2)
                rest2 ^= 1 << c
                last2 = lowest_index(hand2 ^ 1 << c)
                first = trick_result(a, b, c, leader, declarer, rules)
                winner = winner_of(first)
                offset = (winner - leader) % PLAYERS
                if offset == 0:
                    final = trick_result(last0, last1, last2, winner, declarer, rules)
                elif offset == 1:
                    final = trick_result(last1, last2, last0, winner, declarer, rules)
                else:
                    final = trick_result(last2, last0, last1, winner, declarer, rules)
                total = (first & GAIN_MASK) + (final & GAIN_MASK)
                best2 = max(best2, total) if third == declarer else min(best2, total)
            best1 = max(best1, best2) if second == declarer else min(best1, best2)
        best0 = max(best0, best1) if leader == declarer else min(best0, best1)
    return best0
