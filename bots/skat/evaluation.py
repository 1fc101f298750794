"""How good is a game for a would-be declarer? Monte Carlo over the hidden cards, solved.

Used by the bidding and the skat decisions. The hidden cards (the opponents' hands, and the
skat when the declarer has not seen it) are dealt uniformly at random; each world is solved
open-card with the `win` question from the opening lead. When the skat is unknown and the game
is played with the skat, the declarer takes it and discards by a fast rule (the pair that
leaves the strongest hand and, for trump games, saves the most points) before solving.
"""

from collections.abc import Sequence
from typing import Final

import msgspec
import numpy as np

from bots.skat.features import null_features
from bots.skat.hand_value import strength
from engine.bits import iter_bits, popcount
from engine.skat.cards import (
    ALL_CARDS,
    BASE_VALUE,
    CARD_POINTS,
    NULL_VALUES,
    CardMask,
    GameType,
    card_points,
)
from engine.skat.scoring import matadors
from engine.skat.solver import Position
from engine.skat.solver import Solver as _Solver

__all__ = ["GameOdds", "base_game_value", "quick_discard", "win_odds"]

HAND_SIZE: Final = 10
SKAT_SIZE: Final = 2


class GameOdds(msgspec.Struct, frozen=True):
    """A game's Monte Carlo estimate: worlds solved, worlds won, and the value if won."""

    game: GameType
    hand: bool
    worlds: int
    wins: int
    value: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.worlds if self.worlds else 0.0

    @property
    def expected_list_value(self) -> float:
        """Won: +value; lost: -2 x value (ISkO), weighted by the win rate."""
        p = self.win_rate
        return p * self.value - (1 - p) * 2 * self.value


def base_game_value(cards: CardMask, game: GameType, *, hand: bool) -> int:
    """The value of `game` reached with the matadors of `cards` and no schneider."""
    if game == "null":
        return NULL_VALUES[(False, hand)]
    return BASE_VALUE[game] * (abs(matadors(game, cards)) + 1 + hand)


def quick_discard(cards: CardMask, game: GameType) -> CardMask:
    """A fast discard from twelve cards for `game`: keep the strongest ten (see module doc)."""
    best_key: tuple[float, int] | None = None
    best = 0
    listed = sorted(iter_bits(cards))
    for i, first in enumerate(listed):
        for second in listed[i + 1 :]:
            pair = (1 << first) | (1 << second)
            left = cards & ~pair
            if game == "null":
                f = null_features(left)
                key = (f[7] - 3 * f[2], -int(f[4]))  # safe cards, no unsafe suits, low ranks
            else:
                key = (strength(left, game), CARD_POINTS[first] + CARD_POINTS[second])
            if best_key is None or key > best_key:
                best_key, best = key, pair
    return best


def win_odds(
    solver: _Solver,
    hand_cards: CardMask,
    game: GameType,
    *,
    position: int,
    hand: bool,
    worlds: int,
    rng: np.random.Generator,
    skat: CardMask | None = None,
) -> GameOdds:
    """Estimate `game` for a declarer at `position` (0 forehand) holding `hand_cards`.

    `skat` is the known skat (the discards) after a pickup; None when it is unknown. With
    `hand` the skat stays untouched; otherwise an unknown skat is picked up in each world and
    two cards discarded by `quick_discard`.
    """
    size = popcount(hand_cards)
    if size != HAND_SIZE:
        raise ValueError("the declarer's hand must hold ten cards")
    unknown = ALL_CARDS & ~hand_cards & ~(skat or 0)
    cards = sorted(iter_bits(unknown))
    wins = 0
    for _ in range(worlds):
        order = rng.permutation(len(cards))
        dealt = [cards[int(i)] for i in order]
        others = (_mask(dealt[:HAND_SIZE]), _mask(dealt[HAND_SIZE : 2 * HAND_SIZE]))
        world_skat = skat if skat is not None else _mask(dealt[2 * HAND_SIZE :])
        mine = hand_cards
        if skat is None and not hand:
            twelve = hand_cards | world_skat
            world_skat = quick_discard(twelve, game)
            mine = twelve & ~world_skat
        hands = [0, 0, 0]
        hands[position] = mine
        hands[(position + 1) % 3], hands[(position + 2) % 3] = others
        result = solver.solve(
            Position(
                hands=(hands[0], hands[1], hands[2]),
                game=game,
                declarer=position,
                leader=0,
                declarer_points=card_points(world_skat) if game != "null" else 0,
            ),
            "win",
        )
        wins += result.declarer_wins
    return GameOdds(game, hand, worlds, wins, base_game_value(hand_cards, game, hand=hand))


def _mask(cards: Sequence[int]) -> CardMask:
    return sum(1 << c for c in cards)
