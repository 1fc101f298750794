"""Expected Seeger-Fabian score of a contract over solved worlds: what the `score` bidder,
its skat decisions and its declaration compare.

A world deals the hidden cards (the opponents' hands and, before the pickup, the skat). In
each world every candidate game is solved open-card from the opening lead, first whether the
declarer makes 61, then (if so) 90, then (hand games, if so) every trick: a world's *level*
is 0 (lost), 1 (won), 2 (schneider), 3 (schwarz). From the levels follow all contracts of a
game at once: plain, schneider or schwarz announced, ouvert (hand games); null and null
ouvert share one flag. With the skat picked up, the declarer lays away two cards by the fast
rule `quick_discard` in each world; the matadors count the world's skat.

A contract's expected score at a bid is the win chance times the mean score if won plus the
loss chance times the mean score if lost, each world scored by the engine's own arithmetic
(`engine.skat.scoring`: game value, overbid, Seeger-Fabian points; the one place for it).
The open-card win rate is not the real one (the solver plays every side as if it saw the
cards; measured against real play it underrated suit games and grand), so it is mapped
through a calibration table per game kind
(`bots/skat/data/calibration.json`, fitted by `bench.skat_calibration`).
"""

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt

from bots.skat.budget import deadline_after, out_of_time
from bots.skat.evaluation import deal_worlds, opening_win, quick_discard
from bots.skat.features import null_features
from engine.bits import popcount
from engine.skat.actions import Declare
from engine.skat.cards import (
    JACKS,
    NULL_VALUES,
    SUIT_GAMES,
    CardMask,
    GameType,
    card_points,
    suit_card,
    trump_mask,
)
from engine.skat.scoring import (
    SCHNEIDER_POINTS,
    WIN_POINTS,
    doubled,
    matadors,
    seeger_fabian,
    value_null_game,
    value_trump_game,
)
from engine.skat.solver import SCHWARZ, Position, Solver

__all__ = [
    "PASS_SCORE",
    "Contract",
    "Outcomes",
    "calibrated",
    "candidate_games",
    "contracts_of",
    "declarer_score",
    "expected_score",
    "is_null_hopeful",
    "pickup_score",
    "solve_outcomes",
    "solved_rate",
]

PLAYERS: Final = 3
HAND_SIZE: Final = 10
LOST, WON, SCHNEIDER, SCHWARZ_LEVEL = 0, 1, 2, 3
# What passing is worth to a seat: its mean Seeger-Fabian points in the deals it did not
# declare (docs/bots.md "The score bidder" says how it was measured).
PASS_SCORE: Final = 5.0
# Cheap bounds that rule a game out without solving it (docs/bots.md).
MIN_SUIT_TRUMPS: Final = {False: 4, True: 5}  # with the skat / hand
MIN_GRAND_HIGH_CARDS: Final = 3  # jacks plus aces
MAX_NULL_UNSAFE_SUITS: Final = {False: 2, True: 1}
_UNSAFE_SUITS: Final = 2  # index of "unsafe_suits" in bots.skat.features.NULL_FEATURES
ACES: Final = sum(1 << suit_card(suit, "A") for suit in range(4))
_CALIBRATION: Final = Path(__file__).parent / "data" / "calibration.json"
# Solved worlds kept per process: the declaration deals the discard's worlds again (same
# seed, same hidden cards), so its chosen game and every game with the same pair are found
# here; a few decisions' worth (32 worlds times a dozen plans each).
_SOLVED_WORLDS: Final = 4096


class Contract(msgspec.Struct, frozen=True, order=True):
    """A declaration as the bidder weighs it: the game, hand or with the skat, and the
    announcements (ouvert implies schneider and schwarz in trump games)."""

    game: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False

    @property
    def needed(self) -> int:
        """The world level the contract needs: won, schneider or schwarz."""
        return SCHWARZ_LEVEL if self.schwarz else SCHNEIDER if self.schneider else WON

    @property
    def kind(self) -> str:
        """The calibration's game kind: suit, grand or null, and hand or not."""
        kind = "suit" if self.game in SUIT_GAMES else self.game
        return f"{kind} hand" if self.hand else kind

    def declaration(self) -> Declare:
        return Declare(self.game, self.schneider, self.schwarz, self.ouvert)

    def label(self) -> str:
        flags = ("hand", "schneider", "schwarz", "ouvert")
        return " ".join([self.game, *(f for f in flags if getattr(self, f))])


class Outcomes(msgspec.Struct, frozen=True):
    """One game (hand or with the skat) over the solved worlds: per world the level reached,
    the declarer's matadors and the game's trumps in the world's skat (what the declarer
    learns when he picks it up)."""

    game: GameType
    hand: bool
    levels: tuple[int, ...]
    matadors: tuple[int, ...]
    skat_trumps: tuple[int, ...] = ()

    def subset(self, worlds: Sequence[int]) -> "Outcomes":
        """The same game over some of the worlds."""
        return Outcomes(
            self.game,
            self.hand,
            tuple(self.levels[w] for w in worlds),
            tuple(self.matadors[w] for w in worlds),
        )


def contracts_of(outcomes: Outcomes) -> list[Contract]:
    """The contracts the solved game covers."""
    game, hand = outcomes.game, outcomes.hand
    if game == "null":
        return [Contract(game, hand), Contract(game, hand, ouvert=True)]
    if not hand:
        return [Contract(game)]
    return [
        Contract(game, True),
        Contract(game, True, schneider=True),
        Contract(game, True, schneider=True, schwarz=True),
        Contract(game, True, schneider=True, schwarz=True, ouvert=True),
    ]


def declarer_score(
    contract: Contract,
    matador_count: int,
    bid: int,
    level: int,
    kontra: int = 0,
    *,
    bock: bool = False,
) -> int | None:
    """The declarer's Seeger-Fabian points for `contract` when a world ends at `level`, after
    `kontra` doublings (Kontra 1, Re 2) and in a Bock deal if `bock`; None when the contract
    cannot be declared at `bid` (a null worth less)."""
    if contract.game == "null":
        value = NULL_VALUES[(contract.ouvert, contract.hand)]
        if value < bid:
            return None
        settled = value_null_game(hand=contract.hand, ouvert=contract.ouvert, won=level >= WON)
    else:
        points = {LOST: WIN_POINTS - 1, WON: WIN_POINTS}.get(level, SCHNEIDER_POINTS)
        settled = value_trump_game(
            contract.game,
            matador_count,
            hand=contract.hand,
            schneider_announced=contract.schneider,
            schwarz_announced=contract.schwarz,
            ouvert=contract.ouvert,
            bid=bid,
            declarer_points=points,
            declarer_tricks=HAND_SIZE if level == SCHWARZ_LEVEL else HAND_SIZE // 2,
        )
    list_value = doubled(settled.list_value, kontra=kontra, bock=bock)
    return seeger_fabian(PLAYERS, 0, settled.won, list_value)[0]


def expected_score(contract: Contract, outcomes: Outcomes, bid: int) -> float | None:
    """Calibrated expected score of `contract` at `bid` (None: not declarable there)."""
    levels = np.array(outcomes.levels)
    if not len(levels):
        return None
    needed = contract.needed
    won_scores, lost_scores = [], []
    for level, count in zip(outcomes.levels, outcomes.matadors, strict=True):
        won = declarer_score(contract, count, bid, max(level, needed))
        lost = declarer_score(contract, count, bid, LOST)
        if won is None or lost is None:
            return None
        won_scores.append(won)
        lost_scores.append(lost)
    p = calibrated(contract.kind, solved_rate(contract, levels >= needed))
    return p * float(np.mean(won_scores)) + (1 - p) * float(np.mean(lost_scores))


def solved_rate(contract: Contract, won: npt.NDArray[np.bool_]) -> float:
    """The share of worlds won, the calibration's input. For null it is the rule of
    succession, (won + 1) / (worlds + 2): a time budget on a loaded machine may stop after
    4 worlds, and a null won in all 4 is one of the likeliest to be the best of a dozen
    contracts by luck; its loss costs the most (docs/bots.md "Null"). With 32 worlds a null
    won in all of them still counts 0.97."""
    if contract.game == "null":
        return float((won.sum() + 1) / (len(won) + 2))
    return float(won.mean())


def pickup_score(games: Sequence[Outcomes], bid: int) -> tuple[float, dict[str, int]] | None:
    """Expected score of picking up the skat and then declaring, per world, the game that
    looks best *given that skat*: for each game, the mean score over the worlds whose skat
    holds as many of its trumps, the declarer's view after the pickup (he sees the skat,
    not the opponents' hands). A fixed game chosen before the pickup would undervalue hands
    that can turn into either of two games. Returns the score and how often each game is
    chosen; None if no game with the skat is declarable at `bid`."""
    pickups = [g for g in games if not g.hand and g.levels]
    per_world: dict[str, list[float]] = {}
    for game in pickups:
        contract = Contract(game.game)
        scores = [
            declarer_score(contract, m, bid, lv)
            for lv, m in zip(game.levels, game.matadors, strict=True)
        ]
        if any(x is None for x in scores):
            continue
        by_trumps: dict[int, list[float]] = {}
        for t, x in zip(game.skat_trumps, scores, strict=True):
            by_trumps.setdefault(t, []).append(float(x or 0))
        per_world[game.game] = [float(np.mean(by_trumps[t])) for t in game.skat_trumps]
    if not per_world:
        return None
    worlds = len(pickups[0].levels)
    chosen: dict[str, list[int]] = {}
    for w in range(worlds):
        best = max(per_world, key=lambda g: per_world[g][w])
        chosen.setdefault(best, []).append(w)
    total = 0.0
    for game in pickups:
        if game.game in chosen:
            score = expected_score(Contract(game.game), game.subset(chosen[game.game]), bid)
            total += len(chosen[game.game]) / worlds * (score or 0.0)
    return total, {g: len(ws) for g, ws in chosen.items()}


@cache
def _calibration() -> dict[str, tuple[list[float], list[float]]]:
    table = json.loads(_CALIBRATION.read_text())["kinds"]
    return {kind: (row["solved"], row["won"]) for kind, row in table.items()}


def calibrated(kind: str, solved_rate: float) -> float:
    """The win chance in real play of a game won in `solved_rate` of the solved worlds."""
    xs, ys = _calibration()[kind]
    return float(np.interp(solved_rate, xs, ys))


def candidate_games(cards: CardMask, *, hand: bool) -> list[GameType]:
    """The games the cheap bounds cannot rule out for ten cards (before the pickup, or
    hand) or twelve (after it): suit games with enough trumps, grand with enough jacks and
    aces, null without too many unsafe suits (for twelve cards: in the ten the fast rule
    keeps). Grand is never left out for being less likely than a suit game."""
    twelve = popcount(cards) > HAND_SIZE
    trumps = MIN_SUIT_TRUMPS[hand or twelve]
    games: list[GameType] = [g for g in SUIT_GAMES if popcount(cards & trump_mask(g)) >= trumps]
    if popcount(cards & (JACKS | ACES)) >= MIN_GRAND_HIGH_CARDS:
        games.append("grand")
    if is_null_hopeful(cards & ~quick_discard(cards, "null") if twelve else cards, hand=hand):
        games.append("null")
    return games


def is_null_hopeful(ten: CardMask, *, hand: bool) -> bool:
    """Whether null is worth solving for these ten cards (few unsafe suits)."""
    return bool(null_features(ten)[_UNSAFE_SUITS] <= MAX_NULL_UNSAFE_SUITS[hand])


def solve_outcomes(
    solver: Solver,
    cards: CardMask,
    plans: Sequence[tuple[GameType, bool, CardMask | None]],
    *,
    position: int,
    worlds: int,
    rng: np.random.Generator,
    skat: CardMask | None = None,
    seconds: float | None = None,
) -> list[Outcomes]:
    """Solve every plan (game, hand, discard) in the same worlds.

    `cards` are the declarer's ten cards, or twelve after the pickup; `skat` is the known
    skat (the two cards laid away) once the discard is made. Before the pickup the world
    deals the skat too; a game with the skat then lays away two cards per world by
    `quick_discard`, a hand game leaves the skat to the declarer's points. With twelve
    cards a plan's discard is its pair (None: `quick_discard`).
    """
    deadline = deadline_after(seconds)
    levels: list[list[int]] = [[] for _ in plans]
    counts: list[list[int]] = [[] for _ in plans]
    trumps: list[list[int]] = [[] for _ in plans]
    for solved, (others, world_skat) in enumerate(deal_worlds(cards, skat, worlds, rng)):
        if out_of_time(deadline, solved):
            break
        twelve = cards | world_skat  # the known skat, or the world's (none after the pickup)
        for i, (game, hand, pair) in enumerate(plans):
            if skat is not None:
                laid = skat
            elif popcount(cards) > HAND_SIZE:
                laid = pair if pair is not None else quick_discard(cards, game)
            elif hand:
                laid = world_skat
            else:
                laid = quick_discard(twelve, game)
            hands = [0, 0, 0]
            hands[position] = twelve & ~laid
            hands[(position + 1) % 3], hands[(position + 2) % 3] = others
            levels[i].append(_level(solver, (hands[0], hands[1], hands[2]), game, position, laid))
            counts[i].append(matadors(game, twelve))
            trumps[i].append(popcount(world_skat & trump_mask(game)))
    return [
        Outcomes(game, hand, tuple(lv), tuple(ct), tuple(tr))
        for (game, hand, _), lv, ct, tr in zip(plans, levels, counts, trumps, strict=True)
    ]


@lru_cache(maxsize=_SOLVED_WORLDS)
def _level(
    solver: Solver,
    hands: tuple[CardMask, CardMask, CardMask],
    game: GameType,
    declarer: int,
    laid: CardMask,
) -> int:
    """The highest level the declarer reaches open-card: lost, won, schneider, schwarz.
    Cached: a world solved once (the same cards, game and skat) is never solved again."""
    if not opening_win(solver, hands, game, declarer, laid):
        return LOST
    if game == "null":
        return WON
    position = Position(
        hands=hands, game=game, declarer=declarer, leader=0, declarer_points=card_points(laid)
    )
    if not solver.solve(position, "win", SCHNEIDER_POINTS).declarer_wins:
        return WON
    if not solver.solve(position, "win", SCHWARZ).declarer_wins:
        return SCHNEIDER
    return SCHWARZ_LEVEL
