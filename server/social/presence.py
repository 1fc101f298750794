"""Who is online and where, pushed to the clients that watch (`watch_people`).

This process knows its own connections (`connect`, `disconnect`) and the tables they sit or
watch at (`at_table`, told by each table's actor after a command that may change who is
there); the other processes' users it hears from the broker (`heard`, server/social/relay.py).
A user connected to several processes has one place, the best (`places.best`).

Changes are pushed in batches: those within `PUSH_DELAY` of the first go out together as one
`presence` frame listing each changed user once, in his latest place, so that a thousand
users leaving at once (a process dying) costs each watcher one frame, not a thousand. The
frame is encoded once for every watcher who may see all of it; a watcher is never told
anything of somebody who blocked him (`hidden`): he gets the batch without him (encoded once
per such set). Every change also schedules this process's list for the broker (`on_local`),
at most one per `PUBLISH_DELAY`.
"""

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from server.protocol import encode
from server.protocol.social import Person
from server.protocol.social import Presence as PresencePush
from server.social.places import Seat, best, place_of

__all__ = ["Presence", "Push"]

Push = Callable[[bytes], None]  # queues an encoded message for one client
PUBLISH_DELAY = 0.05  # seconds: changes within it go to the broker as one list
PUSH_DELAY = 0.05  # seconds: changes within it go to the watchers as one frame (docs/benchmarks.md)


@dataclass(slots=True)
class _Local:
    """A user connected to this process: his connections and the tables they are at. One per
    user online, so it is kept small: slots, and a list of his few connections."""

    name: str
    guest: bool
    clients: list[int] = field(default_factory=list)
    tables: dict[str, Seat] = field(default_factory=dict)


@dataclass
class _Watcher:
    """A client that watches presence: `hidden` blocked him, he blocked `ignored`."""

    user_id: int
    push: Push
    hidden: set[int]
    ignored: set[int]


class Presence:
    """The users online in the cluster as this process knows them."""

    def __init__(self, on_local: Callable[[list[Person]], None] | None = None) -> None:
        self.local: dict[int, _Local] = {}
        self.clients: dict[int, tuple[int, Push]] = {}  # client -> (user, push)
        self.remote: dict[str, dict[int, Person]] = {}  # node -> its users
        self.watchers: dict[int, _Watcher] = {}
        self.told: dict[int, Person] = {}  # the last place pushed, by user
        self.at: dict[str, set[int]] = {}  # table -> users there (this process's tables)
        self.on_local = on_local
        self.pending: dict[int, Person] = {}  # what the next push tells, by user
        self._publishing: asyncio.TimerHandle | None = None
        self._pushing: asyncio.TimerHandle | None = None

    # --- what this process sees ------------------------------------------------------

    def connect(self, client: int, user_id: int, name: str, guest: bool, push: Push) -> None:
        """A client said hello (or logged in, or renamed itself) as `user_id`. A client that
        becomes another user stops watching (what it may see was the other user's)."""
        known = self.clients.get(client)
        if known is not None and known[0] != user_id:
            self.disconnect(client)
        self.clients[client] = (user_id, push)
        local = self.local.get(user_id)
        if local is None:
            local = self.local[user_id] = _Local(name, guest)
        local.name, local.guest = name, guest
        if client not in local.clients:
            local.clients.append(client)
        self._changed(user_id)

    def disconnect(self, client: int) -> None:
        """The client closed (or became another user)."""
        self.watchers.pop(client, None)
        known = self.clients.pop(client, None)
        if known is None:
            return
        user_id = known[0]
        local = self.local.get(user_id)
        if local is not None:
            if client in local.clients:
                local.clients.remove(client)
            if not local.clients:
                del self.local[user_id]
                for table_id in local.tables:
                    self.at.get(table_id, set()).discard(user_id)
        self._changed(user_id)

    def at_table(self, table_id: str, private: bool, people: Mapping[int, bool]) -> None:
        """Who is at the table now: user id -> seated (a player) or not (a spectator)."""
        before = self.at.get(table_id, set())
        now = {user_id for user_id in people if user_id in self.local}
        for user_id in now:
            tables, seat = self.local[user_id].tables, Seat(people[user_id], private)
            if tables.get(table_id) != seat:  # taken (again) now: it goes last (`place_of`)
                tables.pop(table_id, None)
                tables[table_id] = seat
        for user_id in before - now:
            local = self.local.get(user_id)
            if local is not None:
                local.tables.pop(table_id, None)
        if now:
            self.at[table_id] = now
        else:
            self.at.pop(table_id, None)
        for user_id in before | now:
            self._changed(user_id)

    def users_of(self, user_id: int) -> list[Push]:
        """The pushes of the user's connections to this process."""
        local = self.local.get(user_id)
        if local is None:
            return []
        return [self.clients[c][1] for c in local.clients if c in self.clients]

    def local_people(self) -> list[Person]:
        """This process's users and their places (what it tells the other processes)."""
        return [self._local_person(user_id, local) for user_id, local in self.local.items()]

    # --- what the other processes see ------------------------------------------------

    def heard(self, node: str, people: Iterable[Person]) -> None:
        """The list of process `node` (empty: it stopped)."""
        before = self.remote.pop(node, {})
        now = {person.id: person for person in people}
        if now:
            self.remote[node] = now
        for user_id in set(before) | set(now):
            if before.get(user_id) != now.get(user_id):
                self._changed(user_id, ours=False)

    def nodes(self) -> set[str]:
        return set(self.remote)

    # --- watchers ------------------------------------------------------------------------

    def watch(
        self, client: int, user_id: int, push: Push, hidden: set[int], ignored: set[int]
    ) -> list[Person]:
        """`client` watches from now on; returns who is online for him now."""
        self.watchers[client] = _Watcher(user_id, push, hidden, ignored)
        return [p for p in self.online() if p.id not in hidden]

    def watcher_blocked(self, user_id: int, by: int, blocked: bool) -> None:
        """`by` blocked `user_id` (or took it back): his watchers stop (or start) seeing `by`;
        `by`'s own watchers stop (or start) hearing him."""
        person = self.person(by)
        for watcher in self.watchers.values():
            if watcher.user_id == user_id:
                if blocked:
                    watcher.hidden.add(by)
                    if person is not None:
                        watcher.push(encode(PresencePush(people=[_offline(person)])))
                else:
                    watcher.hidden.discard(by)
                    if person is not None:
                        watcher.push(encode(PresencePush(people=[person])))
            elif watcher.user_id == by:
                if blocked:
                    watcher.ignored.add(user_id)
                else:
                    watcher.ignored.discard(user_id)

    def person(self, user_id: int) -> Person | None:
        """Where `user_id` is (None: offline)."""
        candidates = [people[user_id] for people in self.remote.values() if user_id in people]
        local = self.local.get(user_id)
        if local is not None:
            candidates.append(self._local_person(user_id, local))
        return best(candidates)

    def online(self) -> list[Person]:
        ids = set(self.local)
        for people in self.remote.values():
            ids.update(people)
        found = (self.person(user_id) for user_id in sorted(ids))
        return [person for person in found if person is not None]

    # --- telling -------------------------------------------------------------------------

    def _local_person(self, user_id: int, local: _Local) -> Person:
        place, table = place_of(local.tables)
        return Person(user_id, local.name, local.guest, place, table)

    def _changed(self, user_id: int, *, ours: bool = True) -> None:
        """Tell the watchers the user's place with the next push if it changed; `ours`: it
        changed on this process."""
        person = self.person(user_id)
        before = self.told.get(user_id)
        if person == before:
            return
        if person is None and before is not None:
            del self.told[user_id]
            self.pending[user_id] = _offline(before)
        elif person is not None:
            self.told[user_id] = person
            self.pending[user_id] = person
        else:
            return
        if self._pushing is None:
            self._pushing = asyncio.get_running_loop().call_later(PUSH_DELAY, self._push)
        if ours:
            self._schedule_publish()

    def _push(self) -> None:
        """Push the changes since the last push to every watcher, as one frame each."""
        self._pushing = None
        changes, self.pending = self.pending, {}
        changed = set(changes)
        frames: dict[frozenset[int], bytes | None] = {}
        for watcher in self.watchers.values():
            unseen = frozenset(watcher.hidden & changed) if watcher.hidden else frozenset()
            if unseen not in frames:
                people = [p for user_id, p in changes.items() if user_id not in unseen]
                frames[unseen] = encode(PresencePush(people=people)) if people else None
            frame = frames[unseen]
            if frame is not None:
                watcher.push(frame)

    def _schedule_publish(self) -> None:
        if self.on_local is None or self._publishing is not None:
            return
        self._publishing = asyncio.get_running_loop().call_later(PUBLISH_DELAY, self._publish)

    def _publish(self) -> None:
        self._publishing = None
        if self.on_local is not None:
            self.on_local(self.local_people())


def _offline(person: Person) -> Person:
    return Person(person.id, person.name, person.guest, "offline")
