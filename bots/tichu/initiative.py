"""The initiative model: how likely a combination gets played, and wins the lead when it is.

Two probabilities per combination, both estimated from self-play statistics
(`bots.tichu.statistics` builds them; `tischrunde tichu build-initiative` writes the file):

* `play_probability(combo, trick)`: that another player leads a lower combination of the same
  class from this trick on, so the combination can be played without our own lead;
* `win_probability(combo, top, trick)`: that, once played, it takes the trick, given the
  highest card still out against it (`top_out`) and the trick number.

The file holds raw counts; `load_model` smooths them by backing off to coarser contexts
(trick bucket, then highest card out, then class) so sparse cells borrow strength, and
flattens the tables into lists for fast lookup.
"""

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Final, NamedTuple

import numpy as np

from bots.tichu.combination import CLASSES, class_of
from engine.tichu.cards import ACE, DRAGON, DRAGON_VALUE, PHOENIX, RANK_STRIDE, STANDARD, CardMask
from engine.tichu.combos import (
    BOMBSF,
    HALVES,
    KIND_SHIFT,
    SINGLE,
    Combo,
    height_of,
    is_bomb,
    kind_of,
)

__all__ = [
    "BOMB_WIN",
    "DEFAULT_FILE",
    "HEIGHT_SLOTS",
    "TOP_SLOTS",
    "TRICK_BUCKETS",
    "InitiativeModel",
    "height_slot",
    "load_model",
    "smooth",
    "top_out",
    "trick_bucket",
]

DEFAULT_FILE: Final = "initiative.npz"
HEIGHT_SLOTS: Final = DRAGON_VALUE + 2  # values 0..15, and the Phoenix single
_PHOENIX_SLOT: Final = DRAGON_VALUE + 1
TOP_SLOTS: Final = DRAGON_VALUE + 1  # 0 nothing out, 2..14, 15 the Dragon or the Phoenix
TRICK_BUCKETS: Final = (0, 1, 3, 6, 10)  # first trick index of each bucket
BOMB_WIN: Final = 0.95  # a bomb loses its trick only to a higher bomb
PRIOR_STRENGTH: Final = 8.0  # pseudo-observations a cell borrows from its coarser context
_NEUTRAL: Final = 0.5
_MODELS: Final = 8  # initiative files kept loaded


def height_slot(combo: Combo) -> int:
    """The height index of a combination: its value, or the Phoenix slot for a Phoenix single
    (the only combination with an odd height)."""
    half_ranks = height_of(combo)
    if kind_of(combo) == SINGLE and half_ranks % HALVES:
        return _PHOENIX_SLOT
    return half_ranks // HALVES


def top_out(unseen: CardMask, combo: Combo) -> int:
    """The highest card still out against a combination: for singles the Dragon or Phoenix
    count as 15 (both beat an Ace), for other classes only standard cards count."""
    if kind_of(combo) == SINGLE and unseen & (DRAGON | PHOENIX):
        return DRAGON_VALUE
    standard = unseen & STANDARD
    if not standard:
        return 0
    return min((standard.bit_length() - 1) // RANK_STRIDE, ACE)


def _bucket(trick: int) -> int:
    bucket = 0
    for index, first in enumerate(TRICK_BUCKETS):
        if trick >= first:
            bucket = index
    return bucket


_BUCKETS: Final = len(TRICK_BUCKETS)
_MAX_TRICKS: Final = 64  # more tricks than a round can have (56 cards)
_BUCKET_OF: Final = tuple(_bucket(t) for t in range(_MAX_TRICKS))


def trick_bucket(trick: int) -> int:
    """The trick-number bucket of a 0-based trick index."""
    return _BUCKET_OF[min(trick, _MAX_TRICKS - 1)]


def _base(combo: Combo) -> int:
    """Offset of a combination's (class, height slot) cell in the flat tables, -1 for none."""
    klass = class_of(combo)
    return -1 if klass < 0 else klass * HEIGHT_SLOTS + height_slot(combo)


# every packed combination int is below this (kind 9 of 4 bits, length 4 bits, height 5 bits)
_COMBO_LIMIT: Final = (BOMBSF + 1) << KIND_SHIFT
_CELL: Final = tuple(_base(c) for c in range(_COMBO_LIMIT))


def smooth(win_counts: np.ndarray, play_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Smoothed probabilities from counts `[..., 2]` (trials, successes), backing off to the
    coarser context: win `[class, height, top, bucket]` -> `[class, height, top]` ->
    `[class, height]` -> `[class]` -> 1/2; play `[class, height, bucket]` -> `[class, height]`
    -> `[class]` -> 1/2."""

    def blend(trials: np.ndarray, hits: np.ndarray, prior: np.ndarray) -> np.ndarray:
        result: np.ndarray = (hits + PRIOR_STRENGTH * prior) / (trials + PRIOR_STRENGTH)
        return result

    w = win_counts.astype(np.float64)
    w_cls = blend(w[..., 0].sum((1, 2, 3)), w[..., 1].sum((1, 2, 3)), np.full(CLASSES, _NEUTRAL))
    w_h = blend(w[..., 0].sum((2, 3)), w[..., 1].sum((2, 3)), w_cls[:, None])
    w_top = blend(w[..., 0].sum(3), w[..., 1].sum(3), w_h[:, :, None])
    win = blend(w[..., 0], w[..., 1], w_top[..., None])
    p = play_counts.astype(np.float64)
    p_cls = blend(p[..., 0].sum((1, 2)), p[..., 1].sum((1, 2)), np.full(CLASSES, _NEUTRAL))
    p_h = blend(p[..., 0].sum(2), p[..., 1].sum(2), p_cls[:, None])
    play = blend(p[..., 0], p[..., 1], p_h[..., None])
    return win, play


class InitiativeModel(NamedTuple):
    """Smoothed initiative probabilities as flat lists (lookups stay in plain Python floats).

    Attributes:
        win: P(win the trick) by (class, height slot, top out, trick bucket), flattened.
        play: P(a lower lead of the class comes) by (class, height slot, trick bucket).
    """

    win: list[float]
    play: list[float]

    def win_probability(self, combo: Combo, top: int, trick: int) -> float:
        """P(the combination takes its trick) given the highest card out and the trick index.
        Bombs: BOMB_WIN; the Dog never wins."""
        cell = _CELL[combo]
        if cell < 0:
            return BOMB_WIN if is_bomb(combo) else 0.0
        return self.win[(cell * TOP_SLOTS + top) * _BUCKETS + trick_bucket(trick)]

    def play_probability(self, combo: Combo, trick: int) -> float:
        """P(someone else leads a lower combination of its class later). Bombs can always be
        played; the Dog only on one's own lead."""
        cell = _CELL[combo]
        if cell < 0:
            return 1.0 if is_bomb(combo) else 0.0
        return self.play[cell * _BUCKETS + trick_bucket(trick)]


@lru_cache(maxsize=_MODELS)
def load_model(path: str | None = None) -> InitiativeModel:
    """The model from an initiative counts file (None: the package's default data)."""
    if path is None:
        source = resources.files("bots.tichu.data").joinpath(DEFAULT_FILE)
        with source.open("rb") as handle:
            data = np.load(handle)
            win_counts, play_counts = data["win"], data["play"]
    else:
        with np.load(Path(path)) as data:
            win_counts, play_counts = data["win"], data["play"]
    win, play = smooth(win_counts, play_counts)
    return InitiativeModel(win=win.ravel().tolist(), play=play.ravel().tolist())
