"""Hand features for the learned Skat bidders (k-NN and LMS).

The features follow the studied bidders: for a trump game, the jacks and their strength,
trump count and strength, side aces and tens, card points, voids and blank tens; for null,
the low cards, unsafe suits, high cards, the rank sum and suits without a seven. All are
computed from ten (or twelve) cards as a small float vector, one layout per game family.
"""

from typing import Final

import numpy as np
import numpy.typing as npt

from engine.bits import iter_bits, popcount
from engine.skat.cards import (
    CARD_POINTS,
    JACKS,
    SUIT_CARDS,
    TRUMP_SUIT,
    CardMask,
    GameType,
    format_card,
    jack,
    suit_card,
    trump_mask,
)

__all__ = ["NULL_FEATURES", "TRUMP_FEATURES", "features", "null_features", "trump_features"]

FloatArray = npt.NDArray[np.float64]

TRUMP_FEATURES: Final = (
    "jacks",
    "jack_strength",
    "trumps",
    "trump_strength",
    "side_aces",
    "side_tens",
    "points",
    "voids",
    "blank_tens",
    "club_jack",
)
NULL_FEATURES: Final = (
    "sevens",
    "eights",
    "unsafe_suits",
    "high_cards",
    "rank_sum",
    "suits",
    "suits_without_seven",
    "safe_cards",
)
_BLOCK_ORDER: Final = "789QKTA"  # rank strength inside a plain suit, low to high
_NULL_ORDER: Final = "789TJQKA"


def _rank_of(card: int) -> str:
    return format_card(card)[0]


def trump_features(cards: CardMask, game: GameType) -> FloatArray:
    """Features of `cards` for the trump game `game` (a suit or grand)."""
    trumps = cards & trump_mask(game)
    jacks = cards & JACKS
    jack_strength = sum(4 - s for s in range(4) if jacks >> jack(s) & 1)
    trump_strength = sum(_BLOCK_ORDER.index(_rank_of(c)) + 1 for c in iter_bits(trumps & ~JACKS))
    side_aces = side_tens = voids = blank_tens = 0
    for suit in range(4):
        if game != "grand" and suit == TRUMP_SUIT[game]:
            continue
        in_suit = cards & SUIT_CARDS[suit]
        has_ace = in_suit >> suit_card(suit, "A") & 1
        has_ten = in_suit >> suit_card(suit, "T") & 1
        side_aces += has_ace
        side_tens += has_ten
        voids += not in_suit
        blank_tens += has_ten and popcount(in_suit) == 1
    return np.array(
        [
            popcount(jacks),
            jack_strength,
            popcount(trumps),
            trump_strength,
            side_aces,
            side_tens,
            sum(CARD_POINTS[c] for c in iter_bits(cards)),
            voids,
            blank_tens,
            jacks >> jack(0) & 1,
        ],
        dtype=np.float64,
    )


def null_features(cards: CardMask) -> FloatArray:
    """Features of `cards` for null: low cards make a null, high cards in short suits break it.

    A suit is safe when each of its cards can be ducked under the matching card of a
    perfectly low holding (the k-th lowest card is at most the k-th rank, 7 8 9 ...).
    """
    sevens = eights = unsafe = high = rank_sum = suits = no_seven = safe_cards = 0
    for suit in range(4):
        in_suit = [c for c in range(32) if cards >> c & 1 and _null_suit(c) == suit]
        ranks = sorted(_NULL_ORDER.index(_rank_of(c)) for c in in_suit)
        if not ranks:
            continue
        suits += 1
        sevens += 0 in ranks
        eights += 1 in ranks
        no_seven += 0 not in ranks
        high += sum(1 for r in ranks if r >= _NULL_ORDER.index("K"))
        rank_sum += sum(ranks)
        safe = all(r <= 2 * k for k, r in enumerate(ranks))
        unsafe += not safe
        safe_cards += len(ranks) if safe else 0
    return np.array(
        [sevens, eights, unsafe, high, rank_sum, suits, no_seven, safe_cards], dtype=np.float64
    )


def _null_suit(card: int) -> int:
    for suit in range(4):
        if card == jack(suit) or SUIT_CARDS[suit] >> card & 1:
            return suit
    raise ValueError(f"not a card index: {card}")


def features(cards: CardMask, game: GameType) -> FloatArray:
    """The feature vector of `cards` for `game`."""
    return null_features(cards) if game == "null" else trump_features(cards, game)
