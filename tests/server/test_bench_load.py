"""bench.load's clients against a real server: they parse every frame a seated player gets
(snapshots carry the table as an object, events its id) and play moves that are answered.
A reader that cannot parse a frame stops quietly inside a load run, which then reports no
moves; this test is where that shows."""

import asyncio
import random
import time
from pathlib import Path

from websockets.asyncio.client import connect

from bench.load import PROTOCOL_VERSION, SEATS, Player
from bench.serving import request
from server.app import running
from tests.server.conftest import server_settings


async def test_bench_players_parse_every_frame_and_get_their_moves_answered(
    tmp_path: Path,
) -> None:
    settings = server_settings(tmp_path, rate_per_second=1e9, rate_burst=1e9)
    async with running(settings) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        sockets = [await connect(url) for _ in range(SEATS)]
        for ws in sockets:
            await request(ws, {"type": "hello", "id": 1, "version": PROTOCOL_VERSION})
        created = await request(sockets[0], {"type": "create_table", "id": 2, "game": "skat"})
        table = created["table"]["id"]
        players = []
        for seat, ws in enumerate(sockets):
            players.append(Player(ws, seat, table, random.Random(seat)))
            await request(ws, {"type": "join", "id": 3, "table": table, "seat": seat})
        readers = [asyncio.create_task(p.read()) for p in players]
        for p in players:
            p.measuring = True
        await asyncio.gather(*(p.play(time.monotonic() + 4.0) for p in players))
        failed = [task for task in readers if task.done()]
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    assert not failed, [task.exception() for task in failed]
    assert [p.errors for p in players] == [[], [], []]
    answered = sum(len(p.latencies) for p in players)
    assert answered >= 3, answered  # about 1.5 moves a second at the table's pace
