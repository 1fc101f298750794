"""A test client of the protocol (v1 unless told): requests with ids, replies matched, pushes
collected."""

import asyncio
import contextlib
import itertools
import json
import os
import random
import ssl as ssl_module
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

# One time unit for every server duration in the tests; CI can stretch it on a slow machine.
UNIT = float(os.environ.get("TISCHRUNDE_TEST_UNIT", "0.05"))
# How long a test waits for something that should happen (many units: never a timing claim).
PATIENCE = 400 * UNIT


class Client:
    """One WebSocket client; `messages` holds every pushed (non-reply) message in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.replies: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self.messages: list[dict[str, Any]] = []
        self.frames: list[str] = []
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())
        self.user: dict[str, Any] = {}
        self.token = ""

    @classmethod
    async def open(
        cls,
        port: int,
        *,
        hello: bool = True,
        token: str | None = None,
        url: str | None = None,
        ssl: ssl_module.SSLContext | None = None,
        version: int = 1,
    ) -> "Client":
        """Connect to the server on `port` (or at `url`, e.g. a TLS proxy with `ssl`) and say
        `hello` in protocol `version`."""
        tls = {} if ssl is None else {"ssl": ssl}
        ws = await connect(url or f"ws://127.0.0.1:{port}/ws", max_size=2**22, proxy=None, **tls)
        client = cls(ws)
        if hello:
            reply = await client.request("hello", version=version, token=token)
            client.user, client.token = reply["user"], reply["token"]
        return client

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            await self._read_frames()

    async def _read_frames(self) -> None:
        async for frame in self.ws:
            assert isinstance(frame, str)
            self.frames.append(frame)
            message = json.loads(frame)
            future = self.replies.pop(message.get("id"), None)
            if future is not None and not future.done():  # its requester may have given up
                future.set_result(message)
            # In v2 a move's event is its `act`'s answer and a push of the table alike.
            if future is None or message["type"] in ("event", "snapshot"):
                self.messages.append(message)
            self.arrived.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def request(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a request and return its reply (which may be an error)."""
        request_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[request_id] = future
        await self.send({"type": type_, "id": request_id, **fields})
        reply = await asyncio.wait_for(future, PATIENCE)
        if reply["type"] == "welcome":  # as a real client keeps the token `register` gives
            self.user, self.token = reply["user"], reply["token"]
        return reply

    async def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        reply = await self.request(type_, **fields)
        assert reply["type"] != "error", reply
        return reply

    async def wait_for(self, predicate: Any, start: int = 0) -> dict[str, Any]:
        """The first pushed message from index `start` on that satisfies `predicate`."""

        async def scan() -> dict[str, Any]:
            index = start
            while True:
                while index < len(self.messages):
                    if predicate(self.messages[index]):
                        return self.messages[index]
                    index += 1
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(scan(), PATIENCE)

    def last_seq(self, table: str) -> int:
        seqs = [m["seq"] for m in self.messages if table_of(m) == table and "seq" in m]
        return max(seqs, default=0)

    def latest_view(self, table: str) -> dict[str, Any] | None:
        for message in reversed(self.messages):
            if table_of(message) == table and message.get("view") is not None:
                view: dict[str, Any] = message["view"]
                return view
        return None

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def until(condition: Callable[[], bool]) -> None:
    """Wait until `condition()` holds (polled), at most PATIENCE."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(UNIT / 10)

    await asyncio.wait_for(poll(), PATIENCE)


def table_of(message: dict[str, Any]) -> Any:
    """The table id of a push (a snapshot carries the whole table info)."""
    table = message.get("table")
    return table.get("id") if isinstance(table, dict) else table


async def bot_table(host: "Client", *, private: bool = False) -> tuple[str, str | None]:
    """A Skat table of one deal: `host` on seat 0, random bots on the others (the deal begins
    at once); its id and invite."""
    created = await host.ok("create_table", game="skat", private=private, series_length=1)
    table, invite = created["table"]["id"], created.get("invite")
    await host.ok("join", table=table, invite=invite)
    await host.ok("add_bot", table=table, seat=1)
    await host.ok("add_bot", table=table, seat=2)
    return table, invite


def deals_ended(client: "Client", table: str) -> int:
    """How many deals of `table` `client` has seen end."""
    return sum(
        1
        for m in client.messages
        if m.get("table") == table
        and m["type"] == "event"
        and m["event"]["kind"] == "move"
        and m["view"]["phase"] == "over"
    )


async def play(clients: dict[int, "Client"], table: str, *, deals: int = 1) -> None:
    """The human clients (seat -> client) play random legal moves until they have seen
    `deals` deals end; bots play their own seats."""
    rng = random.Random(7)

    async def run() -> None:
        while max(deals_ended(c, table) for c in clients.values()) < deals:
            acted = False
            for seat, client in clients.items():
                view = client.latest_view(table)
                if view is None or view["phase"] == "over" or view["to_move"] != seat:
                    continue
                moves = [a for a in view["legal"] if a["type"] not in ("resign", "kontra", "re")]
                if not moves:
                    continue
                seq = client.last_seq(table)
                reply = await client.request("act", table=table, seq=seq, action=rng.choice(moves))
                if reply["type"] == "error" and reply["code"] not in ("stale_seq", "not_your_turn"):
                    raise AssertionError(reply)
                acted = True
            if not acted:
                await asyncio.sleep(UNIT / 10)

    await asyncio.wait_for(run(), PATIENCE)
