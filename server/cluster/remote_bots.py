"""Bot decisions on other machines: requests over MQTT 5, answered by `tischrunde bot-worker`.

The server publishes each decision request to `tischrunde/v1/bots/requests` with MQTT 5's
request/response properties (a response topic private to this process, and correlation
data naming the request). Workers share one subscription, `$share/bots/...`, so the broker
hands each request to exactly one of them and adding worker machines adds capacity. A worker
decides in its own process pool and publishes the decision to the response topic.

`RemoteBots.decide` has the pool's signature and falls back to the local pool when no worker
answers within `remote_seconds` (or the broker is away), so a table never waits on a machine
that is gone. Only observations and actions cross the broker, but an observation holds its
seat's hidden hand: the broker's ACL lets only the server and bot-worker accounts at these
topics (deploy/mosquitto/acl, docs/deploy.md).
"""

import asyncio
import itertools
import logging
import secrets
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

import aiomqtt
import msgspec
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from bots.policy import Decision
from bots.pool import BotPool
from server.cluster.bus import TOPIC_PREFIX
from server.cluster.mqtt import broker_address, stay_connected
from server.games import GameKind, all_games
from server.plain import JSON
from server.tasks import cancel

__all__ = ["REQUEST_TOPIC", "SHARED_SUBSCRIPTION", "RemoteBots", "serve_requests"]

log = logging.getLogger(__name__)

REQUEST_TOPIC = f"{TOPIC_PREFIX}/bots/requests"
SHARED_SUBSCRIPTION = f"$share/bots/{REQUEST_TOPIC}"
REPLY_PREFIX = f"{TOPIC_PREFIX}/bots/replies"


class BotRequest(msgspec.Struct, frozen=True):
    """One decision to make: which bot, for what it may see, with which seed, by when."""

    game: str
    policy: str
    observation: msgspec.Raw
    seed: int
    deadline: float


class BotReply(msgspec.Struct, frozen=True):
    """The decision: the action as the game's JSON (null: no interrupt) and diagnostics."""

    action: msgspec.Raw
    diagnostics: dict[str, Any]
    worker: str


def _plain(value: object) -> JSON:
    item = getattr(value, "item", None)  # numpy scalars in diagnostics
    if callable(item):
        plain: JSON = item()
        return plain
    raise TypeError(f"cannot encode {type(value).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_plain)


class RemoteBots:
    """`decide` through remote workers, with the local `pool` as the fallback."""

    def __init__(
        self, url: str, local: BotPool, games: Mapping[str, GameKind], remote_seconds: float
    ) -> None:
        self.broker = broker_address(url)
        self.local = local
        self.games = games
        self.remote_seconds = remote_seconds
        self.reply_topic = f"{REPLY_PREFIX}/{secrets.token_hex(8)}"
        self.local_decisions = 0
        self.by_worker: Counter[str] = Counter()
        self._client: aiomqtt.Client | None = None
        self._waiting: dict[bytes, asyncio.Future[BotReply]] = {}
        self._ids = itertools.count()
        self._task: asyncio.Task[None] | None = None

    @property
    def size(self) -> int:
        return self.local.size

    async def start(self) -> None:
        await self.local.start()
        self._task = asyncio.create_task(self._listen(), name="remote-bots")

    async def close(self) -> None:
        await cancel(self._task)
        await self.local.close()

    async def decide(
        self, game: str, policy_name: str, observation: msgspec.Struct, seed: int, deadline: float
    ) -> Decision[msgspec.Struct | None]:
        """A remote worker's decision, or the local pool's when none answers in time."""
        started = time.perf_counter()
        reply = await self._ask_remote(game, policy_name, observation, seed, deadline)
        if reply is not None:
            self.by_worker[reply.worker] += 1
            raw = bytes(reply.action)
            action = None if raw == b"null" else self.games[game].decode_action(raw)
            return Decision(action, reply.diagnostics)
        self.local_decisions += 1
        left = max(deadline - (time.perf_counter() - started), 0.0)
        return await self.local.decide(game, policy_name, observation, seed, left)

    async def _ask_remote(
        self, game: str, policy_name: str, observation: msgspec.Struct, seed: int, deadline: float
    ) -> BotReply | None:
        client = self._client
        if client is None:
            return None
        correlation = str(next(self._ids)).encode()
        answer: asyncio.Future[BotReply] = asyncio.get_running_loop().create_future()
        self._waiting[correlation] = answer
        properties = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
        properties.ResponseTopic = self.reply_topic
        properties.CorrelationData = correlation
        request = BotRequest(
            game, policy_name, msgspec.Raw(_encoder.encode(observation)), seed, deadline
        )
        try:
            async with asyncio.timeout(min(self.remote_seconds, deadline)):
                await client.publish(
                    REQUEST_TOPIC, _encoder.encode(request), qos=1, properties=properties
                )
                return await answer
        except (TimeoutError, aiomqtt.MqttError):
            return None
        finally:
            self._waiting.pop(correlation, None)

    async def _listen(self) -> None:
        await stay_connected(self.broker, self._replies, name="remote bots", lost=self._lost)

    async def _replies(self, client: aiomqtt.Client) -> None:
        await client.subscribe(self.reply_topic, qos=1)
        self._client = client
        async for message in client.messages:
            self._answer(message)

    def _lost(self) -> None:
        """Until the broker is back, every decision is taken locally."""
        self._client = None

    def _answer(self, message: aiomqtt.Message) -> None:
        correlation = getattr(message.properties, "CorrelationData", None)
        waiting = self._waiting.get(bytes(correlation or b""))
        if waiting is None or waiting.done():
            return  # late: the local pool answered already
        try:
            waiting.set_result(msgspec.json.decode(message.payload, type=BotReply))  # type: ignore[arg-type]
        except msgspec.DecodeError as error:
            log.warning("remote bots: unreadable reply dropped (%s)", error)


async def serve_requests(url: str, pool: BotPool, name: str) -> None:
    """The worker side: answer requests from the shared subscription until cancelled."""
    broker = broker_address(url)
    games = all_games()
    running: set[asyncio.Task[None]] = set()

    async def take_requests(client: aiomqtt.Client) -> None:
        await client.subscribe(SHARED_SUBSCRIPTION, qos=1)
        log.info("bot worker %s taking requests from %s:%d", name, broker.host, broker.port)
        async for message in client.messages:
            task = asyncio.create_task(_answer_request(client, pool, games, message, name))
            running.add(task)
            task.add_done_callback(running.discard)

    await stay_connected(broker, take_requests, name=f"bot worker {name}")


async def _answer_request(
    client: aiomqtt.Client,
    pool: BotPool,
    games: Mapping[str, GameKind],
    message: aiomqtt.Message,
    name: str,
) -> None:
    properties = message.properties
    reply_topic = getattr(properties, "ResponseTopic", None)
    correlation = getattr(properties, "CorrelationData", None)
    try:
        request = msgspec.json.decode(message.payload, type=BotRequest)  # type: ignore[arg-type]
        observation_type = games[request.game].observation_type
        observation = msgspec.json.decode(bytes(request.observation), type=observation_type)
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError) as error:
        log.warning("bot worker: bad request dropped (%s)", error)
        return
    if not reply_topic:
        return
    decision = await pool.decide(
        request.game, request.policy, observation, request.seed, request.deadline
    )
    try:
        diagnostics = msgspec.json.decode(_encoder.encode(decision.diagnostics))
    except TypeError:  # not JSON-able: the decision matters, its explanation does not
        diagnostics = {}
    reply = BotReply(msgspec.Raw(_encoder.encode(decision.action)), diagnostics, name)
    answer = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
    answer.CorrelationData = correlation
    await client.publish(reply_topic, _encoder.encode(reply), qos=1, properties=answer)
