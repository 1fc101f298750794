"""/metrics: every series moves when its event happens, scraped over HTTP as Prometheus would."""

import asyncio
import re
import time
import urllib.request

from server.app import App
from tests.server.client import PATIENCE, Client, play, until

SAMPLE = re.compile(r"^([a-z_]+(?:\{[^}]*\})?) (\S+)$", re.MULTILINE)


def scrape(app: App) -> dict[str, float]:
    """Every sample of /metrics by series name (with its labels)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{app.port}/metrics") as response:
        text = response.read().decode()
    return {name: float(value) for name, value in SAMPLE.findall(text)}


async def metrics(app: App) -> dict[str, float]:
    return await asyncio.to_thread(scrape, app)


async def test_each_metric_moves_when_its_event_happens(app: App) -> None:
    start = await metrics(app)
    assert start["tischrunde_moves_total"] == 0

    client = await Client.open(app.port)
    opened = await metrics(app)
    assert opened["tischrunde_connections"] == start["tischrunde_connections"] + 1
    assert opened["tischrunde_connections_total"] == start["tischrunde_connections_total"] + 1

    await client.ws.send("{not json")
    await client.wait_for(lambda m: m.get("code") == "bad_json")
    rejected = await metrics(app)
    assert (
        rejected["tischrunde_frames_rejected_total"]
        == start["tischrunde_frames_rejected_total"] + 1
    )

    table = (await client.ok("create_table", game="skat", series_length=1))["table"]["id"]
    waiting = await metrics(app)
    assert waiting['tischrunde_tables{status="other"}'] == 1
    assert waiting['tischrunde_tables{status="playing"}'] == 0

    await client.ok("join", table=table)
    await client.ok("add_bot", table=table, seat=1)
    await client.ok("add_bot", table=table, seat=2)
    await client.wait_for(lambda m: m.get("view") is not None)
    playing = await metrics(app)
    assert playing['tischrunde_tables{status="playing"}'] == 1
    assert playing['tischrunde_tables{status="other"}'] == 0

    await play({0: client}, table)
    await client.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
    moves = sum(1 for m in client.messages if m.get("event", {}).get("kind") == "move")
    bot_moves = sum(
        1
        for m in client.messages
        if m.get("event", {}).get("kind") == "move" and m["event"]["seat"] != 0
    )
    done = await metrics(app)
    assert done["tischrunde_moves_total"] == moves > 0
    # Every bot move was a decision of the pool (none is asked twice for one move here).
    count = done["tischrunde_bot_decision_seconds_count"]
    assert count >= bot_moves > 0
    assert done['tischrunde_bot_decision_seconds_bucket{le="+Inf"}'] == count
    assert done["tischrunde_bot_decision_seconds_sum"] > 0
    assert done["tischrunde_remote_bot_decisions_total"] == 0  # no remote workers here

    # Block the event loop longer than two of the lag watcher's intervals: the gauge shows
    # it until the watcher's next measurement, so scrape until it is seen.
    time.sleep(1.2)

    async def lag_shown() -> None:
        while (await metrics(app))["tischrunde_event_loop_lag_seconds"] < 0.1:
            await asyncio.sleep(0)

    await asyncio.wait_for(lag_shown(), PATIENCE)

    await client.close()
    await until(lambda: app.metrics.connections == start["tischrunde_connections"])
    assert (await metrics(app))["tischrunde_connections"] == start["tischrunde_connections"]
