"""The `random` Tichu bot: a uniformly random legal action.

Observations leave out the exchange actions (any three different cards, one per other seat),
so when the seat must exchange, the bot deals three random cards of its hand to the others.
"""

import numpy as np

from bots.policy import Decision
from engine.tichu.actions import Action, Exchange
from engine.tichu.observation import Observation

__all__ = ["random_policy"]

EXCHANGE_CARDS = 3


def random_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
    """A uniformly random legal action (a random exchange when one is due)."""
    if obs.must_exchange:
        picks = rng.choice(len(obs.hand), size=EXCHANGE_CARDS, replace=False)
        left, partner, right = (obs.hand[int(i)] for i in picks)
        return Decision(Exchange(left=left, partner=partner, right=right), {"choices": "exchange"})
    moves = obs.legal_actions
    if not moves:
        raise ValueError("the observing seat has no move to make")
    return Decision(moves[int(rng.integers(len(moves)))], {"choices": len(moves)})
