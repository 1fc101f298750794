"""The `score` bidder: bid, pick up or play hand, discard and declare by expected score.

Every decision weighs the contracts the cheap bounds leave (`bots.skat.expected`) by their
calibrated expected Seeger-Fabian score at the bid in question, solved in shared worlds:
* bidding: say or hold a bid while the best plan's expected score at that bid, less the
  level's `margin` (SF points; the level's caution), beats passing (`PASS_SCORE`); the plans
  are the hand contracts (announcements and ouvert included) and the pickup, valued with
  the game chosen after seeing the skat (`bots.skat.expected.pickup_score`);
* skat: play the best hand contract if it is worth more than the pickup, else pick up; both
  come from the bidding's worlds;
* discard: for each game the fast rule's pair, solved against the opponents' hands; the
  pair of the best contract is laid away;
* declaration: every game for the ten cards kept and the known skat, the best declared.
The valuation of the ten cards is cached per hand and position, so the bidding and the skat
decision of one deal solve once.
"""

from functools import lru_cache

import numpy as np

from bots.policy import Decision
from bots.skat.evaluation import quick_discard
from bots.skat.expected import (
    PASS_SCORE,
    Contract,
    Outcomes,
    candidate_games,
    contracts_of,
    expected_score,
    is_null_hopeful,
    pickup_score,
    solve_outcomes,
)
from bots.skat.montecarlo import shared_solver
from engine.skat.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUpSkat
from engine.skat.cards import CardMask, GameType, format_cards, parse_cards
from engine.skat.observation import Observation
from engine.skat.rules import BID_VALUES

__all__ = [
    "best_contract",
    "best_plan",
    "bid_limit",
    "choose_declaration",
    "choose_discard",
    "choose_hand_or_skat",
    "estimate_hand",
    "score_bid",
]

Choice = tuple[Contract, float, float]  # contract, expected score, solved win rate


@lru_cache(maxsize=1024)
def estimate_hand(
    cards: CardMask, position: int, worlds: int, seconds: float | None
) -> tuple[Outcomes, ...]:
    """Every game the bounds leave, with the skat and hand, solved in the same worlds."""
    plans: list[tuple[GameType, bool, CardMask | None]] = [
        (g, False, None) for g in candidate_games(cards, hand=False)
    ]
    plans += [(g, True, None) for g in candidate_games(cards, hand=True)]
    if not plans:
        return ()
    return tuple(_solve(cards, plans, position, worlds, seconds, seed=cards))


def _solve(
    cards: CardMask,
    plans: list[tuple[GameType, bool, CardMask | None]],
    position: int,
    worlds: int,
    seconds: float | None,
    *,
    skat: CardMask | None = None,
    seed: int,
) -> list[Outcomes]:
    """`solve_outcomes` with the process's solver and a generator seeded from the cards."""
    return solve_outcomes(
        shared_solver(),
        cards,
        plans,
        position=position,
        worlds=worlds,
        rng=np.random.default_rng([seed, position, worlds]),
        skat=skat,
        seconds=seconds,
    )


def best_contract(
    outcomes: tuple[Outcomes, ...] | list[Outcomes],
    bid: int,
    allowed: set[Declare] | None = None,
    *,
    hand: bool | None = None,
) -> Choice | None:
    """The contract with the highest expected score at `bid` (only `allowed` declarations
    and, if given, only hand or only with the skat), or None."""
    best: Choice | None = None
    for game in outcomes:
        if hand is not None and game.hand != hand:
            continue
        for contract in contracts_of(game):
            if allowed is not None and contract.declaration() not in allowed:
                continue
            score = expected_score(contract, game, bid)
            if score is not None and (best is None or score > best[1]):
                solved = float(np.mean([lv >= contract.needed for lv in game.levels]))
                best = (contract, score, solved)
    return best


def best_plan(
    outcomes: tuple[Outcomes, ...], bid: int, allowed: set[Declare] | None = None
) -> tuple[float, dict[str, object]] | None:
    """The better of the best hand contract and the pickup at `bid`: its expected score and
    what to report about it; None if neither is declarable."""
    in_hand = best_contract(outcomes, bid, allowed, hand=True)
    pickup = pickup_score(outcomes, bid)
    if pickup is not None and (in_hand is None or pickup[0] >= in_hand[1]):
        return pickup[0], {"plan": "pickup", "games": pickup[1], "expected": round(pickup[0], 1)}
    if in_hand is not None:
        return in_hand[1], _diagnostics(in_hand, bid)
    return None


def bid_limit(outcomes: tuple[Outcomes, ...], margin: float) -> int:
    """The highest bid at which some plan, less `margin`, beats passing (0: none)."""
    limit = 0
    for bid in BID_VALUES:
        best = best_plan(outcomes, bid)
        if best is not None and best[0] - margin > PASS_SCORE:
            limit = bid
    return limit


def _diagnostics(choice: Choice | None, bid: int) -> dict[str, object]:
    if choice is None:
        return {"bid": bid, "contract": None}
    contract, score, solved = choice
    return {
        "bid": bid,
        "contract": contract.label(),
        "kind": contract.kind,
        "expected": round(score, 1),
        "solved": round(solved, 3),
    }


def _worth(plan: tuple[float, dict[str, object]] | None, margin: float) -> bool:
    return plan is not None and plan[0] - margin > PASS_SCORE


def score_bid(
    obs: Observation, *, worlds: int, seconds: float | None, margin: float
) -> Decision[Action]:
    """Hold or say the next bid while the best contract there beats passing."""
    outcomes = estimate_hand(parse_cards(obs.hand), obs.position, worlds, seconds)
    legal = obs.legal
    if Hold() in legal:
        plan = best_plan(outcomes, obs.bid)
        action: Action = Hold() if _worth(plan, margin) else Pass()
        return Decision(action, {"bid": obs.bid, **(plan[1] if plan else {})})
    next_bid = next((v for v in BID_VALUES if v > obs.bid), None)
    if next_bid is None or Bid(next_bid) not in legal:
        return Decision(Pass(), {"bid": obs.bid})
    plan = best_plan(outcomes, next_bid)
    action = Bid(next_bid) if _worth(plan, margin) else Pass()
    return Decision(action, {"bid": next_bid, **(plan[1] if plan else {})})


def choose_hand_or_skat(
    obs: Observation, *, worlds: int, seconds: float | None
) -> Decision[Action]:
    """Play the best hand contract if it is worth more than the pickup."""
    outcomes = estimate_hand(parse_cards(obs.hand), obs.position, worlds, seconds)
    allowed = {a for a in obs.legal if isinstance(a, Declare)}
    in_hand = best_contract(outcomes, obs.bid, allowed, hand=True)
    pickup = pickup_score(outcomes, obs.bid)
    diagnostics = {
        "hand": _diagnostics(in_hand, obs.bid),
        "pickup": None if pickup is None else round(pickup[0], 1),
    }
    if in_hand is not None and (pickup is None or in_hand[1] > pickup[0]):
        return Decision(in_hand[0].declaration(), diagnostics)
    return Decision(PickUpSkat(), diagnostics)


def choose_discard(obs: Observation, *, worlds: int, seconds: float | None) -> Decision[Action]:
    """Lay away the fast rule's pair of the contract with the best expected score."""
    twelve = parse_cards(obs.hand)
    games = candidate_games(twelve, hand=False) or ["grand"]
    plans: list[tuple[GameType, bool, CardMask | None]] = [
        (g, False, quick_discard(twelve, g)) for g in games
    ]
    outcomes = _solve(twelve, plans, obs.position, worlds, seconds, seed=twelve)
    best: tuple[float, CardMask, Choice] | None = None
    for (_, _, pair), game in zip(plans, outcomes, strict=True):
        choice = best_contract([game], obs.bid)
        if choice is not None and (best is None or choice[1] > best[0]):
            best = (choice[1], pair or 0, choice)
    pair = best[1] if best is not None else plans[0][2] or 0
    first, second = format_cards(pair)
    return Decision(Discard((first, second)), _diagnostics(best[2] if best else None, obs.bid))


def choose_declaration(obs: Observation, *, worlds: int, seconds: float | None) -> Decision[Action]:
    """Declare the best contract for the ten cards kept and the known skat."""
    ten = parse_cards(obs.hand)
    skat = parse_cards(obs.discarded)
    allowed = {a for a in obs.legal if isinstance(a, Declare)}
    trump_games = [g for g in candidate_games(ten | skat, hand=False) if g != "null"]
    null: list[GameType] = ["null"] if is_null_hopeful(ten, hand=False) else []
    games = [g for g in trump_games + null if Declare(g) in allowed]
    plans: list[tuple[GameType, bool, CardMask | None]] = [(g, False, None) for g in games]
    outcomes = _solve(ten, plans, obs.position, worlds, seconds, skat=skat, seed=ten | skat)
    choice = best_contract(outcomes, obs.bid, allowed)
    if choice is None:
        return Decision(Declare("grand"), {"reason": "no candidate game is declarable"})
    return Decision(choice[0].declaration(), _diagnostics(choice, obs.bid))
