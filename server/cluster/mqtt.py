"""Connections to the MQTT broker: its address, and one loop that keeps a session alive.

Four parts of the server talk to the broker (the event bus, the lobby mirror, the remote bot
client and the bot worker). Each runs a *session* on a connected client until the broker is
lost; `stay_connected` reconnects with exponential backoff (reset by every good connection),
so a broker that is away never stops the server and one that is back is used at once.

The broker URL may carry an account, `mqtt://user:password@host:1883`: the shipped broker lets
only the server's and the bot workers' accounts at the bot topics and lets anonymous clients
read the public topics only (deploy/mosquitto/acl). The password is never logged.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

import aiomqtt
from paho.mqtt.enums import MQTTProtocolVersion

__all__ = ["Broker", "broker_address", "stay_connected"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
BACKOFF_FIRST_SECONDS = 0.5
BACKOFF_MAX_SECONDS = 8.0

Session = Callable[[aiomqtt.Client], Awaitable[None]]


class Broker(NamedTuple):
    """Where the broker is and the account to log in with (None: anonymous)."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None


def broker_address(url: str) -> Broker:
    """The broker of a URL `mqtt://[user:password@]host:port` (user and password decoded)."""
    parts = urlsplit(url)
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    return Broker(parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORT, user, password)


async def stay_connected(
    broker: Broker,
    session: Session,
    *,
    name: str,
    lost: Callable[[], None] | None = None,
) -> None:
    """Run `session` on an MQTT 5 connection to `broker` until cancelled, connecting again
    whenever the broker is lost (or refuses the account); `lost` is called then (`name` is
    for the logs)."""
    backoff = BACKOFF_FIRST_SECONDS
    while True:
        connected = False
        try:
            async with aiomqtt.Client(
                broker.host,
                broker.port,
                username=broker.username,
                password=broker.password,
                protocol=MQTTProtocolVersion.MQTTv5,
            ) as client:
                connected = True
                backoff = BACKOFF_FIRST_SECONDS
                log.info(
                    "%s: connected to MQTT broker %s:%d as %s",
                    name,
                    broker.host,
                    broker.port,
                    broker.username or "anonymous",
                )
                await session(client)
        except aiomqtt.MqttError as error:
            if connected:
                log.warning("%s: MQTT broker lost (%s); reconnecting", name, error)
            elif isinstance(error, aiomqtt.MqttCodeError):  # it answered: the account is wrong
                log.warning("%s: MQTT broker refused us (%s); trying again", name, error)
            if lost is not None:
                lost()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_SECONDS)
