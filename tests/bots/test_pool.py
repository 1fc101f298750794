"""The bot pool answers every request: a dead or late worker yields the fallback and is replaced;
tasks (a deal analysis step) run in the same workers, after any waiting play decision."""

import asyncio

import msgspec
import pytest

from bots.pool import BotPool, TaskFailed
from bots.skat.analysis import Budget, DealAnalysis, Part, Step, analyze_deal, run_step
from engine.skat.actions import Bid, Hold, Pass
from engine.skat.state import State, new_game


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


async def test_the_worker_freed_last_takes_the_next_decision() -> None:
    """A seat's decisions follow each other on one worker, so its caches are warm."""
    pool = BotPool(2, warm_up=False)
    await pool.start()
    asked = []
    ask = pool._ask

    async def recording(worker, request):  # type: ignore[no-untyped-def]
        asked.append(worker)
        return await ask(worker, request)

    pool._ask = recording  # type: ignore[method-assign]
    try:
        observation = new_game(seed=5).observation(1)
        for seed in range(4):
            await pool.decide("skat", "random", observation, seed, deadline=30)
        assert len(asked) == 4 and all(worker is asked[0] for worker in asked)
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


def _finished_deal() -> State:
    """A deal passed in by all three players: its analysis is the auction alone."""
    state = new_game(seed=4)
    for seat in (1, 2, 0):
        state = state.apply(seat, Pass())
    return state


async def test_a_task_runs_in_a_worker_and_its_failure_is_reported() -> None:
    pool = BotPool(1, warm_up=False)
    await pool.start()
    try:
        final, budget = _finished_deal(), Budget(card_worlds=4, skat_worlds=4)
        assert await pool.run("skat_analysis_steps", final, 1, 60) == 1
        part = await pool.run("skat_analysis_step", (final, 0, (4, 4)), 1, 60)
        assert msgspec.json.decode(part, type=Part) == run_step(final, Step("bidding"), budget, 1)
        whole = await pool.run("skat_analysis_assemble", (final, [part], (4, 4)), 1, 60)
        assert msgspec.json.decode(whole, type=DealAnalysis) == analyze_deal(final, budget, seed=1)
        with pytest.raises(TaskFailed):
            await pool.run("skat_analysis_step", (final, 1, (4, 4)), 1, 60)
        with pytest.raises(TaskFailed):
            await pool.run("no_such_task", None, 1, 60)
        observation = new_game(seed=1).observation(1)
        decision = await pool.decide("skat", "random", observation, 3, deadline=30)
        assert decision.action in observation.legal and pool.stats.fallbacks == 0
    finally:
        await pool.close()


async def test_play_decisions_go_before_waiting_tasks() -> None:
    pool = BotPool(1, warm_up=False)
    await pool.start()
    try:
        final = _finished_deal()
        done: list[str] = []

        async def task(label: str, seed: int) -> None:
            await pool.run("skat_analysis_step", (final, 0, (4, 8)), seed, 120)
            done.append(label)

        async def decision() -> None:
            observation = new_game(seed=1).observation(1)
            await pool.decide("skat", "random", observation, 3, deadline=120)
            done.append("decision")

        first = asyncio.create_task(task("first task", 1))
        await asyncio.sleep(0.05)  # the first task holds the only worker
        second = asyncio.create_task(task("second task", 2))
        await asyncio.sleep(0.05)  # the second task waits before the decision does
        await asyncio.gather(first, second, decision())
        assert done == ["first task", "decision", "second task"]
        assert pool.stats.fallbacks == 0
    finally:
        await pool.close()
