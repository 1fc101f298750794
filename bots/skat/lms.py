"""The least-mean-squares (LMS) bidder: a linear baseline beside k-NN.

One linear model per game type and position (forehand, middlehand, rearhand), fitted by least
squares on the solver-labelled knowledge base: the inputs are the hand features of
`bots.skat.features` plus a constant, the target is 1 for a won game (with the skat) and 0 for
a lost one. The prediction, clipped to [0, 1], is read as the win chance. The studies our
bidding follows began with exactly such a classifier and found it weak; it stays as the
baseline every better bidder is measured against. Weights ship as a small file
(`bots/skat/data/lms.npz`) built by `tischrunde skat train-lms`.
"""

from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from bots.skat.features import features
from bots.skat.knowledge import FEATURES_PER_GAME, GAMES, POSITIONS, KnowledgeBase
from engine.skat.cards import CardMask, GameType

__all__ = ["LMS_PATH", "LinearBidder", "load_lms", "train_lms"]

LMS_PATH: Final = Path(__file__).resolve().parent / "data" / "lms.npz"

FloatArray = npt.NDArray[np.float64]


class LinearBidder:
    """Weights per (game, position): `weights[g, p]` has one entry per feature, then the bias."""

    def __init__(self, weights: FloatArray) -> None:
        expected = (len(GAMES), POSITIONS, FEATURES_PER_GAME + 1)
        if weights.shape != expected:
            raise ValueError(f"LMS weights must have shape {expected}, not {weights.shape}")
        self.weights = weights

    def win_chance(self, cards: CardMask, position: int, game: GameType) -> float:
        """The linear prediction for `game`, clipped to [0, 1]."""
        row = np.zeros(FEATURES_PER_GAME + 1)
        f = features(cards, game)
        row[: len(f)] = f
        row[-1] = 1.0
        value = float(row @ self.weights[GAMES.index(game), position])
        return min(1.0, max(0.0, value))


def train_lms(knowledge: KnowledgeBase) -> FloatArray:
    """Least-squares weights for every (game, position) from the knowledge base."""
    weights = np.zeros((len(GAMES), POSITIONS, FEATURES_PER_GAME + 1))
    for g in range(len(GAMES)):
        for position in range(POSITIONS):
            rows = knowledge.position == position
            inputs = np.hstack([knowledge.features[rows, g, :], np.ones((int(rows.sum()), 1))])
            target = knowledge.pickup_wins[rows, g]
            weights[g, position], *_ = np.linalg.lstsq(inputs, target, rcond=None)
    return weights


@cache
def load_lms(path: Path = LMS_PATH) -> LinearBidder:
    """The shipped LMS weights, loaded once per process."""
    if not path.exists():
        raise FileNotFoundError(
            f"no LMS weights at {path}: build them with `tischrunde skat train-lms`"
        )
    with np.load(path) as data:
        return LinearBidder(data["weights"])
