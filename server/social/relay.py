"""Presence and social notices between the server processes of a cluster, over the broker.

Each process publishes its connected users and their places as one retained message on
`tischrunde/v1/people/{node}` (replaced at every change, emptied when it stops), and its
notices (server/social/notices.py: friends, invitations, the lobby chat, blocks,
tournament seats) on `tischrunde/v1/social`. Both topics are for the
`server` account only (deploy/mosquitto/acl): the public never reads who is online. A
process that dies leaves its list behind; `prune` drops the lists of processes whose lease
has lapsed (the `nodes` rows), as the lobby mirror trusts only live leases.
"""

import asyncio
import logging

import aiomqtt
import msgspec

from server.cluster.bus import PEOPLE_TOPIC, SOCIAL_TOPIC, Bus
from server.cluster.mqtt import broker_address, stay_connected
from server.protocol.social import Person
from server.social.hub import Social
from server.social.notices import Notice
from server.store.social import SocialStore
from server.tasks import cancel

__all__ = ["Relay"]

log = logging.getLogger(__name__)


class PeopleList(msgspec.Struct, frozen=True):
    """One process's users online, as published."""

    people: list[Person]


class Relay:
    """Publishes this process's people and notices through `bus`; hears the others'."""

    def __init__(self, url: str, bus: Bus, social: Social, lease_seconds: float) -> None:
        self.broker = broker_address(url)
        self.bus = bus
        self.social = social
        self.lease_seconds = lease_seconds
        self._tasks: list[asyncio.Task[None]] = []
        self._notices: set[asyncio.Task[None]] = set()
        social.relay = self.tell
        social.presence.on_local = self.publish_people

    def start(self, store: SocialStore) -> None:
        self._tasks.append(asyncio.create_task(self._run(), name="social-relay"))
        self._tasks.append(asyncio.create_task(self._prune_forever(store), name="social-prune"))

    async def close(self) -> None:
        """Empty this process's list (its users are offline), then stop hearing."""
        self.bus.publish("people", self.social.node, PeopleList([]))
        for task in [*self._tasks, *self._notices]:
            await cancel(task)

    def publish_people(self, people: list[Person]) -> None:
        self.bus.publish("people", self.social.node, PeopleList(people))

    def tell(self, notice: Notice) -> None:
        self.bus.publish("social", self.social.node, notice)

    def receive(self, topic: str, payload: bytes) -> None:
        """Apply one message from the broker."""
        try:
            if topic.startswith(PEOPLE_TOPIC + "/"):
                node = topic.rpartition("/")[2]
                if node != self.social.node:
                    people = msgspec.json.decode(payload, type=PeopleList).people if payload else []
                    self.social.presence.heard(node, people)
            elif topic == SOCIAL_TOPIC:
                notice = msgspec.json.decode(payload, type=Notice)
                task = asyncio.create_task(self.social.notice(notice))
                self._notices.add(task)
                task.add_done_callback(self._notices.discard)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.warning("social message on %s ignored: %s", topic, error)

    async def prune(self, store: SocialStore) -> None:
        """Forget the lists of processes whose lease lapsed."""
        live = await store.live_nodes(self.lease_seconds)
        for node in self.social.presence.nodes() - live:
            self.social.presence.heard(node, [])

    async def _prune_forever(self, store: SocialStore) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds)
            try:
                await self.prune(store)
            except Exception:
                log.warning("presence of lapsed processes not pruned", exc_info=True)

    async def _run(self) -> None:
        await stay_connected(self.broker, self._hear, name="social relay")

    async def _hear(self, client: aiomqtt.Client) -> None:
        await client.subscribe(f"{PEOPLE_TOPIC}/+", qos=1)
        await client.subscribe(SOCIAL_TOPIC, qos=1)
        async for message in client.messages:
            payload = message.payload
            if isinstance(payload, bytes | bytearray):
                self.receive(str(message.topic), bytes(payload))
