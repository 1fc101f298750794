"""Pure-Python solver with the interface of `engine.skat.solver.solve`, and a brute force.

Written for tests, independently of the kernels: it works in the project's card layout with
`engine.skat.cards` (effective suit, power, follow mask) and computes exact values by a
memoised minimax over whole states, so it is only practical for small endgames (about four
cards per hand). `brute_force` enumerates every play without memo or pruning, for the tiniest
positions, to check the reference itself.
"""

from collections.abc import Callable
from functools import cache

import msgspec

from engine.bits import iter_bits
from engine.skat.cards import CARD_POINTS, TRUMP, GameType, effective_suit, follow_mask, power
from engine.skat.solver.position import KIND_NULL, KIND_POINTS, PLAYERS, Position
from engine.skat.solver.query import MoveValue, SolveResult, Target, ask

__all__ = ["brute_force", "equivalent_groups", "future_value", "play", "solve"]

State = tuple[tuple[int, int, int], tuple[int, ...], int]


def _legal(game: GameType, hand: int, trick: tuple[int, ...]) -> list[int]:
    if not trick:
        return list(iter_bits(hand))
    follow = hand & follow_mask(game, trick[0])
    return list(iter_bits(follow or hand))


def _winner_offset(game: GameType, trick: tuple[int, ...]) -> int:
    led = effective_suit(game, trick[0])

    def strength(card: int) -> tuple[bool, bool, int]:
        suit = effective_suit(game, card)
        return (game != "null" and suit == TRUMP, suit == led, power(game, card))

    return max(range(len(trick)), key=lambda i: strength(trick[i]))


class _Game:
    """Rules of one question: the value of a trick and the side it is credited to."""

    def __init__(self, game: GameType, declarer: int, kind: int) -> None:
        self.game = game
        self.declarer = declarer
        self.kind = kind
        self.nodes = 0

    def card_value(self, card: int) -> int:
        return CARD_POINTS[card] if self.kind == KIND_POINTS else 0

    def trick_gain(self, trick: tuple[int, ...], winner: int) -> int:
        value = sum(self.card_value(c) for c in trick) + (self.kind != KIND_POINTS)
        credited = (winner == self.declarer) != (self.kind == KIND_NULL)
        return value if credited else 0

    def play(self, state: State, card: int) -> tuple[State, int]:
        """The state after `card` by the player to move, and the value it banks."""
        hands, trick, leader = state
        seat = (leader + len(trick)) % PLAYERS
        after = list(hands)
        after[seat] &= ~(1 << card)
        trick = (*trick, card)
        if len(trick) < PLAYERS:
            return ((after[0], after[1], after[2]), trick, leader), 0
        winner = (leader + _winner_offset(self.game, trick)) % PLAYERS
        return ((after[0], after[1], after[2]), (), winner), self.trick_gain(trick, winner)

    def moves(self, state: State) -> list[int]:
        hands, trick, leader = state
        return _legal(self.game, hands[(leader + len(trick)) % PLAYERS], trick)

    def maximises(self, state: State) -> bool:
        _, trick, leader = state
        return (leader + len(trick)) % PLAYERS == self.declarer


def _search(rules: _Game, memo: bool) -> Callable[[State], int]:
    def value(state: State) -> int:
        rules.nodes += 1
        moves = rules.moves(state)
        if not moves:
            return 0
        results = []
        for card in moves:
            child, gain = rules.play(state, card)
            results.append(gain + value(child))
        return max(results) if rules.maximises(state) else min(results)

    return cache(value) if memo else value


def play(position: Position, card: int) -> Position:
    """The position after the player to move plays `card` (legal; not checked), with the
    trick's points and the trick itself banked when it completes."""
    trick = (*position.trick, card)
    hands = list(position.hands)
    hands[position.to_move] &= ~(1 << card)
    held = (hands[0], hands[1], hands[2])
    if len(trick) < PLAYERS:
        return msgspec.structs.replace(position, hands=held, trick=trick)
    winner = (position.leader + _winner_offset(position.game, trick)) % PLAYERS
    won = winner == position.declarer
    return msgspec.structs.replace(
        position,
        hands=held,
        trick=(),
        leader=winner,
        declarer_points=position.declarer_points + sum(CARD_POINTS[c] for c in trick) * won,
        declarer_tricks=position.declarer_tricks + won,
        defender_tricks=position.defender_tricks + (not won),
    )


def _state(p: Position) -> State:
    return (p.hands, p.trick, p.leader)


def future_value(position: Position, kind: int) -> tuple[int, int]:
    """(exact future value of `kind` with best play, nodes) by memoised minimax."""
    rules = _Game(position.game, position.declarer, kind)
    return _search(rules, memo=True)(_state(position)), rules.nodes


def brute_force(position: Position, kind: int) -> int:
    """Exact future value of `kind` by plain minimax over every play: tiny positions only."""
    return _search(_Game(position.game, position.declarer, kind), memo=False)(_state(position))


def equivalent_groups(position: Position, kind: int) -> list[tuple[int, ...]]:
    """Legal cards of the player to move in groups that provably have the same value.

    Two cards are grouped when they share the effective suit and the value counted by `kind`
    and no card still in play (in a hand or on the table) lies between them in that suit:
    swapping them then changes no trick's winner and no trick's value. Highest card first.
    """
    rules = _Game(position.game, position.declarer, kind)
    game = position.game
    legal = sorted(
        rules.moves(_state(position)), key=lambda c: (effective_suit(game, c), power(game, c))
    )
    in_play = sum(position.hands) + sum(1 << c for c in position.trick)
    groups: list[list[int]] = []
    for card in legal:
        if groups and _adjacent(rules, in_play, groups[-1][-1], card):
            groups[-1].append(card)
        else:
            groups.append([card])
    return [tuple(reversed(g)) for g in reversed(groups)]


def _adjacent(rules: _Game, in_play: int, low: int, high: int) -> bool:
    game = rules.game
    suit = effective_suit(game, low)
    if suit != effective_suit(game, high) or rules.card_value(low) != rules.card_value(high):
        return False
    return not any(
        effective_suit(game, c) == suit and power(game, low) < power(game, c) < power(game, high)
        for c in iter_bits(in_play)
    )


def solve(position: Position, mode: str = "value", target: Target = None) -> SolveResult:
    """Same contract as `engine.skat.solver.solve`, by exhaustive memoised minimax."""
    question = ask(position, mode, target)
    kind = question.kind
    if mode == "win":
        value, nodes = future_value(position, kind)
        return SolveResult(None, value >= question.needed, (), nodes)
    if mode == "value":
        value, nodes = future_value(position, kind)
        wins = value >= question.needed
        if position.game == "null":
            return SolveResult(None, wins, (), nodes)
        points, more = (value, 0) if kind == KIND_POINTS else future_value(position, KIND_POINTS)
        return SolveResult(position.declarer_points + points, wins, (), nodes + more)
    exact = position.game != "null" and target is None  # moves and values: every card exact
    rules = _Game(position.game, position.declarer, kind)
    value_of = _search(rules, memo=True)
    state = _state(position)
    moves = []
    for group in equivalent_groups(position, kind):
        child, gain = rules.play(state, group[0])
        value = gain + value_of(child)
        moves.append(
            MoveValue(
                group, position.declarer_points + value if exact else None, value >= question.needed
            )
        )
    if not moves:  # the play is over
        return SolveResult(position.declarer_points if exact else None, question.needed <= 0)
    best = max if rules.maximises(state) else min
    total = best(m.declarer_points or 0 for m in moves) if exact else None
    moves.sort(key=lambda m: -m.cards[0])
    return SolveResult(total, best(m.declarer_wins for m in moves), tuple(moves), rules.nodes)
