"""What one server process knows of the others: their public tables.

Every process publishes its tables' lobby entries as retained MQTT messages, one topic per
table (`server/cluster/bus.py`); `LobbyMirror` subscribes to them all, so any process lists every
open table of the cluster. The mirror only hears: which tables are live and which process
serves each is decided by the leases in the database (`server/store/leases.py`), never by what
was heard here, so an entry left behind by a process that died unnoticed is never listed.
"""

import asyncio
import logging
from collections.abc import Callable

import aiomqtt
import msgspec

from server.cluster.bus import LOBBY_TOPIC
from server.cluster.mqtt import broker_address, stay_connected
from server.protocol import TableInfo
from server.tasks import cancel

__all__ = ["LobbyMirror"]

log = logging.getLogger(__name__)


class LobbyMirror:
    """The public tables every process of the cluster announced, by id (own ones included;
    the lobby prefers its own live copy)."""

    def __init__(self, url: str) -> None:
        self.broker = broker_address(url)
        self.tables: dict[str, TableInfo] = {}
        self._task: asyncio.Task[None] | None = None
        # Told of every entry heard (a removed one with status `finished`): the lobby
        # pushes the other processes' changes to its watchers (set by app.py).
        self.on_change: Callable[[TableInfo], None] | None = None

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
            known = self.tables.pop(table_id, None)
            if known is not None:
                self._changed(msgspec.structs.replace(known, status="finished"))
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
        self._changed(info)

    def _changed(self, info: TableInfo) -> None:
        if self.on_change is not None:
            self.on_change(info)

    async def _run(self) -> None:
        await stay_connected(self.broker, self._mirror, name="lobby mirror")

    async def _mirror(self, client: aiomqtt.Client) -> None:
        await client.subscribe(f"{LOBBY_TOPIC}/+", qos=1)
        self.tables.clear()  # the broker sends every retained entry again
        async for message in client.messages:
            payload = message.payload
            if isinstance(payload, bytes | bytearray):
                self.receive(str(message.topic), bytes(payload))
