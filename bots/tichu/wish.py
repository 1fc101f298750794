"""The Mah Jong's wish: a rank that hurts the opponents, never one we must play ourselves.

With the Mah Jong alone: the lowest rank of which we have seen no card (all four are in other
hands, so someone must break a combination for it); else the rank of the card we passed to
the next opponent (he surely holds it unless it was played). With the Mah Jong inside a
straight: a high rank out, so a straight that beats ours must spend it.
"""

from engine.bits import bit_index
from engine.tichu.cards import ACE, LOWEST_RANK, RANK_MASK, CardMask, rank_of
from engine.tichu.combos import HALVES, SINGLE, classify, height_of, kind_of

__all__ = ["choose_wish"]


def _all_out(rank: int, known: CardMask) -> bool:
    return not RANK_MASK[rank] & known


def choose_wish(hand: CardMask, played: CardMask, cards: CardMask, given_right: CardMask) -> int:
    """The wished value (0: no wish) for playing `cards` (which hold the Mah Jong) from
    `hand`, with `played` the cards already out and `given_right` the card passed to the next
    player."""
    kept = hand & ~cards
    known = hand | played
    played_combo = classify(cards)
    if kind_of(played_combo) != SINGLE:
        top = height_of(played_combo) // HALVES
        for rank in range(ACE, top, -1):
            if _all_out(rank, known):
                return rank
        for rank in range(ACE, top, -1):
            if not RANK_MASK[rank] & kept:
                return rank
        return 0
    for rank in range(LOWEST_RANK, ACE + 1):
        if _all_out(rank, known):
            return rank
    if given_right and not given_right & played:
        rank = rank_of(bit_index(given_right))
        if not RANK_MASK[rank] & kept:
            return rank
    return 0
