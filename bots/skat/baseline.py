"""Baseline Skat policies: `random` plays uniformly among the legal game moves.

Resigning, claiming, Kontra and Re are left out of the random choice: a bot that resigned or
claimed at random would end most deals after a card or two and measure nothing. A claim made
to it is answered at random, like every other choice it makes.
"""

import numpy as np

from bots.policy import Decision
from engine.skat.actions import Action, Claim, Kontra, Re, Resign
from engine.skat.observation import Observation

__all__ = ["game_moves", "random_policy"]


def game_moves(obs: Observation) -> list[Action]:
    """The viewer's legal actions without resignation, claims, Kontra and Re."""
    return [a for a in obs.legal if not isinstance(a, Resign | Claim | Kontra | Re)]


def random_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
    """A uniformly random legal game move."""
    moves = game_moves(obs)
    if not moves:
        raise ValueError("the observing seat has no move to make")
    return Decision(moves[int(rng.integers(len(moves)))], {"choices": len(moves)})
