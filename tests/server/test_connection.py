"""The outbox of one connection: pushes never block a table, arrive in order, cost no task while
idle, and a client that stops reading is closed with 1013 instead of holding memory."""

import asyncio
from typing import Any

from websockets.frames import CloseCode

from server.edge.connection import Connection
from server.edge.guard import Guard
from server.metrics import Metrics
from server.settings import Settings


class FakeSocket:
    """The part of a server connection the outbox uses; `stuck` sends never complete."""

    def __init__(self, *, stuck: bool) -> None:
        self.stuck = stuck
        self.sent: list[bytes] = []
        self.closed_with: tuple[int, str] | None = None

    async def send(self, data: bytes, *, text: bool) -> None:
        assert text  # JSON, encoded once, goes out as text frames
        self.sent.append(data)
        if self.stuck:
            await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


def connection(ws: FakeSocket, outbox_size: int) -> Connection:
    lobby: Any = None  # the outbox needs neither lobby, store nor tournaments
    store: Any = None
    tournaments: Any = None
    socket: Any = ws
    settings = Settings(outbox_size=outbox_size)
    guard = Guard(settings)
    return Connection(1, socket, lobby, store, settings, Metrics(), tournaments, guard, "peer")


async def test_pushed_messages_go_out_in_order_and_an_idle_connection_keeps_no_task() -> None:
    ws = FakeSocket(stuck=False)
    client = connection(ws, outbox_size=8)
    assert client.writer is None
    for data in (b"a", b"b", b"c"):
        client.push(data)
    await asyncio.sleep(0.01)
    assert ws.sent == [b"a", b"b", b"c"]
    assert client.writer is None and not client.outbox
    client.push(b"d")
    await asyncio.sleep(0.01)
    assert ws.sent == [b"a", b"b", b"c", b"d"]


async def test_a_client_that_stops_reading_is_closed_with_1013() -> None:
    ws = FakeSocket(stuck=True)
    client = connection(ws, outbox_size=4)
    for index in range(4):
        client.push(b"m%d" % index)  # returns at once although nothing is sent
    await asyncio.sleep(0.01)
    assert ws.sent == [b"m0"] and ws.closed_with is None
    client.push(b"one too many")
    await asyncio.sleep(0.01)
    assert ws.closed_with == (CloseCode.TRY_AGAIN_LATER, "too slow")
    client.push(b"after closing")
    assert len(client.outbox) == 4
    assert client.writer is not None
    client.writer.cancel()
