"""Grade every card of a deal's play: the player's view (Monte Carlo) and open-card (exact).

For each card the deal's true state before it gives two answers. The player's view asks the
Monte Carlo bot (`bots.skat.montecarlo.choose_card`) on the player's own observation, so the
worlds are those consistent with what he knew, and each legal card gets the share of worlds
his side wins with it. Open-card, the solver's `moves` question on the true hands gives every
legal card's exact result. A card that was the only legal one is not graded.
"""

from collections.abc import Iterator

import numpy as np

from bots.skat.analysis.marks import card_mark, open_mark, stakes
from bots.skat.analysis.report import Budget, CardReview, CardValue
from bots.skat.expected import Contract
from bots.skat.montecarlo import choose_card, declarer_target, position_of, shared_solver
from bots.skat.sampling import World
from engine.errors import InvalidInput
from engine.skat.actions import Play
from engine.skat.cards import format_card, parse_card
from engine.skat.scoring import WIN_POINTS, matadors
from engine.skat.solver import SolveResult
from engine.skat.state import State

__all__ = ["contract_of", "review_card"]

Open = dict[str, tuple[bool, int | None]]  # card -> declarer wins, declarer's final points


def contract_of(state: State) -> Contract | None:
    """The contract declared in `state` as the bidding module weighs it (None: none)."""
    declared = state.contract
    if declared is None or state.ramsch:
        return None
    return Contract(
        declared.game,
        state.hand_game,
        declared.schneider,
        declared.schwarz,
        declared.ouvert,
    )


def review_card(final: State, number: int, budget: Budget, seed: int) -> CardReview:
    """Card number `number` (from 0) played in the finished deal `final`, graded."""
    contract = contract_of(final)
    if contract is None:
        raise InvalidInput("no card play without a declared game")
    position = final.seats.index(final.declarer)
    twelve = final.start.deal.hands[position] | final.start.deal.skat
    for played, (state, seat, card) in enumerate(_plays(final)):
        if played == number:
            declarer_stake, defender_stake = stakes(
                contract,
                matadors(contract.game, twelve),
                final.bid,
                final.players,
                state.kontra,
                bock=final.start.bock,
            )
            stake = declarer_stake if seat == final.declarer else defender_stake
            rng = np.random.default_rng([seed, number])
            return _review(state, seat, card, stake, budget, rng)
    raise InvalidInput(f"the deal has no card number {number}")


def _plays(final: State) -> Iterator[tuple[State, int, str]]:
    """The state before each card played, the seat and the card."""
    state = State.start_of(final.start)
    for seat, action in final.log:
        if isinstance(action, Play):
            yield state, seat, action.card
        state = state.record(seat, action)


def _review(
    state: State, seat: int, card: str, stake: float, budget: Budget, rng: np.random.Generator
) -> CardReview:
    obs = state.observation(seat)
    trick = len(state.tricks)
    plays = [a.card for a in obs.legal if isinstance(a, Play)]
    is_declarer = seat == state.declarer
    opened = _open_values(state)
    if len(plays) == 1:
        wins, points = opened[card]
        return CardReview(
            trick, seat, card, True, open_declarer_wins=wins, open_declarer_points=points
        )
    decision = choose_card(obs, rng, worlds=budget.card_worlds)
    chances = {c: float(v[0]) for c, v in decision.diagnostics["cards"].items()}
    choice = decision.action.card if isinstance(decision.action, Play) else None
    best = max(plays, key=lambda c: (chances[c], c == card, c == choice))
    chance_lost = chances[best] - chances[card]
    open_best, lost_game, points_lost = _open_loss(opened, card, plays, is_declarer)
    wins, points = opened[card]
    return CardReview(
        trick,
        seat,
        card,
        False,
        cards=tuple(CardValue(c, chances[c], *opened[c]) for c in plays),
        best=best,
        lost=round(chance_lost * stake, 2),
        mark=card_mark(chance_lost),
        open_best=open_best,
        open_lost_points=points_lost,
        open_mark=open_mark(lost_game, points_lost),
        declarer_chance=chances[card] if is_declarer else 1.0 - chances[card],
        open_declarer_wins=wins,
        open_declarer_points=points,
    )


def _open_values(state: State) -> Open:
    """Every legal card of the seat to move, solved open-card on the true hands: exact
    points for the declarer's plain target, else the win answer alone."""
    declarer_view = state.observation(state.declarer, history=False)
    target = declarer_target(declarer_view)
    obs = state.observation(state.to_move, history=False)
    world = World(hands=tuple(state.hands), skat=state.skat)
    result: SolveResult = shared_solver().solve(
        position_of(obs, world), "moves", None if target == WIN_POINTS else target
    )
    return {
        format_card(c): (move.declarer_wins, move.declarer_points)
        for move in result.moves
        for c in move.cards
    }


def _open_loss(
    opened: Open, card: str, plays: list[str], is_declarer: bool
) -> tuple[str, bool, int]:
    """The open-card best card for the mover, whether `card` gave the game away, and the
    card points it gave away."""
    sign = 1 if is_declarer else -1

    def value(c: str) -> tuple[bool, int]:
        wins, points = opened[c]
        return wins == is_declarer, sign * (points or 0)

    best = max(plays, key=lambda c: (value(c), c == card, -parse_card(c)))
    best_good, best_points = value(best)
    good, points = value(card)
    return best, best_good and not good, best_points - points if good == best_good else 0
