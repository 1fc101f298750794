"""The bot pool answers every request: a dead or late worker yields the fallback and is replaced."""

import asyncio

from bots.pool import BotPool
from engine.skat.actions import Bid, Hold, Pass
from engine.skat.state import new_game


async def test_decisions_come_from_workers_and_are_legal() -> None:
    pool = BotPool(1, warm_up=False)
    await pool.start()
    try:
        observation = new_game(seed=1).observation(1)
        decision = await pool.decide("skat", "random", observation, 3, deadline=30)
        assert decision.action in observation.legal
        assert pool.stats.fallbacks == 0
    finally:
        await pool.close()


async def test_a_killed_worker_is_answered_by_the_fallback_and_replaced() -> None:
    pool = BotPool(1, warm_up=False)
    await pool.start()
    try:
        observation = new_game(seed=2).observation(1)
        pool._workers[0].process.kill()
        decision = await pool.decide("skat", "random", observation, 3, deadline=30)
        assert isinstance(decision.action, Bid | Hold | Pass)
        assert pool.stats.fallbacks == 1 and pool.stats.replaced == 1
        again = await pool.decide("skat", "random", observation, 4, deadline=30)
        assert again.action in observation.legal
    finally:
        await pool.close()


async def test_a_missed_deadline_never_stalls_the_caller() -> None:
    pool = BotPool(1, warm_up=False)
    await pool.start()
    try:
        observation = new_game(seed=3).observation(1)
        decisions = await asyncio.gather(
            *(pool.decide("skat", "random", observation, s, deadline=0) for s in range(5))
        )
        assert all(d.action in observation.legal for d in decisions)
        assert pool.stats.fallbacks == 5
    finally:
        await pool.close()
