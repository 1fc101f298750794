"""Round scoring and the match result (docs/tichu-rules.md sections 8 and 9).

Teams: seats 0 and 2 form team 0, seats 1 and 3 team 1.
"""

from typing import Final

import msgspec

from engine.tichu.cards import CardMask, card_points

__all__ = [
    "DOUBLE_VICTORY_POINTS",
    "GRAND",
    "GRAND_TICHU_POINTS",
    "NO_CALL",
    "TEAMS",
    "TICHU",
    "TICHU_POINTS",
    "Result",
    "RoundScore",
    "score_round",
    "team_of",
]

TEAMS: Final = 2
NO_CALL: Final = 0
TICHU: Final = 1
GRAND: Final = 2
TICHU_POINTS: Final = 100
GRAND_TICHU_POINTS: Final = 200
DOUBLE_VICTORY_POINTS: Final = 200
_PAIR_OUT: Final = 2  # a double victory ends the round with two players out
_CALL_POINTS: Final = {NO_CALL: 0, TICHU: TICHU_POINTS, GRAND: GRAND_TICHU_POINTS}

Pair = tuple[int, int]


class RoundScore(msgspec.Struct, frozen=True):
    """One finished round, per team (index 0: seats 0+2, index 1: seats 1+3).

    Attributes:
        points: what the round adds to the match score (`card_points + call_points`).
        card_points: points of the cards won, 200/0 for a double victory.
        call_points: Tichu and Grand Tichu bonuses and penalties.
        finish: seats in the order they went out (two for a double victory, else three).
        double_victory: both players of one team went out first and second.
    """

    points: Pair
    card_points: Pair
    call_points: Pair
    finish: tuple[int, ...]
    double_victory: bool


class Result(msgspec.Struct, frozen=True):
    """The match so far: every finished round, the totals, and the winner once it is over.

    `winner` is the winning team, or None while the match runs or when it ended in a draw
    (only with `Rules(tie="draw")`).
    """

    rounds: tuple[RoundScore, ...]
    totals: Pair
    is_over: bool
    winner: int | None


def team_of(seat: int) -> int:
    """Team of a seat: partners sit opposite."""
    return seat % TEAMS


def _call_points(calls: tuple[int, ...], first_out: int) -> Pair:
    bonus = [0, 0]
    for seat, call in enumerate(calls):
        value = _CALL_POINTS[call]
        bonus[team_of(seat)] += value if seat == first_out else -value
    return bonus[0], bonus[1]


def score_round(
    hands: tuple[CardMask, ...],
    won: tuple[CardMask, ...],
    finish: tuple[int, ...],
    calls: tuple[int, ...],
) -> RoundScore:
    """Score a finished round from the cards still in hand, the tricks won and the finish order.

    A double victory scores 200 to the winning team and ignores card points. Otherwise the
    last player's hand goes to the opponents and his tricks to the first player out. Calls
    score for the caller's team whether or not the round was a double victory.
    """
    calls_pair = _call_points(calls, finish[0])
    first_team = team_of(finish[0])
    if len(finish) == _PAIR_OUT and team_of(finish[1]) == first_team:
        cards = [0, 0]
        cards[first_team] = DOUBLE_VICTORY_POINTS
        double = True
    else:
        last = next(seat for seat in range(len(hands)) if seat not in finish)
        piles = [0, 0]
        for seat, pile in enumerate(won):
            piles[team_of(finish[0] if seat == last else seat)] |= pile
        piles[1 - team_of(last)] |= hands[last]
        cards = [card_points(piles[0]), card_points(piles[1])]
        double = False
    return RoundScore(
        points=(cards[0] + calls_pair[0], cards[1] + calls_pair[1]),
        card_points=(cards[0], cards[1]),
        call_points=calls_pair,
        finish=finish,
        double_victory=double,
    )
