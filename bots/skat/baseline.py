"""Baseline Skat policies: `random` plays uniformly among the legal game moves.

Resigning, Kontra and Re are left out of the random choice: a bot that resigned at random
would end most deals after a card or two and measure nothing.
"""

import numpy as np

from bots.policy import Decision
from engine.skat.actions import Action, Kontra, Re, Resign
from engine.skat.observation import Observation

__all__ = ["game_moves", "random_policy"]


def game_moves(obs: Observation) -> list[Action]:
    """The viewer's legal actions without resignation, Kontra and Re."""
    return [a for a in obs.legal if not isinstance(a, Resign | Kontra | Re)]


def random_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
    """A uniformly random legal game move."""
    moves = game_moves(obs)
    if not moves:
        raise ValueError("the observing seat has no move to make")
    return Decision(moves[int(rng.integers(len(moves)))], {"choices": len(moves)})
