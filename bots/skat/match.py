"""Playing Skat deals with bots: one deal, and duplicate series for measuring strength.

Each policy sees only its own seat's observation. A duplicate series plays every deal once
per seating (all permutations of the bots over the seats), so the cards' luck cancels and
the difference between bots is their play.
"""

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import numpy as np

from bots.policy import Decision
from engine.skat.actions import Action
from engine.skat.observation import Observation
from engine.skat.rules import Rules
from engine.skat.scoring import Result
from engine.skat.state import State, new_game

__all__ = [
    "DecisionTime",
    "SeatScore",
    "duplicate_series",
    "play_deal",
    "play_out",
    "seat_scores",
    "summarize",
]

SkatPolicy = Callable[[Observation, np.random.Generator], Decision[Action]]


class DecisionTime(msgspec.Struct, frozen=True):
    """How long one decision took, by phase (bidding, skat/discard/declare, play)."""

    seat: int
    phase: str
    seconds: float


def play_deal(
    policies: Sequence[SkatPolicy],
    seed: int,
    *,
    rules: Rules | None = None,
    dealer: int | None = None,
    on_action: Callable[[State, int, Action], None] | None = None,
    timings: list[DecisionTime] | None = None,
) -> State:
    """Play one deal from `seed` to its end; `on_action` sees every applied action."""
    players = len(policies)
    state = new_game(rules or Rules(players=players), seed=seed, dealer=dealer)  # type: ignore[arg-type]
    return play_out(
        state, policies, np.random.default_rng(seed), on_action=on_action, timings=timings
    )


def play_out(
    state: State,
    policies: Sequence[SkatPolicy],
    rng: np.random.Generator,
    *,
    on_action: Callable[[State, int, Action], None] | None = None,
    timings: list[DecisionTime] | None = None,
) -> State:
    """Play the deal `state` (e.g. one a server dealt) to its end with `policies` by seat."""
    while not state.is_over:
        seat = state.to_move
        if seat is None:
            raise RuntimeError("a deal that is not over must have a seat to move")
        phase = state.phase
        start = time.perf_counter()
        decision = policies[seat](state.observation(seat), rng)
        if timings is not None:
            timings.append(DecisionTime(seat, phase, time.perf_counter() - start))
        state = state.apply(seat, decision.action)
        if on_action is not None:
            on_action(state, seat, decision.action)
    return state


class SeatScore(msgspec.Struct, frozen=True):
    """One bot's outcome in one deal of a duplicate series."""

    bot: str
    deal: int
    seating: tuple[int, ...]
    seeger_fabian: int
    declarer: bool
    won: bool | None
    game: str | None


def duplicate_series(
    bots: Sequence[str], policies: dict[str, SkatPolicy], seeds: Sequence[int]
) -> list[SeatScore]:
    """Play every seed once per seating of `bots` (3 names) over the three seats."""
    scores = []
    for seed in seeds:
        for seating in itertools.permutations(range(len(bots))):
            names = [bots[i] for i in seating]
            state = play_deal([policies[n] for n in names], seed)
            scores += seat_scores(state.result, names, seed, seating)
    return scores


def seat_scores(
    result: Result, names: Sequence[str], deal: int, seating: tuple[int, ...]
) -> list[SeatScore]:
    """Each seat's outcome of one finished deal; `names` are the bots by seat."""
    scores = []
    for seat, name in enumerate(names):
        is_declarer = result.declarer == seat
        scores.append(
            SeatScore(
                bot=name,
                deal=deal,
                seating=seating,
                seeger_fabian=result.seeger_fabian[seat],
                declarer=is_declarer,
                won=result.won if is_declarer else None,
                game=result.game if is_declarer else None,
            )
        )
    return scores


def summarize(scores: Sequence[SeatScore]) -> dict[str, dict[str, Any]]:
    """Per bot: games, mean Seeger-Fabian points with a 95% confidence interval, declarer
    games and declarer win rate."""
    table: dict[str, dict[str, Any]] = {}
    for bot in sorted({s.bot for s in scores}):
        own = [s for s in scores if s.bot == bot]
        points = np.array([s.seeger_fabian for s in own], dtype=np.float64)
        declared = [s for s in own if s.declarer and s.won is not None]
        half_width = 1.96 * points.std(ddof=1) / np.sqrt(len(points)) if len(points) > 1 else 0.0
        table[bot] = {
            "games": len(own),
            "mean": float(points.mean()),
            "ci95": float(half_width),
            "declared": len(declared),
            "declarer_win_rate": (
                sum(1 for s in declared if s.won) / len(declared) if declared else None
            ),
        }
    return table
