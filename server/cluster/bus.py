"""MQTT publisher of public table events, lobby changes and results (docs/conventions.md section 9).

Everything published here went through `views.visible_event(event, None)` in the table core:
public information of public tables only (a private table's events and results never reach
the bus, `views.fan_out`). A table's lobby entry is *retained* on its own topic (and cleared
with an empty retained message when its list ends), so the broker holds the whole lobby: a
server process or a dashboard that subscribes gets every open table at once
(`server/cluster/mirror.py`). Publishing never blocks a table: messages go into a bounded queue
(the oldest are dropped when the broker is away for long) and one task sends them with MQTT 5,
reconnecting with exponential backoff, so the server keeps running while the broker is down.
"""

import asyncio
import logging
from collections import deque

import aiomqtt

from server.cluster.mqtt import broker_address, stay_connected
from server.protocol import encode_public
from server.tasks import cancel

__all__ = [
    "LOBBY_TOPIC",
    "PEOPLE_TOPIC",
    "SOCIAL_TOPIC",
    "TOPIC_PREFIX",
    "Bus",
    "NoBus",
    "topic_for",
]

log = logging.getLogger(__name__)

TOPIC_PREFIX = "tischrunde/v1"
LOBBY_TOPIC = f"{TOPIC_PREFIX}/lobby"
# Who is online (retained, one list per process) and the processes' social notices (tournament
# seats too): for the server account only (server/social/relay.py).
PEOPLE_TOPIC = f"{TOPIC_PREFIX}/people"
SOCIAL_TOPIC = f"{TOPIC_PREFIX}/social"
QUEUE_LIMIT = 10_000


def topic_for(channel: str, table_id: str) -> str:
    """The topic of a message: table events and lobby entries per table, standings per
    tournament (`table_id` is then the tournament's id), one topic for results."""
    if channel == "table":
        return f"{TOPIC_PREFIX}/tables/{table_id}/events"
    if channel == "tournament":
        return f"{TOPIC_PREFIX}/tournaments/{table_id}"
    if channel == "lobby":
        return f"{LOBBY_TOPIC}/{table_id}"
    if channel == "people":
        return f"{PEOPLE_TOPIC}/{table_id}"  # the process's name
    if channel == "social":
        return SOCIAL_TOPIC
    return f"{TOPIC_PREFIX}/results"


class NoBus:
    """The bus when no broker is configured: publishing does nothing."""

    def publish(self, channel: str, table_id: str, message: object) -> None:
        return None

    def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


class Bus:
    """Publishes to the broker at `url` (`mqtt://host:port`)."""

    def __init__(self, url: str) -> None:
        self.broker = broker_address(url)
        self._queue: deque[tuple[str, bytes, bool]] = deque(maxlen=QUEUE_LIMIT)
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.connected = False
        self.published = 0

    def publish(self, channel: str, table_id: str, message: object) -> None:
        """Queue a public message (never blocks)."""
        retain = channel in ("lobby", "people")
        ended = channel == "lobby" and getattr(message, "status", None) == "finished"
        payload = b"" if ended else encode_public(message)
        self._queue.append((topic_for(channel, table_id), payload, retain))
        self._ready.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="mqtt-bus")

    async def close(self) -> None:
        """Send what is queued if the broker is there (briefly), then stop."""
        if self._task is None:
            return
        if self.connected:
            for _ in range(100):
                if not self._queue:
                    break
                await asyncio.sleep(0.01)
        await cancel(self._task)

    async def _run(self) -> None:
        await stay_connected(self.broker, self._pump, name="event bus", lost=self._lost)

    def _lost(self) -> None:
        self.connected = False

    async def _pump(self, client: aiomqtt.Client) -> None:
        self.connected = True
        while True:
            while not self._queue:
                self._ready.clear()
                await self._ready.wait()
            topic, payload, retain = self._queue[0]
            await client.publish(topic, payload, qos=1, retain=retain)
            self._queue.popleft()  # only once the broker has it
            self.published += 1
