"""Monte Carlo card play: solve sampled worlds open-card and play the card that wins most.

For each world drawn uniformly from those consistent with the observation
(`bots.skat.sampling`), the double-dummy solver answers the `moves` question: for every legal
card, does the declarer reach his target with best play from both sides, and with how many
points. The bot plays the card that is best for its side in the most worlds, breaking ties by
the mean card points (so a won game is won with the most points and schneider is sought when
it is there). In null the solver gives no points, and the declarer's cards tied on worlds are
told apart by rank: the highest goes first. Known weaknesses of this approach (strategy
fusion: it assumes it will know the hidden cards later; no information-gathering plays) are
discussed in docs/bots.md.
"""

from collections.abc import Sequence
from functools import cache
from typing import Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.skat.budget import deadline_after, out_of_time
from bots.skat.inference import weighted_worlds
from bots.skat.sampling import World, sample_worlds
from engine.errors import InvalidInput
from engine.skat.actions import Action, Play
from engine.skat.cards import (
    BASE_VALUE,
    card_points,
    format_card,
    parse_card,
    parse_cards,
    power,
)
from engine.skat.observation import Observation
from engine.skat.scoring import SCHNEIDER_POINTS, WIN_POINTS, matadors
from engine.skat.solver import SCHWARZ, Position, Solver, Target

__all__ = ["CardChoice", "choose_card", "declarer_target", "position_of", "shared_solver"]

EXACT_CARDS: Final = 5  # with this many cards in hand or fewer, exact values are cheap
OUT_OF_SCHNEIDER: Final = 31


@cache
def shared_solver() -> Solver:
    """One solver (and transposition table) per process, made on first use."""
    return Solver()


class CardChoice(msgspec.Struct, frozen=True):
    """Per-card statistics over the solved worlds, from the mover's side."""

    card: str
    wins: int
    mean_points: float | None


def declarer_target(obs: Observation) -> Target:
    """What the declarer must reach: 61, 90 when schneider is announced or needed to reach
    the bid, all tricks when schwarz is announced (ouvert) or needed."""
    contract = obs.contract
    if contract is None or contract.game == "null":
        return None
    if contract.schwarz or contract.ouvert:
        return SCHWARZ
    if contract.schneider:
        return SCHNEIDER_POINTS
    if obs.seat == obs.declarer:
        own = parse_cards(obs.hand) | parse_cards(obs.discarded)
        for trick in obs.tricks:
            for seat, text in zip(_players(obs, trick.leader), trick.cards, strict=True):
                if seat == obs.declarer:
                    own |= 1 << parse_card(text)
        own |= _own_cards_on_table(obs)
        base = BASE_VALUE[contract.game]
        multiplier = abs(matadors(contract.game, own)) + 1 + obs.hand_game
        if base * multiplier < obs.bid:
            return SCHNEIDER_POINTS if base * (multiplier + 1) >= obs.bid else SCHWARZ
    return WIN_POINTS


def _own_cards_on_table(obs: Observation) -> int:
    if obs.trick_leader is None:
        return 0
    mask = 0
    for seat, text in zip(_players(obs, obs.trick_leader), obs.trick, strict=False):
        if seat == obs.seat:
            mask |= 1 << parse_card(text)
    return mask


def _players(obs: Observation, leader: int) -> tuple[int, int, int]:
    order = obs.order
    i = order.index(leader)
    return (order[i], order[(i + 1) % 3], order[(i + 2) % 3])


def position_of(obs: Observation, world: World) -> Position:
    """The solver's position for one world: seats mapped to forehand 0, middlehand 1,
    rearhand 2; the declarer's banked points include the world's skat."""
    if obs.contract is None or obs.declarer is None or obs.trick_leader is None:
        raise InvalidInput("card play needs a declared game")
    order = obs.order
    declarer_tricks = sum(1 for t in obs.tricks if t.winner == obs.declarer)
    return Position(
        hands=(world.hands[order[0]], world.hands[order[1]], world.hands[order[2]]),
        game=obs.contract.game,
        declarer=order.index(obs.declarer),
        leader=order.index(obs.trick_leader),
        trick=tuple(parse_card(c) for c in obs.trick),
        declarer_points=obs.trick_points[obs.declarer] + card_points(world.skat),
        declarer_tricks=declarer_tricks,
        defender_tricks=len(obs.tricks) - declarer_tricks,
    )


def choose_card(
    obs: Observation,
    rng: np.random.Generator,
    *,
    worlds: int,
    seconds: float | None = None,
    inference: bool = False,
) -> Decision[Action]:
    """The Monte Carlo card for the seat to move, with per-card statistics as diagnostics.

    With `inference` the worlds are resampled by the likelihood of the other players'
    actions (`bots.skat.inference`); a world drawn more than once counts as often.

    Early in the play the exact value of every card is costly, so each world answers a bound
    question per card: does the declarer reach the target (61, or what the announcement or
    the bid demands)? Cards tied on that count are told apart by a second bound over the same
    worlds, in the direction that matters: the side that wins pushes on (declarer to
    schneider at 90, defenders to hold him under 31), the side that loses limits the damage.
    In the last `EXACT_CARDS` tricks the solver's exact values decide ties by mean points.
    The null declarer sheds his highest tied card: every tied card keeps the null in the
    sampled worlds only because the solver's declarer later knows where the cards are, and
    a high card kept is one he must guess with later.
    """
    plays = [a.card for a in obs.legal if isinstance(a, Play)]
    if len(plays) == 1:
        return Decision(Play(plays[0]), {"reason": "only legal card", "worlds": 0})
    target = declarer_target(obs)
    deadline = deadline_after(seconds)
    is_declarer = obs.seat == obs.declarer
    exact = target == WIN_POINTS and len(obs.hand) <= EXACT_CARDS
    if inference:
        sampled, counts = weighted_worlds(obs, worlds, rng)
    else:
        sampled = sample_worlds(obs, worlds, rng)
        counts = [1] * len(sampled)
    wins, points, solved, weight = _tally(obs, sampled, counts, target, exact, deadline)
    best = max(wins.values())
    tied = [card for card in plays if wins[card] == best]
    tie_target: Target = None
    if not exact and len(tied) > 1 and isinstance(target, int):
        pushing = best > weight / 2
        tie_target = _tie_target(target, is_declarer, pushing)
        if tie_target is not None:
            more, _, _, _ = _tally(
                obs, sampled[:solved], counts[:solved], tie_target, False, deadline
            )
            for card in tied:
                points[card] = [more[card]]
    # Tie scores (worlds good for the mover) are better higher; exact points for the declarer.
    higher_is_better = is_declarer or tie_target is not None
    shed = is_declarer and obs.contract is not None and obs.contract.game == "null"
    choices = _ranked(plays, wins, points, higher_is_better, shed_high=shed)
    return Decision(
        Play(choices[0].card),
        {
            "worlds": solved,
            "target": target,
            "tie_target": tie_target,
            "cards": {c.card: [c.wins / max(weight, 1), c.mean_points] for c in choices},
        },
    )


def _tie_target(target: int, is_declarer: bool, pushing: bool) -> int | None:
    """The second bound: declarer pushing -> schneider (90); declarer losing -> out of his
    own schneider (31); defenders pushing -> keep him under 31; defenders losing -> under 90."""
    if target != WIN_POINTS:
        return None
    if is_declarer:
        return SCHNEIDER_POINTS if pushing else OUT_OF_SCHNEIDER
    return OUT_OF_SCHNEIDER if pushing else SCHNEIDER_POINTS


def _tally(
    obs: Observation,
    worlds: list[World],
    counts: list[int],
    target: Target,
    exact: bool,
    deadline: float | None,
) -> tuple[dict[str, int], dict[str, list[int]], int, int]:
    """Per card: worlds good for the mover at `target` and exact final points (when
    `exact`), each world counted `counts` times; how many worlds were solved before the
    deadline, and their total count."""
    solver = shared_solver()
    is_declarer = obs.seat == obs.declarer
    wins = {a.card: 0 for a in obs.legal if isinstance(a, Play)}
    points: dict[str, list[int]] = {card: [] for card in wins}
    solved = weight = 0
    for world, count in zip(worlds, counts, strict=True):
        if out_of_time(deadline, solved):
            break
        result = solver.solve(position_of(obs, world), "moves", None if exact else target)
        for move in result.moves:
            good = move.declarer_wins == is_declarer
            for card in move.cards:
                text = format_card(card)
                wins[text] += good * count
                if move.declarer_points is not None:
                    points[text] += [move.declarer_points] * count
        solved += 1
        weight += count
    return wins, points, solved, weight


def _ranked(
    plays: Sequence[str],
    wins: dict[str, int],
    points: dict[str, list[int]],
    higher_is_better: bool,
    *,
    shed_high: bool = False,
) -> list[CardChoice]:
    """Cards best first: most worlds won for the mover's side, then the tie-break score
    (mean points, or worlds good at the second bound), then with `shed_high` the higher
    null rank."""
    sign = 1.0 if higher_is_better else -1.0
    rank = {card: power("null", parse_card(card)) if shed_high else 0 for card in plays}
    choices = [
        CardChoice(card, wins[card], float(np.mean(points[card])) if points[card] else None)
        for card in plays
    ]
    return sorted(
        choices,
        key=lambda c: (-c.wins, -sign * (c.mean_points or 0.0), -rank[c.card], c.card),
    )
