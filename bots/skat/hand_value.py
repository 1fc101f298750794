"""Rule-of-thumb hand evaluation shared by the simple Skat bots.

`strength` counts what wins tricks in a trump game (trumps, jacks, side aces, guarded tens,
voids); it is a heuristic for the `greedy` bot and a baseline for the learned bidders, not a
probability. `game_value_estimate` is the value a declaration reaches with the matadors of
the given cards and no extra level, which is what a cautious bidder may bid up to.
"""

from typing import Final

from engine.bits import popcount
from engine.skat.cards import (
    BASE_VALUE,
    JACKS,
    SUIT_CARDS,
    SUIT_GAMES,
    TRUMP_SUIT,
    CardMask,
    GameType,
    suit_card,
    trump_mask,
)
from engine.skat.scoring import matadors

__all__ = [
    "PLAYABLE_STRENGTH",
    "TRUMP_GAMES",
    "best_trump_game",
    "game_value_estimate",
    "rule_of_thumb_limit",
    "strength",
]

TRUMP_GAMES: Final[tuple[GameType, ...]] = (*SUIT_GAMES, "grand")
# Strength from which a trump game with the skat is worth bidding (the greedy bidder).
PLAYABLE_STRENGTH: Final = 7.5
ACE_RANK: Final = "A"
TEN_RANK: Final = "T"
# Per suit its cards, its ace and its ten: `strength` runs for every pair of twelve cards in
# every solved world (`bots.skat.evaluation.quick_discard`), so it looks nothing up by name.
_SUITS: Final = tuple(
    (suit, SUIT_CARDS[suit], 1 << suit_card(suit, ACE_RANK), 1 << suit_card(suit, TEN_RANK))
    for suit in range(4)
)


def strength(cards: CardMask, game: GameType) -> float:
    """Trick-taking strength of `cards` in the trump game `game` (higher is stronger).

    Suit game: trumps, plus half a point per jack and for the club jack, plus side aces,
    half for a guarded ten and for a void. Grand: jacks count one and a half, no voids.
    """
    jacks = popcount(cards & JACKS)
    top_jack = 0.5 * (cards >> 31 & 1)
    side = 0.0
    grand = game == "grand"
    trump = None if grand else TRUMP_SUIT[game]
    for suit, mask, ace, ten in _SUITS:
        if suit == trump:
            continue
        cards_in_suit = cards & mask
        has_ace = bool(cards_in_suit & ace)
        has_ten = bool(cards_in_suit & ten)
        side += has_ace + 0.5 * (has_ten and (has_ace or popcount(cards_in_suit) >= 3))
        if not cards_in_suit and not grand:
            side += 0.5
    if grand:
        return 1.5 * jacks + top_jack + side
    return popcount(cards & trump_mask(game)) + 0.5 * jacks + top_jack + side


def game_value_estimate(cards: CardMask, game: GameType) -> int:
    """Base value times (matadors + 1) for `cards` (ten or twelve), no other levels."""
    return BASE_VALUE[game] * (abs(matadors(game, cards)) + 1)


def best_trump_game(cards: CardMask) -> tuple[GameType, float]:
    """The trump game in which `cards` are strongest, and that strength."""
    scored = [(strength(cards, g), g) for g in TRUMP_GAMES]
    best_strength, best_game = max(scored)
    return best_game, best_strength


def rule_of_thumb_limit(cards: CardMask) -> tuple[GameType, int]:
    """The greedy bidder: the strongest trump game and its value if it looks playable
    (strength at least `PLAYABLE_STRENGTH`), else that game and 0."""
    game, score = best_trump_game(cards)
    return game, game_value_estimate(cards, game) if score >= PLAYABLE_STRENGTH else 0
