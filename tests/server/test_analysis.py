"""Deal analyses on the server (issue 26): `analyze` computes in the bot pool with progress,
several requests share one computation, the result is stored and served over HTTP to whoever
may see the deal, a user has a limit, a failure is reported, and `analyze_finished` analyses
every deal."""

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bots.pool import TaskFailed
from server.app import App, running
from tests.server.client import Client, bot_table, play
from tests.server.conftest import server_settings
from tests.server.test_privacy import http_get

SMALL = (4, 4)  # worlds per card, per hand valuation: the analysis's logic, quickly
WAIT = 180.0  # a first solve in a fresh worker loads the solver


async def _final(client: Client, request_id: int) -> dict[str, Any]:
    """The `analysis` (or error) that ends request `request_id`."""

    async def scan() -> dict[str, Any]:
        while True:
            for message in client.messages:
                if message.get("id") == request_id and message["type"] in ("analysis", "error"):
                    return message
            client.arrived.clear()
            await client.arrived.wait()

    return await asyncio.wait_for(scan(), WAIT)


def _count_tasks(app: App) -> Counter[str]:
    """Count the pool tasks the analyses run."""
    calls: Counter[str] = Counter()
    pool = app.analyses.pool
    real = pool.run

    async def counting(task: str, *args: Any) -> Any:
        calls[task] += 1
        return await real(task, *args)

    pool.run = counting  # type: ignore[method-assign]
    return calls


async def test_an_analysis_is_shared_stored_and_shown_only_to_who_may_see_the_deal(
    any_db_app: App,
) -> None:
    app = any_db_app
    app.analyses.budget = SMALL
    calls = _count_tasks(app)
    player, stranger = await Client.open(app.port), await Client.open(app.port)
    table, invite = await bot_table(player, private=True)
    await play({0: player}, table)
    path = f"/api/records/{table}/0/analysis"
    refused = await stranger.request("analyze", table=table, deal=0)
    assert refused["type"] == "error" and refused["code"] == "no_such_record"
    assert (await asyncio.to_thread(http_get, app, path, player.token))[0] == 404  # not yet
    # Two requests at once: one computation, both hear its progress and its result.
    await player.send({"type": "analyze", "id": 901, "table": table, "deal": 0})
    await player.send({"type": "analyze", "id": 902, "table": table, "deal": 0})
    first, second = await _final(player, 901), await _final(player, 902)
    assert first["type"] == second["type"] == "analysis", (first, second)
    assert first["analysis"] == second["analysis"]
    assert calls["skat_analysis_steps"] == 1 and calls["skat_analysis_assemble"] == 1
    analysis = first["analysis"]
    progress = [m for m in player.messages if m["type"] == "analysis_progress"]
    total = 1 + len(analysis["cards"])
    assert {m["total"] for m in progress} == {total}
    assert max(m["done"] for m in progress if m["id"] == 901) == total
    assert calls["skat_analysis_step"] == total
    # Stored: asked again, it comes at once, computed no more; HTTP serves the same.
    again = await player.ok("analyze", table=table, deal=0)
    assert again["type"] == "analysis" and again["analysis"] == analysis
    assert calls["skat_analysis_steps"] == 1
    status, text = await asyncio.to_thread(http_get, app, path, player.token)
    assert status == 200 and json.loads(text) == analysis
    assert (await asyncio.to_thread(http_get, app, f"{path}?invite={invite}"))[0] == 200
    assert (await asyncio.to_thread(http_get, app, path))[0] == 404
    assert (await asyncio.to_thread(http_get, app, path, stranger.token))[0] == 404
    with_invite = await stranger.request("analyze", table=table, deal=0, invite=invite)
    assert with_invite["type"] == "analysis"
    missing = await player.request("analyze", table=table, deal=1)
    assert missing["type"] == "error" and missing["code"] == "no_such_record"


async def test_a_user_has_a_limit_of_analyses_under_way(tmp_path: Path) -> None:
    async with running(server_settings(tmp_path, analysis_per_user=1)) as app:
        app.analyses.budget = SMALL
        gate = asyncio.Event()
        real = app.analyses.pool.run

        async def held(task: str, *args: Any) -> Any:
            await gate.wait()
            return await real(task, *args)

        app.analyses.pool.run = held  # type: ignore[method-assign]
        player = await Client.open(app.port)
        first, _ = await bot_table(player)
        await play({0: player}, first)
        other, _ = await bot_table(player)
        await play({0: player}, other)
        await player.send({"type": "analyze", "id": 801, "table": first, "deal": 0})
        refused = await player.request("analyze", table=other, deal=0)
        assert refused["type"] == "error" and refused["code"] == "analysis_limit"
        joined = asyncio.create_task(player.request("analyze", table=first, deal=0))
        await asyncio.sleep(0.2)
        gate.set()
        assert (await _final(player, 801))["type"] == "analysis"
        assert (await joined)["type"] in ("analysis_progress", "analysis")
        assert (await player.request("analyze", table=other, deal=0))["type"] != "error"


async def test_every_finished_deal_is_analysed_when_the_server_says_so(tmp_path: Path) -> None:
    settings = server_settings(
        tmp_path, analyze_finished=True, analysis_card_worlds=4, analysis_skat_worlds=4
    )
    async with running(settings) as app:
        player = await Client.open(app.port)
        table, _ = await bot_table(player)
        await play({0: player}, table)
        path = f"/api/records/{table}/0/analysis"

        async def stored() -> str:
            while True:
                status, text = await asyncio.to_thread(http_get, app, path)
                if status == 200:
                    return text
                await asyncio.sleep(0.5)

        analysis = json.loads(await asyncio.wait_for(stored(), WAIT))
        assert analysis["positions"] == [0, 1, 2] and len(analysis["bidding"]) >= 1


async def test_a_failed_analysis_is_reported_and_can_be_asked_again(tmp_path: Path) -> None:
    async with running(server_settings(tmp_path)) as app:
        app.analyses.budget = SMALL
        real = app.analyses.pool.run
        failing = {"skat_analysis_assemble"}

        async def flaky(task: str, *args: Any) -> Any:
            if task in failing:
                raise TaskFailed("the worker died")
            return await real(task, *args)

        app.analyses.pool.run = flaky  # type: ignore[method-assign]
        player = await Client.open(app.port)
        table, _ = await bot_table(player)
        await play({0: player}, table)
        await player.send({"type": "analyze", "id": 701, "table": table, "deal": 0})
        failed = await _final(player, 701)
        assert failed["type"] == "error" and failed["code"] == "analysis_failed"
        path = f"/api/records/{table}/0/analysis"
        assert (await asyncio.to_thread(http_get, app, path))[0] == 404  # nothing stored
        failing.clear()
        await player.send({"type": "analyze", "id": 702, "table": table, "deal": 0})
        assert (await _final(player, 702))["type"] == "analysis"
