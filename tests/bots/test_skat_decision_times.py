"""The decision-time benchmark groups every decision under the phase it was taken in."""

import asyncio
import itertools
from collections import Counter

import numpy as np

from bench.skat_bots import GROUPS, play_timed
from bots.policy import Decision
from bots.registry import skat_policy
from engine.skat.actions import Action, Bid, Hold, Pass, Play
from engine.skat.observation import Observation


def test_each_decision_is_timed_once_under_its_phase() -> None:
    greedy = skat_policy("greedy")
    kinds: Counter[str] = Counter()

    async def decide(obs: Observation, seed: int) -> Decision[Action]:
        decision = greedy(obs, np.random.default_rng(seed))
        if isinstance(decision.action, Play):
            kinds["play"] += 1
        elif obs.phase == "bidding":
            assert isinstance(decision.action, (Bid, Hold, Pass))
            kinds["bid"] += 1
        else:
            kinds["skat"] += 1
        return decision

    ticks = itertools.count()
    times = asyncio.run(play_timed(decide, range(1, 6), lambda: float(next(ticks))))
    assert set(times) <= set(GROUPS)
    assert {group: len(values) for group, values in times.items()} == dict(kinds)
    assert kinds["bid"] >= 2 * 5 and kinds["play"] > 0
    assert all(t == 1.0 for values in times.values() for t in values)
