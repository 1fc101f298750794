"""Grade the auction and the skat: expected Seeger-Fabian scores of the contracts a hand
allowed, by the score bidder's own valuation (`bots.skat.expected`, `bots.skat.score_bidding`).

* Bidding: each player's last word. Passing at a bid costs what the best plan there was
  expected to bring over passing (`PASS_SCORE`); the declarer's last bid costs what passing
  would have brought over the best plan at that bid (an overbid hand).
* Skat: hand or pickup, every hand contract and the pickup at the final bid, against the
  one chosen.
* Declaration after the pickup: the discard and game declared against each candidate game
  with the fast rule's discard, all solved in the same worlds.
The valuations are seeded from the cards (as the bot's are), so they depend on the budget
only.
"""

from typing import Final

import numpy as np

from bots.skat.analysis.card_play import contract_of
from bots.skat.analysis.marks import score_mark
from bots.skat.analysis.report import (
    BidReview,
    Budget,
    ContractValue,
    DeclarationReview,
    SkatReview,
)
from bots.skat.evaluation import quick_discard
from bots.skat.expected import (
    LOST,
    PASS_SCORE,
    Contract,
    Outcomes,
    candidate_games,
    contracts_of,
    declarer_score,
    expected_score,
    pickup_score,
    solve_outcomes,
)
from bots.skat.montecarlo import shared_solver
from bots.skat.score_bidding import best_plan, estimate_hand
from engine.skat.actions import Bid, Discard, Hold, Pass
from engine.skat.cards import CardMask, GameType, format_cards, parse_cards
from engine.skat.rules import BID_VALUES
from engine.skat.scoring import WON_BONUS
from engine.skat.state import State

__all__ = ["review_bidding", "review_declaration", "review_skat"]

PICKUP: Final = "pickup"


def review_bidding(final: State, budget: Budget) -> tuple[BidReview, ...]:
    """Each player's last word in the auction, graded (in forehand, middlehand, rearhand
    order)."""
    last: dict[int, tuple[int, bool]] = {}
    state = State.start_of(final.start)
    for seat, action in final.log:
        if state.phase != "bidding":
            break
        if isinstance(action, Bid):
            last[seat] = (action.value, True)
        elif isinstance(action, Hold):
            last[seat] = (state.bid, True)
        elif isinstance(action, Pass):
            refused = state.bid if state.awaiting_answer else _next_bid(state.bid)
            last[seat] = (refused, False)
        state = state.record(seat, action)
    reviews = []
    for position, seat in enumerate(final.seats):
        if seat not in last:
            continue
        bid, went_on = last[seat]
        ten = final.start.deal.hands[position]
        plan = best_plan(estimate_hand(ten, position, budget.skat_worlds, None), bid)
        expected = None if plan is None else plan[0]
        if went_on:
            lost = max(0.0, PASS_SCORE - expected) if expected is not None else 0.0
        else:
            lost = max(0.0, expected - PASS_SCORE) if expected is not None else 0.0
        reviews.append(
            BidReview(
                seat, bid, went_on, _round(expected), PASS_SCORE, round(lost, 2), score_mark(lost)
            )
        )
    return tuple(reviews)


def review_skat(final: State, budget: Budget) -> SkatReview | None:
    """The declarer's choice between a hand game and the pickup (None: no contract)."""
    contract = contract_of(final)
    if contract is None:
        return None
    position = final.seats.index(final.declarer)
    ten = final.start.deal.hands[position]
    outcomes = list(estimate_hand(ten, position, budget.skat_worlds, None))
    for hand in (False, True):
        if not any(o.game == contract.game and o.hand == hand for o in outcomes):
            outcomes += _solve(ten, [(contract.game, hand, None)], position, budget, ten)
    options = [
        ContractValue(c.label(), score)
        for game in outcomes
        if game.hand
        for c in contracts_of(game)
        if (score := expected_score(c, game, final.bid)) is not None
    ]
    pickup = pickup_score(outcomes, final.bid)
    if pickup is not None:
        options.append(ContractValue(PICKUP, pickup[0]))
    options = [ContractValue(o.label, round(o.expected, 2)) for o in options]
    if contract.hand:
        chosen = next((o for o in options if o.label == contract.label()), None)
    else:
        chosen = next((o for o in options if o.label == PICKUP), None)
    if chosen is None:  # not declarable at the bid by the valuation (an overbid)
        chosen = ContractValue(
            contract.label() if contract.hand else PICKUP, _lost_score(contract, final.bid)
        )
        options.append(chosen)
    best = max(options, key=lambda o: o.expected)
    lost = max(0.0, best.expected - chosen.expected)
    return SkatReview(
        final.declarer, tuple(options), chosen, best, round(lost, 2), score_mark(lost)
    )


def review_declaration(final: State, budget: Budget) -> DeclarationReview | None:
    """After a pickup: the discard and the game against the best candidate (None: a hand
    game or no contract)."""
    contract = contract_of(final)
    if contract is None or contract.hand:
        return None
    position = final.seats.index(final.declarer)
    twelve = final.start.deal.hands[position] | final.start.deal.skat
    discard = next(a for _, a in final.log if isinstance(a, Discard))
    laid = parse_cards(discard.cards)
    games = [g for g in candidate_games(twelve, hand=False) if g != contract.game]
    plans: list[tuple[GameType, bool, CardMask | None]] = [(contract.game, False, laid)]
    plans += [(g, False, quick_discard(twelve, g)) for g in games]
    outcomes = _solve(twelve, plans, position, budget, twelve)
    chosen_score = expected_score(contract, outcomes[0], final.bid)
    chosen = ContractValue(
        contract.label(),
        round(chosen_score if chosen_score is not None else _lost_score(contract, final.bid), 2),
    )
    options = [chosen]
    best, best_pair = chosen, laid
    for (_, _, pair), outcome in zip(plans[1:], outcomes[1:], strict=True):
        for candidate in contracts_of(outcome):
            score = expected_score(candidate, outcome, final.bid)
            if score is None:
                continue
            value = ContractValue(candidate.label(), round(score, 2))
            options.append(value)
            if value.expected > best.expected:
                best, best_pair = value, pair or 0
    lost = max(0.0, best.expected - chosen.expected)
    return DeclarationReview(
        final.declarer,
        discard.cards,
        chosen,
        best,
        _pair(best_pair),
        tuple(options),
        round(lost, 2),
        score_mark(lost),
    )


def _solve(
    cards: CardMask,
    plans: list[tuple[GameType, bool, CardMask | None]],
    position: int,
    budget: Budget,
    seed: int,
) -> list[Outcomes]:
    return solve_outcomes(
        shared_solver(),
        cards,
        plans,
        position=position,
        worlds=budget.skat_worlds,
        rng=np.random.default_rng([seed, position, budget.skat_worlds]),
    )


def _next_bid(bid: int) -> int:
    return next((v for v in BID_VALUES if v > bid), bid)


def _lost_score(contract: Contract, bid: int) -> float:
    """A contract the valuation cannot declare at the bid: scored as lost (an overbid)."""
    score = declarer_score(contract, 1, bid, LOST)
    return float(score if score is not None else -(2 * bid + WON_BONUS))


def _pair(mask: CardMask) -> tuple[str, str]:
    first, second = format_cards(mask)
    return first, second


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
