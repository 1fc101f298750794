"""How good is a game for a would-be declarer? Monte Carlo over the hidden cards, solved.

Used by the bidding and the skat decisions. The hidden cards (the opponents' hands, and the
skat when the declarer has not seen it) are dealt uniformly at random; each world is solved
open-card with the `win` question from the opening lead. When the skat is unknown and the game
is played with the skat, the declarer takes it and discards by a fast rule (the pair that
leaves the strongest hand and, for trump games, saves the most points) before solving.
"""

from collections.abc import Iterator, Sequence
from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt

from bots.skat.budget import deadline_after, out_of_time
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

__all__ = [
    "GameOdds",
    "base_game_value",
    "deal_worlds",
    "opening_win",
    "quick_discard",
    "shared_world_wins",
    "win_odds",
]

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
    seconds: float | None = None,
) -> GameOdds:
    """Estimate `game` for a declarer at `position` (0 forehand) holding `hand_cards`.

    `skat` is the known skat (the discards) after a pickup; None when it is unknown. With
    `hand` the skat stays untouched; otherwise an unknown skat is picked up in each world and
    two cards discarded by `quick_discard`. With `seconds`, fewer than `worlds` worlds may be
    solved (`bots.skat.budget`).
    """
    size = popcount(hand_cards)
    if size != HAND_SIZE:
        raise ValueError("the declarer's hand must hold ten cards")
    deadline = deadline_after(seconds)
    wins = solved = 0
    pickup = skat is None and not hand
    for others, world_skat in deal_worlds(hand_cards, skat, worlds, rng):
        if out_of_time(deadline, solved):
            break
        wins += _declarer_wins(
            solver, hand_cards, others, world_skat, game, position=position, pickup=pickup
        )
        solved += 1
    return GameOdds(game, hand, solved, wins, base_game_value(hand_cards, game, hand=hand))


def shared_world_wins(
    solver: _Solver,
    hand_cards: CardMask,
    games: Sequence[GameType],
    *,
    position: int,
    worlds: int,
    rng: np.random.Generator,
    seconds: float | None = None,
    hand: bool = False,
) -> npt.NDArray[np.bool_]:
    """Win flags (worlds x games) of `games` with the skat picked up (as hand games with
    `hand`), every game solved in the same worlds: a row without a win is a world in which
    none of the games wins, which a bidder needs to weigh passing against its best game.
    With `seconds`, fewer rows than `worlds` may be solved (`bots.skat.budget`)."""
    if popcount(hand_cards) != HAND_SIZE:
        raise ValueError("the declarer's hand must hold ten cards")
    deadline = deadline_after(seconds)
    wins = np.zeros((worlds, len(games)), dtype=np.bool_)
    solved = 0
    for others, world_skat in deal_worlds(hand_cards, None, worlds, rng):
        if out_of_time(deadline, solved):
            break
        for g, game in enumerate(games):
            wins[solved, g] = _declarer_wins(
                solver, hand_cards, others, world_skat, game, position=position, pickup=not hand
            )
        solved += 1
    return wins[:solved]


def deal_worlds(
    hand_cards: CardMask, skat: CardMask | None, worlds: int, rng: np.random.Generator
) -> Iterator[tuple[tuple[CardMask, CardMask], CardMask]]:
    """Uniform deals of the hidden cards: the opponents' hands (next seat first) and the
    skat (the known one if given)."""
    cards = sorted(iter_bits(ALL_CARDS & ~hand_cards & ~(skat or 0)))
    for _ in range(worlds):
        dealt = [cards[int(i)] for i in rng.permutation(len(cards))]
        others = (_mask(dealt[:HAND_SIZE]), _mask(dealt[HAND_SIZE : 2 * HAND_SIZE]))
        yield others, skat if skat is not None else _mask(dealt[2 * HAND_SIZE :])


def _declarer_wins(
    solver: _Solver,
    hand_cards: CardMask,
    others: tuple[CardMask, CardMask],
    skat: CardMask,
    game: GameType,
    *,
    position: int,
    pickup: bool,
) -> bool:
    """Solve one world from the opening lead; with `pickup` the declarer first takes `skat`
    and lays away two cards by `quick_discard`."""
    mine, laid = hand_cards, skat
    if pickup:
        twelve = hand_cards | skat
        laid = quick_discard(twelve, game)
        mine = twelve & ~laid
    hands = [0, 0, 0]
    hands[position] = mine
    hands[(position + 1) % 3], hands[(position + 2) % 3] = others
    return opening_win(solver, (hands[0], hands[1], hands[2]), game, position, laid)


def opening_win(
    solver: _Solver,
    hands: tuple[CardMask, CardMask, CardMask],
    game: GameType,
    declarer: int,
    laid: CardMask,
) -> bool:
    """Does the declarer win `game` open-card from the opening lead (forehand, seat 0), with
    `laid` (the skat he put away) counting for him?"""
    result = solver.solve(
        Position(
            hands=hands,
            game=game,
            declarer=declarer,
            leader=0,
            declarer_points=card_points(laid) if game != "null" else 0,
        ),
        "win",
    )
    return bool(result.declarer_wins)


def _mask(cards: Sequence[int]) -> CardMask:
    return sum(1 << c for c in cards)
