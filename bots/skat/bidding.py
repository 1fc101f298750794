"""Bidding: value the ten cards, then bid or hold up to the highest value worth the risk.

Bidders:
* `greedy`: the rule-of-thumb limit of the greedy bot (strength threshold, matadors value).
* `montecarlo`: for the most promising games (the two strongest trump games by hand strength,
  and null when the hand has at most one unsafe suit), deal the hidden cards at random, take
  the skat, discard by a fast rule and solve each world open-card (`bots.skat.evaluation`);
  the limit is the highest value among games whose win rate reaches the risk parameter.
The valuation of a hand depends only on the cards and the seat's position, so it is computed
once per hand with a generator seeded from them (the same hand always gets the same limit).
"""

from functools import lru_cache
from typing import Final

import numpy as np

from bots.policy import Decision
from bots.skat.evaluation import GameOdds, win_odds
from bots.skat.features import null_features
from bots.skat.greedy import greedy_policy
from bots.skat.hand_value import TRUMP_GAMES, strength
from bots.skat.montecarlo import shared_solver
from engine.skat.actions import Action, Bid, Hold, Pass
from engine.skat.cards import CardMask, GameType, parse_cards
from engine.skat.observation import Observation
from engine.skat.rules import BID_VALUES

__all__ = ["bid_decision", "bid_limit", "candidate_games"]

TRUMP_CANDIDATES: Final = 2
NULL_MAX_UNSAFE_SUITS: Final = 1
_UNSAFE_SUITS: Final = 2  # index of "unsafe_suits" in bots.skat.features.NULL_FEATURES


def candidate_games(cards: CardMask) -> list[GameType]:
    """The games worth solving for: the strongest trump games, and null if it looks safe."""
    ranked: list[GameType] = sorted(TRUMP_GAMES, key=lambda g: -strength(cards, g))[
        :TRUMP_CANDIDATES
    ]
    if null_features(cards)[_UNSAFE_SUITS] <= NULL_MAX_UNSAFE_SUITS:
        ranked.append("null")
    return ranked


@lru_cache(maxsize=4096)
def bid_limit(
    cards: CardMask, position: int, worlds: int, risk: float
) -> tuple[int, tuple[GameOdds, ...]]:
    """The highest bid worth making with `cards` at `position` (0 = forehand), and the odds
    it rests on. 0 means pass."""
    rng = np.random.default_rng([cards, position, worlds])
    odds = tuple(
        win_odds(
            shared_solver(), cards, game, position=position, hand=False, worlds=worlds, rng=rng
        )
        for game in candidate_games(cards)
    )
    playable = [o.value for o in odds if o.win_rate >= risk]
    return (max(playable) if playable else 0), odds


def bid_decision(
    obs: Observation, rng: np.random.Generator, *, bidder: str, risk: float, worlds: int
) -> Decision[Action]:
    """Bid, hold or pass by the limit of `bidder`."""
    if bidder == "greedy":
        return greedy_policy(obs, rng)
    if bidder != "montecarlo":
        raise ValueError(f"unknown bidder {bidder!r}")
    order = (obs.forehand, obs.middlehand, obs.rearhand)
    limit, odds = bid_limit(parse_cards(obs.hand), order.index(obs.seat), worlds, risk)
    diagnostics = {
        "limit": limit,
        "odds": {f"{o.game}": round(o.win_rate, 3) for o in odds},
    }
    legal = obs.legal
    if Hold() in legal:
        return Decision(Hold() if obs.bid <= limit else Pass(), diagnostics)
    next_bid = next((v for v in BID_VALUES if v > obs.bid), None)
    if next_bid is not None and next_bid <= limit and Bid(next_bid) in legal:
        return Decision(Bid(next_bid), diagnostics)
    return Decision(Pass(), diagnostics)
