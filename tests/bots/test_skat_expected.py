"""Solved worlds of the score bidder (`bots.skat.expected.solve_outcomes`): every level equals
the one read off a fresh solver's exact value, and a world solved once is not solved again
(the declaration deals the discard's worlds)."""

import numpy as np

from bots.skat.evaluation import deal_worlds, quick_discard
from bots.skat.expected import (
    LOST,
    SCHNEIDER,
    SCHWARZ_LEVEL,
    WON,
    solve_outcomes,
)
from engine.skat.cards import GameType, card_points, parse_cards
from engine.skat.solver import SCHWARZ, Mode, Position, Solver, SolveResult, Target, solve

TWELVE = parse_cards(["JC", "JH", "AC", "TC", "KC", "9C", "8C", "AS", "TS", "7H", "8H", "9D"])
WORLDS = 6


class CountingSolver(Solver):
    """A solver that counts its solves."""

    solves = 0

    def solve(self, position: Position, mode: Mode = "value", target: Target = None) -> SolveResult:
        self.solves += 1
        return super().solve(position, mode, target)


def _reference_level(hands: tuple[int, int, int], game: GameType, laid: int) -> int:
    """The level from a fresh solver: the exact points, then a schwarz test."""
    if game == "null":
        return WON if solve(Position(hands, game, 0, 0), "win").declarer_wins else LOST
    position = Position(hands, game, 0, 0, declarer_points=card_points(laid))
    points = solve(position, "value").declarer_points
    assert points is not None
    if points < 61:
        return LOST
    if points < 90:
        return WON
    return SCHWARZ_LEVEL if solve(position, "win", SCHWARZ).declarer_wins else SCHNEIDER


def test_levels_equal_a_fresh_solvers_exact_values() -> None:
    games: list[GameType] = ["clubs", "grand", "null"]
    plans = [(g, False, quick_discard(TWELVE, g)) for g in games]
    found = solve_outcomes(
        CountingSolver(), TWELVE, plans, position=0, worlds=WORLDS, rng=np.random.default_rng(7)
    )
    worlds = list(deal_worlds(TWELVE, None, WORLDS, np.random.default_rng(7)))
    for (game, _, pair), outcomes in zip(plans, found, strict=True):
        expected = tuple(
            _reference_level((TWELVE & ~(pair or 0), *others), game, pair or 0)
            for others, _ in worlds
        )
        assert outcomes.levels == expected
    assert {lv for o in found for lv in o.levels} - {LOST} != set()


def test_a_world_solved_once_is_not_solved_again() -> None:
    pair = quick_discard(TWELVE, "spades")
    ten = TWELVE & ~pair
    solver = CountingSolver()
    rng = np.random.default_rng([TWELVE, 1, WORLDS])
    first = solve_outcomes(
        solver, TWELVE, [("spades", False, pair)], position=1, worlds=WORLDS, rng=rng
    )
    assert solver.solves >= WORLDS
    solver.solves = 0
    rng = np.random.default_rng([TWELVE, 1, WORLDS])
    again = solve_outcomes(
        solver, ten, [("spades", False, None)], position=1, worlds=WORLDS, rng=rng, skat=pair
    )
    assert solver.solves == 0
    assert again[0].levels == first[0].levels
