"""The bidding knowledge base: hands labelled by the solver, and the k-nearest-neighbour query.

Labels are open-card: for a deal and a would-be declarer, each game is solved from the opening
lead with the real opponents' hands and skat, once as a hand game and once with the skat taken
and two cards laid away by `quick_discard`. Open-card labels are cheap (a few milliseconds a
solve) but optimistic for whichever side profits from knowing the cards; docs/bots.md says
how that shows in the measured accuracy. A hand's *label* for classification is the most
valuable game it wins (with or without the skat), or "pass".

The shipped file (`bots/skat/data/knowledge.npz`) holds per hand its cards, position, per-game
features (small integers, stored as int8) and per-game win flags and values; it is built by
`tischrunde skat build-knowledge` and never by the tests.
"""

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from bots.skat.evaluation import base_game_value, opening_win, quick_discard
from bots.skat.features import features
from engine.skat.cards import GAME_TYPES, CardMask, GameType
from engine.skat.deal import deal_from_seed
from engine.skat.solver import Solver

__all__ = [
    "DEFAULT_PATH",
    "EVALUATION_SEEDS",
    "FEATURES_PER_GAME",
    "GAMES",
    "PASS",
    "POSITIONS",
    "KnowledgeBase",
    "LabelledHand",
    "build_knowledge",
    "label_deal",
    "label_deals",
    "load_knowledge",
    "to_arrays",
]

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "data" / "knowledge.npz"
GAMES: Final[tuple[GameType, ...]] = GAME_TYPES
PASS: Final = "pass"
FEATURES_PER_GAME: Final = 10  # trump games; null uses the first 8 columns
POSITIONS: Final = 3
# Deals the knowledge base never contains: the bidding benchmark's evaluation set starts here.
EVALUATION_SEEDS: Final = 10_000_000
CHUNK: Final = 25

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class LabelledHand:
    """One would-be declarer of one deal: his cards, position, and per game (in `GAMES`
    order) whether he wins with the skat, as a hand game, and the game's value."""

    cards: CardMask
    position: int
    pickup_wins: tuple[bool, ...]
    hand_wins: tuple[bool, ...]
    values: tuple[int, ...]

    def winnable(self, game: str) -> bool:
        """Whether `game` wins open-card, with the skat or as a hand game."""
        return any(
            self.pickup_wins[i] or self.hand_wins[i] for i, g in enumerate(GAMES) if g == game
        )

    @property
    def label(self) -> str:
        """The most valuable winnable game, or "pass"."""
        best, best_value = PASS, 0
        for i, game in enumerate(GAMES):
            if self.winnable(game) and self.values[i] > best_value:
                best, best_value = game, self.values[i]
        return best


def label_deal(solver: Solver, seed: int) -> list[LabelledHand]:
    """Label the three hands of deal `seed` (each in turn the would-be declarer)."""
    deal = deal_from_seed(seed)
    hands = []
    for position in range(POSITIONS):
        cards = deal.hands[position]
        pickup, hand, values = [], [], []
        for game in GAMES:
            hand.append(_wins(solver, deal.hands, deal.skat, position, game, cards, deal.skat))
            twelve = cards | deal.skat
            laid = quick_discard(twelve, game)
            pickup.append(
                _wins(solver, deal.hands, deal.skat, position, game, twelve & ~laid, laid)
            )
            values.append(base_game_value(twelve, game, hand=False))
        hands.append(LabelledHand(cards, position, tuple(pickup), tuple(hand), tuple(values)))
    return hands


def label_deals(seeds: Sequence[int]) -> list[LabelledHand]:
    """Label several deals with this process's solver (a worker's unit of work)."""
    from bots.skat.montecarlo import shared_solver

    solver = shared_solver()
    return [hand for seed in seeds for hand in label_deal(solver, seed)]


def build_knowledge(
    seeds: Sequence[int],
    *,
    workers: int,
    progress: Callable[[int], None] | None = None,
) -> dict[str, npt.NDArray[np.generic]]:
    """Label `seeds` on `workers` processes; `progress` hears the deals done so far."""
    chunks = [list(seeds[i : i + CHUNK]) for i in range(0, len(seeds), CHUNK)]
    hands: list[LabelledHand] = []
    done = 0
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for labelled, chunk in zip(pool.imap(label_deals, chunks), chunks, strict=True):
            hands += labelled
            done += len(chunk)
            if progress is not None:
                progress(done)
    return to_arrays(hands)


def _wins(
    solver: Solver,
    dealt: tuple[CardMask, CardMask, CardMask],
    skat: CardMask,
    position: int,
    game: GameType,
    mine: CardMask,
    laid: CardMask,
) -> bool:
    hands = list(dealt)
    hands[position] = mine
    return opening_win(solver, (hands[0], hands[1], hands[2]), game, position, laid)


def to_arrays(hands: Iterable[LabelledHand]) -> dict[str, npt.NDArray[np.generic]]:
    """The knowledge base's columns (see the module doc)."""
    items = list(hands)
    feats = np.zeros((len(items), len(GAMES), FEATURES_PER_GAME), dtype=np.int8)
    for row, item in enumerate(items):
        for g, game in enumerate(GAMES):
            f = features(item.cards, game)
            feats[row, g, : len(f)] = f
    return {
        "cards": np.array([h.cards for h in items], dtype=np.int64),
        "position": np.array([h.position for h in items], dtype=np.int8),
        "features": feats,
        "pickup_wins": np.array([h.pickup_wins for h in items], dtype=np.int8),
        "hand_wins": np.array([h.hand_wins for h in items], dtype=np.int8),
        "values": np.array([h.values for h in items], dtype=np.int16),
    }


class KnowledgeBase:
    """The labelled hands, with a k-nearest-neighbour estimate of a game's win chance."""

    def __init__(self, columns: dict[str, npt.NDArray[np.generic]]) -> None:
        self.position = columns["position"].astype(np.int64)
        self.features = columns["features"].astype(np.float64)
        self.pickup_wins = columns["pickup_wins"].astype(np.float64)
        self.hand_wins = columns["hand_wins"].astype(np.float64)
        self.cards = columns["cards"].astype(np.int64)
        spread = self.features.std(axis=0)
        self.scale = np.where(spread > 0, 1.0 / np.maximum(spread, 1e-9), 0.0)

    def __len__(self) -> int:
        return len(self.position)

    def win_chance(
        self, cards: CardMask, position: int, game: GameType, *, hand: bool, k: int
    ) -> float:
        """The share of the `k` nearest labelled hands (same position, features of `game`)
        that win `game` (as a hand game if `hand`)."""
        g = GAMES.index(game)
        query = np.zeros(FEATURES_PER_GAME)
        f = features(cards, game)
        query[: len(f)] = f
        rows = self.position == position
        table = self.features[rows, g, :]
        distance = (((table - query) * self.scale[g]) ** 2).sum(axis=1)
        nearest = np.argpartition(distance, min(k, len(distance) - 1))[:k]
        labels = (self.hand_wins if hand else self.pickup_wins)[rows, g]
        return float(labels[nearest].mean())


@cache
def load_knowledge(path: Path = DEFAULT_PATH) -> KnowledgeBase:
    """The knowledge base at `path`, loaded once per process."""
    if not path.exists():
        raise FileNotFoundError(
            f"no knowledge base at {path}: build it with `tischrunde skat build-knowledge`"
        )
    with np.load(path) as data:
        return KnowledgeBase({name: data[name] for name in data.files})
