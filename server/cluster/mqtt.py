"""Connections to the MQTT broker: its address, and one loop that keeps a session alive.

Four parts of the server talk to the broker (the event bus, the lobby mirror, the remote bot
client and the bot worker). Each runs a *session* on a connected client until the broker is
lost; `stay_connected` reconnects with exponential backoff (reset by every good connection),
so a broker that is away never stops the server and one that is back is used at once.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

import aiomqtt
from paho.mqtt.enums import MQTTProtocolVersion

__all__ = ["broker_address", "stay_connected"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 8.0

Session = Callable[[aiomqtt.Client], Awaitable[None]]


def broker_address(url: str) -> tuple[str, int]:
    """Host and port of a broker URL `mqtt://host:port`."""
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORT


async def stay_connected(
    host: str,
    port: int,
    session: Session,
    *,
    name: str,
    lost: Callable[[], None] | None = None,
) -> None:
    """Run `session` on an MQTT 5 connection to `host:port` until cancelled, connecting
    again whenever the broker is lost; `lost` is called then (`name` is for the logs)."""
    backoff = BACKOFF_FIRST_SECONDS
    while True:
        connected = False
        try:
            async with aiomqtt.Client(host, port, protocol=MQTTProtocolVersion.MQTTv5) as client:
                connected = True
                backoff = BACKOFF_FIRST_SECONDS
                log.info("%s: connected to MQTT broker %s:%d", name, host, port)
                await session(client)
        except aiomqtt.MqttError as error:
            if connected:
                log.warning("%s: MQTT broker lost (%s); reconnecting", name, error)
            if lost is not None:
                lost()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_SECONDS)
