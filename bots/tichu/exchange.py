"""The exchange: one card to each other player, chosen to keep the best hand.

Candidates follow the thesis: the opponents get low cards (singles of the best partition and
cards of low pairs, never point cards when avoidable), the partner a high card unless we call
(then our lowest card, or the Dog, which hands the lead back to us). Every pair of opponent
cards is tried and the one leaving the most useful eleven cards is passed. Special cases: a
partner who called Grand Tichu gets our best card; an opponent who called gets our Dog.
"""

from collections.abc import Callable
from itertools import combinations
from typing import Final

from bots.tichu.calls import hand_utility
from bots.tichu.combination import count_of, counts_of
from bots.tichu.evaluation import Evaluator
from bots.tichu.partition import partitions
from bots.tichu.situation import Situation
from engine.bits import iter_bits
from engine.tichu.cards import (
    DOG,
    DRAGON,
    FIVES,
    PHOENIX,
    RANK_STRIDE,
    STANDARD,
    TENS_AND_KINGS,
    CardMask,
    rank_of,
)
from engine.tichu.deal import LEFT, RIGHT, seat_at
from engine.tichu.scoring import NO_CALL

__all__ = ["LOW_PAIR", "OPPONENT_CANDIDATES", "choose_exchange"]

OPPONENT_CANDIDATES: Final = 6  # lowest candidate cards tried for the opponents
LOW_PAIR: Final = 8  # pairs up to this value may be split for the opponents
_PAIR: Final = 2


def _cards(mask: CardMask) -> list[CardMask]:
    return [1 << c for c in iter_bits(mask)]


def _value(card: CardMask) -> int:
    return rank_of(card.bit_length() - 1)


def _partner_card(sit: Situation, hand: CardMask, we_call: bool) -> CardMask:
    """Our best card for a partner who called Grand Tichu (or Tichu), the Dog or our lowest
    card when we call, else our highest standard card outside a four of a kind."""
    counts = counts_of(hand)
    if sit.calls[sit.partner] != NO_CALL:
        for special in (DRAGON, PHOENIX):
            if hand & special:
                return special
        return 1 << ((hand & STANDARD).bit_length() - 1)
    if we_call:
        return DOG if hand & DOG else _cards(hand)[0]
    loose = [c for c in _cards(hand & STANDARD) if count_of(counts, _value(c)) < RANK_STRIDE]
    if loose:
        return loose[-1]
    return _cards(hand & ~(DRAGON | PHOENIX))[-1] if hand & ~(DRAGON | PHOENIX) else _cards(hand)[0]


def _opponent_candidates(hand: CardMask) -> list[CardMask]:
    """Low singles and cards of low pairs, no points first; the lowest OPPONENT_CANDIDATES."""
    counts = counts_of(hand)
    plain: list[CardMask] = []
    points: list[CardMask] = []
    for card in _cards(hand & ~(DOG | DRAGON | PHOENIX)):
        value = _value(card)
        if count_of(counts, value) > _PAIR or (
            count_of(counts, value) == _PAIR and value > LOW_PAIR
        ):
            continue
        (points if card & (FIVES | TENS_AND_KINGS) else plain).append(card)
    return (plain + points)[:OPPONENT_CANDIDATES]


def choose_exchange(
    sit: Situation,
    make_evaluator: Callable[[Situation], Evaluator],
    slack: int,
    we_call: bool,
) -> tuple[CardMask, CardMask, CardMask]:
    """Cards for the (right opponent, partner, left opponent)."""
    hand = sit.hand
    partner = _partner_card(sit, hand, we_call)
    rest = hand & ~partner
    dog_to = 0
    if rest & DOG:
        callers = [s for s in (seat_at(sit.seat, RIGHT), seat_at(sit.seat, LEFT)) if sit.calls[s]]
        if callers:
            dog_to = callers[0]
    candidates = _opponent_candidates(rest)
    if dog_to:
        candidates = [DOG]
    evaluator = make_evaluator(sit)
    best: tuple[float, CardMask, CardMask] | None = None
    pairs = [(DOG, c) for c in _opponent_candidates(rest & ~DOG)] if dog_to else []
    pairs += list(combinations(candidates, _PAIR)) if not dog_to else []
    if not pairs:  # too few low cards: any two other cards
        pairs = list(combinations(_cards(rest), _PAIR))
    for low, high in pairs:
        kept = rest & ~low & ~high
        value = hand_utility(evaluator, partitions(kept, slack))
        if best is None or value > best[0]:
            best = (value, low, high)
    if best is None:
        raise ValueError("a hand of fourteen cards always has two cards to pass")
    _, low, high = best
    if dog_to and dog_to == seat_at(sit.seat, LEFT):
        return high, partner, low
    return low, partner, high
