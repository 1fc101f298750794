"""Skat bot decision times by level and phase, in process and through the bot pool.

Run: `python -m bench.skat_bots [--deals 6] [--levels beginner,club,strong,expert,baseline]
[--workers 2]`.
Each level plays `--deals` deals (from seed `--seed`) in all three seats; every decision is
timed and grouped by phase: bid (bidding), skat (hand or pickup, discard, declaration) and
play (card play; a Ramsch is played by the greedy rules and left out). Two passes per level:
* in process: the policy is called directly and timed in process CPU time
  (`time.process_time`), which other load on the shared machine distorts least;
* pool: the same deals with every decision sent to `bots.pool.BotPool` (`--workers`
  processes, solver and knowledge base loaded once), timed in wall time from request to
  answer as a table sees it; decisions answered by the fallback are counted.
Prints count, p50, p95 and max in milliseconds. Targets (issue 4) for `strong` with the pool:
card play p50 <= 300 ms and p95 <= 1 s; bidding and skat decisions p95 <= 1 s.
"""

import argparse
import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Final

import numpy as np

from bots.policy import Decision
from bots.pool import BotPool
from bots.registry import skat_policy
from engine.skat.actions import Action
from engine.skat.observation import Observation
from engine.skat.rules import Rules
from engine.skat.state import new_game

PHASE_GROUPS: Final = {
    "bidding": "bid",
    "skat": "skat",
    "discard": "skat",
    "declare": "skat",
    "play": "play",
}
GROUPS: Final = ("bid", "skat", "play")
DEADLINE_SECONDS: Final = 30.0  # far above any target: a late answer is measured, not replaced
_MS: Final = 1000.0

Decide = Callable[[Observation, int], Awaitable[Decision[Action]]]
Times = dict[str, list[float]]


async def play_timed(decide: Decide, seeds: range, clock: Callable[[], float]) -> Times:
    """Play the deals of `seeds`, timing each non-Ramsch decision by `clock`, by phase group."""
    times: Times = defaultdict(list)
    for seed in seeds:
        state = new_game(Rules(), seed=seed)
        step = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None  # a deal that is not over has a seat to move
            obs = state.observation(seat)
            start = clock()
            decision = await decide(obs, seed * 1000 + step)
            if not obs.ramsch:
                times[PHASE_GROUPS[state.phase]].append(clock() - start)
            state = state.apply(seat, decision.action)
            step += 1
    return times


async def in_process(level: str, seeds: range) -> Times:
    policy = skat_policy(level)

    async def decide(obs: Observation, seed: int) -> Decision[Action]:
        return policy(obs, np.random.default_rng(seed))

    return await play_timed(decide, seeds, time.process_time)


async def through_pool(pool: BotPool, level: str, seeds: range) -> Times:
    async def decide(obs: Observation, seed: int) -> Decision[Action]:
        return await pool.decide("skat", level, obs, seed, DEADLINE_SECONDS)

    return await play_timed(decide, seeds, time.perf_counter)


def print_rows(label: str, times: Times) -> None:
    for group in GROUPS:
        data = np.array(times.get(group, [])) * _MS
        if len(data) == 0:
            print(f"| {label} | {group} | 0 | - | - | - |")
            continue
        print(
            f"| {label} | {group} | {len(data)} | {np.median(data):.0f} "
            f"| {np.quantile(data, 0.95):.0f} | {data.max():.0f} |"
        )


async def main_async(args: argparse.Namespace) -> None:
    seeds = range(args.seed, args.seed + args.deals)
    levels = args.levels.split(",")
    for level in levels:
        skat_policy(level)  # unknown names fail before the long run
    print(f"{args.deals} deals per level from seed {args.seed}; times in ms")
    print("| level, timing | phase | decisions | p50 | p95 | max |")
    print("|---|---|---|---|---|---|")
    for level in levels:
        print_rows(f"{level}, in process (CPU)", await in_process(level, seeds))
    pool = BotPool(args.workers)
    await pool.start()
    try:
        for level in levels:
            print_rows(f"{level}, pool (wall)", await through_pool(pool, level, seeds))
    finally:
        await pool.close()
    print(f"\npool: {pool.stats.decisions} decisions, {pool.stats.fallbacks} by the fallback")


def main() -> None:
    parser = argparse.ArgumentParser(description="Skat bot decision times by level and phase")
    parser.add_argument("--deals", type=int, default=6, help="deals per level")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument(
        "--levels", default="beginner,club,strong,expert,baseline", help="bot names to time"
    )
    parser.add_argument("--workers", type=int, default=2, help="pool processes")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
