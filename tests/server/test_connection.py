"""The outbox of one connection: pushes never block a table, arrive in order, cost no task while
the socket takes them (nor while idle), and a client that stops reading is closed with 1013
instead of holding memory."""

import asyncio
from typing import Any

from websockets.frames import CloseCode
from websockets.protocol import State

from server.edge.connection import Connection
from server.edge.guard import Guard
from server.metrics import Metrics
from server.settings import Settings


class FakeProtocol:
    """websockets' sans-I/O side: the text frames given to it, until `send_data` takes them."""

    def __init__(self) -> None:
        self.state = State.OPEN
        self.frames: list[bytes] = []

    def send_text(self, data: bytes) -> None:
        self.frames.append(data)


class FakeTransport:
    """The socket: `lagging` holds bytes it could not write yet."""

    def __init__(self, *, lagging: bool) -> None:
        self.lagging = lagging

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 1000 if self.lagging else 0


class FakeSocket:
    """The part of a server connection the outbox uses; `stuck`: the socket's buffer holds
    unsent bytes and `send` never completes."""

    def __init__(self, *, stuck: bool) -> None:
        self.stuck = stuck
        self.protocol = FakeProtocol()
        self.transport = FakeTransport(lagging=stuck)
        self.sent: list[bytes] = []
        self.closed_with: tuple[int, str] | None = None

    def send_data(self) -> None:
        self.sent.extend(self.protocol.frames)
        self.protocol.frames.clear()

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


async def test_pushed_messages_go_out_at_once_in_order_and_cost_no_task() -> None:
    ws = FakeSocket(stuck=False)
    client = connection(ws, outbox_size=8)
    assert client.writer is None
    for data in (b"a", b"b", b"c"):
        client.push(data)
    assert ws.sent == [b"a", b"b", b"c"]  # written before the table's code goes on
    assert client.writer is None and not client.outbox
    client.push(b"d")
    assert ws.sent == [b"a", b"b", b"c", b"d"]


async def test_a_lagging_socket_gets_the_outbox_in_order_then_direct_writes_again() -> None:
    ws = FakeSocket(stuck=False)
    ws.transport.lagging = True
    client = connection(ws, outbox_size=8)
    client.push(b"a")
    client.push(b"b")
    assert ws.sent == [] and client.outbox == [b"a", b"b"] and client.writer is not None
    ws.transport.lagging = False
    client.push(b"c")  # behind the outbox, not before it
    await asyncio.sleep(0.01)
    assert ws.sent == [b"a", b"b", b"c"]
    assert client.writer is None and not client.outbox
    client.push(b"d")
    assert ws.sent == [b"a", b"b", b"c", b"d"]


async def test_a_closing_connection_takes_no_more_frames() -> None:
    ws = FakeSocket(stuck=False)
    client = connection(ws, outbox_size=8)
    ws.protocol.state = State.CLOSING
    client.push(b"late")
    assert ws.sent == [] and not client.outbox and client.writer is None


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
