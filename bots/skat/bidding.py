"""Bidding: value the ten cards, then bid or hold up to the highest value worth the risk.

A bidder turns (cards, position) into a `HandValuation`: the win chance of each game it
considers, the game it would play and the highest bid worth making:
* `greedy`: the rule-of-thumb strength of the greedy bot, no chances;
* `lms`: a linear least-squares fit of the win flag on the hand features per game and
  position (`bots.skat.lms`), the studies' first, weak baseline;
* `knn`: the share of won games among the k most similar hands of the solver-labelled
  knowledge base (`bots.skat.knowledge`), the studied approach;
* `montecarlo`: the k-NN chances pick the likeliest games, then the hidden cards are dealt at
  random, the skat taken, two cards discarded by a fast rule and each world solved open-card
  for every one of those games (`bots.skat.evaluation.shared_world_wins`). The solved worlds
  are the labels' own process, so their win rates are far better calibrated than the
  neighbours' share (docs/benchmarks.md "Skat bidding");
* `score`: the expected Seeger-Fabian score of every contract (`bots.skat.score_bidding`);
  its valuation here names the best contract at the lowest bid and the highest bid at which
  some contract beats passing (no margin), with each game's calibrated win chance.
For the others, a game is playable when its chance reaches the `risk` parameter. The game
named is the likeliest playable one (grand and null included), the one a hand most often
wins; the limit is the highest value among playable games, the most the hand may bid.
Valuations depend only on the cards and the position, so they are computed once per hand
with a generator seeded from them.
"""

from functools import lru_cache
from typing import Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.skat.bidders import BIDDERS
from bots.skat.evaluation import base_game_value, shared_world_wins
from bots.skat.features import null_features
from bots.skat.hand_value import TRUMP_GAMES, rule_of_thumb_limit, strength
from bots.skat.montecarlo import shared_solver
from engine.skat.actions import Action, Bid, Hold, Pass
from engine.skat.cards import GAME_TYPES, CardMask, GameType, parse_cards
from engine.skat.observation import Observation
from engine.skat.rules import BID_VALUES

__all__ = [
    "HandValuation",
    "bid_decision",
    "candidate_games",
    "value_hand",
]

TRUMP_CANDIDATES: Final = 2
NULL_MAX_UNSAFE_SUITS: Final = 1
_UNSAFE_SUITS: Final = 2  # index of "unsafe_suits" in bots.skat.features.NULL_FEATURES
NEIGHBOURS: Final = 40
SOLVED_CANDIDATES: Final = 2  # games the montecarlo bidder solves: the likeliest by k-NN
PASS_GAME: Final = "pass"


class HandValuation(msgspec.Struct, frozen=True):
    """A bidder's view of a hand: the game it would play ("pass" if none), the highest bid
    worth making (0: pass) and the win chance per game it considered."""

    game: str
    limit: int
    chances: dict[str, float]


def candidate_games(cards: CardMask) -> list[GameType]:
    """The games worth solving for: the strongest trump games, and null if it looks safe."""
    ranked: list[GameType] = sorted(TRUMP_GAMES, key=lambda g: -strength(cards, g))[
        :TRUMP_CANDIDATES
    ]
    if null_features(cards)[_UNSAFE_SUITS] <= NULL_MAX_UNSAFE_SUITS:
        ranked.append("null")
    return ranked


@lru_cache(maxsize=4096)
def value_hand(
    cards: CardMask,
    position: int,
    *,
    bidder: str,
    risk: float,
    worlds: int,
    seconds: float | None = None,
) -> HandValuation:
    """Value `cards` at `position` (0 forehand) with `bidder`; see the module doc. The
    montecarlo bidder solves at most `worlds` worlds, fewer if `seconds` run out."""
    if bidder == "greedy":
        game, limit = rule_of_thumb_limit(cards)
        return HandValuation(game if limit else PASS_GAME, limit, {})
    if bidder == "score":
        return _score_valuation(cards, position, worlds, seconds)
    chances: dict[GameType, float]
    if bidder == "knn":
        chances = _knn_chances(cards, position)
    elif bidder == "lms":
        from bots.skat.lms import load_lms

        linear = load_lms()
        chances = {g: linear.win_chance(cards, position, g) for g in GAME_TYPES}
    elif bidder == "montecarlo":
        prior = _knn_chances(cards, position)
        games = sorted(GAME_TYPES, key=lambda g: -prior[g])[:SOLVED_CANDIDATES]
        wins = shared_world_wins(
            shared_solver(),
            cards,
            games,
            position=position,
            worlds=worlds,
            rng=np.random.default_rng([cards, position, worlds]),
            seconds=seconds,
        )
        chances = {g: float(wins[:, i].mean()) for i, g in enumerate(games)}
    else:
        raise ValueError(f"unknown bidder {bidder!r}; known: {', '.join(BIDDERS)}")
    reported = {str(g): p for g, p in chances.items()}
    values = {g: base_game_value(cards, g, hand=False) for g in chances}
    playable = [g for g in chances if chances[g] >= risk]
    if not playable:
        return HandValuation(PASS_GAME, 0, reported)
    likeliest = max(playable, key=lambda g: (chances[g], values[g]))
    return HandValuation(likeliest, max(values[g] for g in playable), reported)


def _score_valuation(
    cards: CardMask, position: int, worlds: int, seconds: float | None
) -> HandValuation:
    from bots.skat.expected import Contract, calibrated
    from bots.skat.score_bidding import best_contract, bid_limit, estimate_hand

    outcomes = estimate_hand(cards, position, worlds, seconds)
    limit = bid_limit(outcomes, 0.0)
    best = best_contract(outcomes, BID_VALUES[0])
    chances: dict[str, float] = {}
    for game in outcomes:
        solved = float(np.mean([level > 0 for level in game.levels]))
        chance = calibrated(Contract(game.game, game.hand).kind, solved)
        chances[game.game] = max(chances.get(game.game, 0.0), chance)
    game_name = best[0].game if best is not None and limit else PASS_GAME
    return HandValuation(game_name, limit, chances)


def _knn_chances(cards: CardMask, position: int) -> dict[GameType, float]:
    from bots.skat.knowledge import load_knowledge

    knowledge = load_knowledge()
    return {
        g: knowledge.win_chance(cards, position, g, hand=False, k=NEIGHBOURS) for g in GAME_TYPES
    }


def bid_decision(
    obs: Observation,
    rng: np.random.Generator,
    *,
    bidder: str,
    risk: float,
    worlds: int,
    seconds: float | None = None,
) -> Decision[Action]:
    """Bid, hold or pass by the limit of `bidder`."""
    valuation = value_hand(
        parse_cards(obs.hand),
        obs.position,
        bidder=bidder,
        risk=risk,
        worlds=worlds,
        seconds=seconds,
    )
    diagnostics = {
        "bidder": bidder,
        "game": valuation.game,
        "limit": valuation.limit,
        "chances": {g: round(p, 3) for g, p in valuation.chances.items()},
    }
    legal = obs.legal
    if Hold() in legal:
        return Decision(Hold() if obs.bid <= valuation.limit else Pass(), diagnostics)
    next_bid = next((v for v in BID_VALUES if v > obs.bid), None)
    if next_bid is not None and next_bid <= valuation.limit and Bid(next_bid) in legal:
        return Decision(Bid(next_bid), diagnostics)
    return Decision(Pass(), diagnostics)
