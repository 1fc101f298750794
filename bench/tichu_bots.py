"""Tichu bot decision times on one core, by bot and decision kind.

Run: `python -m bench.tichu_bots [--rounds 60] [--seed 1]`. Plays `--rounds` rounds with
`classic` in all four seats, then as many with `strong` at seats 0 and 2 against `classic`,
timing every decision of the measured bot in process CPU time (`time.process_time`, so other
load on the machine distorts the figures less than wall-clock time would). Decisions are
grouped as play (plays, passes, interrupts, the Dragon's gift) and calls (Grand Tichu, the
exchange, Tichu calls) and reported as p50, p99 and max in milliseconds.

Targets (issue 6): classic play p50 <= 5 ms, p99 <= 200 ms; exchange and calls p99 <= 300 ms;
strong play p50 <= 50 ms, p99 <= 500 ms. Caches start cold: the first rounds pay for them.
"""

import argparse
import time
from collections.abc import Sequence
from typing import Final

import numpy as np

from bots.policy import Decision
from bots.registry import tichu_policy
from bots.tichu.match import TichuPolicy, play_round
from engine.rng import make_stream_rng
from engine.tichu.actions import Action
from engine.tichu.deal import SEATS, deal_from_seed
from engine.tichu.observation import Observation
from engine.tichu.rules import Rules
from engine.tichu.state import new_game

_CALL_PHASES: Final = ("grand_tichu", "exchange")
_MS: Final = 1000.0


class Timed:
    """A policy wrapper recording each decision's CPU time by group (play or calls)."""

    def __init__(self, policy: TichuPolicy, times: dict[str, list[float]]) -> None:
        self.policy = policy
        self.times = times

    def __call__(self, obs: Observation, rng: np.random.Generator) -> Decision[Action | None]:
        start = time.process_time()
        decision = self.policy(obs, rng)
        elapsed = time.process_time() - start
        call = obs.phase in _CALL_PHASES or type(decision.action).__name__ == "CallTichu"
        self.times["calls" if call else "play"].append(elapsed)
        return decision


def measure(
    seating: Sequence[str], timed: Sequence[int], rounds: int, seed: int
) -> dict[str, list[float]]:
    """Decision times of the seats `timed` over `rounds` rounds."""
    times: dict[str, list[float]] = {"play": [], "calls": []}
    policies: list[TichuPolicy] = []
    for seat, name in enumerate(seating):
        policy = tichu_policy(name)
        policies.append(Timed(policy, times) if seat in timed else policy)
    for index in range(rounds):
        start = new_game(Rules(max_rounds=1), seed=seed, deal=deal_from_seed(seed, index))
        rngs = [make_stream_rng(seed, index, seat) for seat in range(SEATS)]
        play_round(start, policies, rngs)
    return times


def _row(label: str, values: list[float]) -> None:
    data = np.array(values) * _MS
    print(
        f"{label:<22} {len(data):>7} {np.median(data):>9.2f} {np.quantile(data, 0.99):>9.1f}"
        f" {data.max():>9.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Tichu bot decision times on one core")
    parser.add_argument("--rounds", type=int, default=60, help="rounds per bot")
    parser.add_argument("--seed", type=int, default=1, help="deal seed")
    args = parser.parse_args()
    print(f"{'bot / decisions':<22} {'count':>7} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for bot, seating in (
        ("classic", ("classic",) * SEATS),
        ("strong", ("strong", "classic", "strong", "classic")),
    ):
        times = measure(seating, (0, 2), args.rounds, args.seed)
        _row(f"{bot} play", times["play"])
        _row(f"{bot} exchange+calls", times["calls"])


if __name__ == "__main__":
    main()
