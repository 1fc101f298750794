"""The null game's safe-hand test: a sufficient condition that the declarer takes no trick.

Used at trick boundaries where a defender leads. After the first trick the declarer never
leads again in a won null game, so in every suit he only ever answers leads. Give the
defenders every advantage: any of their cards of the suit may be led, in any order, and
the card of the other defender is ignored. The declarer survives each lead by playing his
highest card below it, and that always works if, pairing his cards of the suit with the
defenders' from the lowest up, each of his is the lower one. Cards beyond the shorter side
are never forced (he discards them when void elsewhere).
"""

from engine.skat.solver.kernels import BOOL, I64, RVEC, VEC, jit, lowest_bit
from engine.skat.solver.position import PLAYERS, R_MASK, TRUMP_ID, Int64Array

__all__ = ["null_safe"]


@jit(BOOL(VEC, I64, RVEC), inline=True)
def null_safe(hands: Int64Array, declarer: int, rules: Int64Array) -> bool:
    """Can the declarer, not on lead, certainly avoid every trick from here?"""
    mine = hands[declarer]
    theirs = 0
    for seat in range(PLAYERS):
        if seat != declarer:
            theirs |= hands[seat]
    for suit in range(TRUMP_ID):
        suit_mask = rules[R_MASK + suit]
        low = mine & suit_mask
        high = theirs & suit_mask
        while low and high:
            lowest_mine = lowest_bit(low)
            lowest_theirs = lowest_bit(high)
            if lowest_mine > lowest_theirs:
                return False
            low ^= lowest_mine
            high ^= lowest_theirs
    return True
