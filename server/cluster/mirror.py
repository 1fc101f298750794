"""What one server process knows of the others: their public tables, and its own name and URL.

Every process publishes its tables' lobby entries as retained MQTT messages, one topic per
table (`server/cluster/bus.py`); `LobbyMirror` subscribes to them all, so any process lists every
open table of the cluster. The mirror only hears: which tables are live and which process
serves each is decided by the leases in the database (`server/store/leases.py`), never by what
was heard here, so an entry left behind by a process that died unnoticed is never listed.
"""

import asyncio
import logging
import secrets
import socket

import aiomqtt
import msgspec

from server.cluster.bus import LOBBY_TOPIC
from server.cluster.mqtt import broker_address, stay_connected
from server.protocol import TableInfo
from server.settings import Settings
from server.tasks import cancel

__all__ = ["LobbyMirror", "node_name", "node_url"]

log = logging.getLogger(__name__)
ANY_ADDRESS = ("", "0.0.0.0", "::")


def node_name(settings: Settings, port: int) -> str:
    """This process's name: the `node` setting (`{host}` and `{port}` filled in), or
    `{hostname}-{port}` (stable across a restart on the same port, so a restarted process
    takes its tables back at once)."""
    if settings.node:
        return settings.node.format(host=socket.gethostname(), port=port)
    if settings.port == 0:  # a test's throwaway server: the next one must not look the same
        return f"{socket.gethostname()}-{port}-{secrets.token_hex(3)}"
    return f"{socket.gethostname()}-{port}"


def node_url(settings: Settings, node: str, port: int) -> str:
    """Where clients reach this process: `node_url` with its placeholders filled, or the
    address it listens on."""
    hostname = socket.gethostname()
    if settings.node_url:
        return settings.node_url.format(node=node, host=hostname, port=port)
    host = hostname if settings.host in ANY_ADDRESS else settings.host
    return f"ws://{host}:{port}/ws"


class LobbyMirror:
    """The public tables every process of the cluster announced, by id (own ones included;
    the lobby prefers its own live copy)."""

    def __init__(self, url: str) -> None:
        self.host, self.port = broker_address(url)
        self.tables: dict[str, TableInfo] = {}
        self._task: asyncio.Task[None] | None = None

    def listing(self) -> list[TableInfo]:
        return list(self.tables.values())

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="lobby-mirror")

    async def close(self) -> None:
        await cancel(self._task)

    def receive(self, topic: str, payload: bytes) -> None:
        """Apply one retained lobby message: an entry, or its removal (empty payload)."""
        table_id = topic.rpartition("/")[2]
        if not payload:
            self.tables.pop(table_id, None)
            return
        try:
            info = msgspec.json.decode(payload, type=TableInfo)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.warning("lobby entry on %s ignored: %s", topic, error)
            return
        if info.status == "finished":
            self.tables.pop(table_id, None)
        else:
            self.tables[table_id] = info

    async def _run(self) -> None:
        await stay_connected(self.host, self.port, self._mirror, name="lobby mirror")

    async def _mirror(self, client: aiomqtt.Client) -> None:
        await client.subscribe(f"{LOBBY_TOPIC}/+", qos=1)
        self.tables.clear()  # the broker sends every retained entry again
        async for message in client.messages:
            payload = message.payload
            if isinstance(payload, bytes | bytearray):
                self.receive(str(message.topic), bytes(payload))
