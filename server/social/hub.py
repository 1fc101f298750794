"""The social requests of one server process: presence watching, friends, blocks,
invitations, the lobby chat, reports and mutes (docs/protocol.md, "People").

Every refusal is a `LobbyError` with a stable code, which the connection answers as an
`error` (nothing changed). Requests that reach out to other people (friend requests,
invitations, reports, lines of chat) take a token from the client's social bucket first:
a flood is refused with `rate_limited` and counted in /metrics
(`tischrunde_social_limited_total`). What other processes must hear (a friend's list
changed, an invitation, a line of chat, a block, a tournament seat) goes out as a `Notice`
through the relay (server/social/relay.py); `notice` applies the ones heard from the others.
"""

import logging
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from server.edge.limits import TokenBucket
from server.lobby import Lobby, LobbyError
from server.metrics import Metrics
from server.protocol import Ok, Reply, encode
from server.protocol.social import (
    Block,
    Friend,
    FriendAccept,
    FriendRefuse,
    FriendRemove,
    FriendRequest,
    Friends,
    Invitation,
    Invite,
    LobbyChat,
    LobbyLine,
    LobbySaid,
    Mute,
    People,
    Report,
    SocialRequest,
    Unblock,
    WatchPeople,
)
from server.protocol.tournaments import TournamentSeat
from server.settings import Settings
from server.social.notices import Notice
from server.social.presence import Presence, Push
from server.store.social import CHAT_LINES, MODERATOR, SocialStore, StoredLine
from server.store.users import StoredUser

__all__ = ["Social"]

log = logging.getLogger(__name__)


class Social:
    """Presence and the social requests of this process; `app.py` builds one."""

    def __init__(
        self,
        settings: Settings,
        store: SocialStore,
        lobby: Lobby,
        metrics: Metrics,
        presence: Presence,
        node: str,
    ) -> None:
        self.settings = settings
        self.store = store
        self.lobby = lobby
        self.metrics = metrics
        self.presence = presence
        self.node = node
        self.chat: deque[tuple[int, LobbyLine]] = deque(maxlen=CHAT_LINES)  # (user, line)
        self.buckets: dict[int, TokenBucket] = {}  # per client
        self.relay: Callable[[Notice], None] | None = None  # set by app.py with a broker

    async def start(self) -> None:
        """Read the lobby chat's last lines (kept across restarts)."""
        for stored in await self.store.recent_lines():
            self.chat.append((stored.user_id, _line(stored)))

    # --- connections -------------------------------------------------------------------

    def connected(self, client: int, user: StoredUser, push: Push) -> None:
        self.presence.connect(client, user.id, user.name, user.kind == "guest", push)

    def disconnected(self, client: int) -> None:
        self.presence.disconnect(client)
        self.buckets.pop(client, None)

    # --- requests ------------------------------------------------------------------------

    async def handle(
        self, client: int, user: StoredUser, push: Push, request: SocialRequest
    ) -> Reply:
        """Carry out one social request; raises LobbyError to refuse it."""
        if isinstance(request, WatchPeople):
            return await self._watch(client, user, push, request)
        if isinstance(request, FriendRequest | Invite | LobbyChat | Report):
            self._take(client)  # what reaches out to other people
        if isinstance(request, LobbyChat):
            await self._say(user, request.text)
        elif isinstance(request, Report):
            other = await self._other(user, request.name)
            await self.store.report(user.id, other.id, request.reason)
            log.info("player reported", extra={"reporter": user.id, "reported": other.id})
        elif isinstance(request, Mute):
            await self._mute(user, request)
        elif isinstance(request, Invite):
            await self._invite(user, request)
        else:
            await self._tie(user, request)
        return Ok(id=request.id)

    async def _watch(
        self, client: int, user: StoredUser, push: Push, request: WatchPeople
    ) -> Reply:
        relations = await self.store.relations(user.id)
        friends = await self._friends(user.id)
        # No await from here until the reply is queued: every push after it is newer.
        hidden = set(relations.blocked_by)
        ignored = set(relations.blocked)
        online = self.presence.watch(client, user.id, push, hidden, ignored)
        chat = [line for speaker, line in self.chat if speaker not in ignored]
        return People(id=request.id, online=online, friends=friends, chat=chat)

    def _take(self, client: int) -> None:
        bucket = self.buckets.get(client)
        if bucket is None:
            s = self.settings
            bucket = self.buckets[client] = TokenBucket(s.social_per_second, s.social_burst)
        if not bucket.take():
            self.metrics.social_limited_total += 1
            raise LobbyError("rate_limited", "too many requests to other players: slow down")

    async def _other(self, user: StoredUser, name: str) -> StoredUser:
        """The user called `name`, who is not `user`."""
        other = await self.store.user_named(name)
        if other is None:
            raise LobbyError("no_such_user", f"there is no player {name!r}")
        if other.id == user.id:
            raise LobbyError("yourself", "that is you")
        return other

    async def _account(self, user: StoredUser, name: str) -> StoredUser:
        """The account `name` for a friendship or a block, both of them accounts."""
        if user.kind != "account":
            raise LobbyError("register_first", "guests cannot have friends: register first")
        other = await self._other(user, name)
        if other.kind != "account":
            raise LobbyError(
                "not_registered", f"{other.name} is a guest: guests cannot have friends"
            )
        return other

    async def _tie(
        self,
        user: StoredUser,
        request: FriendRequest | FriendAccept | FriendRefuse | FriendRemove | Block | Unblock,
    ) -> None:
        other = await self._account(user, request.name)
        if isinstance(request, Block | Unblock):
            blocked = isinstance(request, Block)
            if blocked:
                await self.store.block(user.id, other.id)
            elif not await self.store.unblock(user.id, other.id):
                raise LobbyError("not_blocked", f"you have not blocked {other.name}")
            self.presence.watcher_blocked(other.id, user.id, blocked)
            self._tell(Notice(self.node, "block", other.id, by=user.id, on=blocked))
        elif isinstance(request, FriendRequest | FriendAccept):
            if await self.store.is_blocked(user.id, by=other.id):
                raise LobbyError("blocked", f"{other.name} does not take requests from you")
            if await self.store.is_blocked(other.id, by=user.id):
                raise LobbyError("blocked", f"you blocked {other.name}: unblock him first")
            if isinstance(request, FriendAccept):
                relations = await self.store.relations(user.id)
                if other.id not in relations.asking:
                    raise LobbyError("no_request", f"{other.name} has not asked you")
            await self.store.ask(user.id, other.id)
        elif isinstance(request, FriendRefuse):
            if not await self.store.refuse(user.id, other.id):
                raise LobbyError("no_request", f"{other.name} has not asked you")
        elif not await self.store.remove(user.id, other.id):
            raise LobbyError("not_friends", f"{other.name} is not your friend")
        await self._friends_changed(user.id)
        await self._friends_changed(other.id)

    async def _invite(self, user: StoredUser, request: Invite) -> None:
        other = await self._account(user, request.name)
        table = self.lobby.get(request.table)
        if user.id not in table.people():
            raise LobbyError("not_at_table", "join the table before you invite anybody")
        relations = await self.store.relations(user.id)
        if other.id not in relations.friends:
            raise LobbyError("not_friends", f"{other.name} is not your friend")
        info = table.info()
        if table.status != "waiting" or all(
            seat.name is not None or seat.bot is not None for seat in info.seats
        ):
            raise LobbyError("table_full", "that table has no free seat")
        invitation = Invitation(by=user.name, table=info, invite=table.config.invite)
        self._deliver(other.id, invitation)
        self._tell(Notice(self.node, "invitation", other.id, invitation=invitation))

    async def _say(self, user: StoredUser, text: str) -> None:
        until = await self.store.muted_until(user.id)
        if until is not None:
            raise LobbyError("muted", f"a moderator muted you until {until.isoformat()}")
        stored = await self.store.say(user.id, user.name, text)
        line = _line(stored)
        self._said(user.id, line)
        self._tell(Notice(self.node, "said", None, by=user.id, line=line))

    async def _mute(self, user: StoredUser, request: Mute) -> None:
        if await self.store.role(user.id) != MODERATOR:
            raise LobbyError("not_moderator", "only moderators may mute")
        other = await self._other(user, request.name)
        until = datetime.now(UTC) + timedelta(minutes=request.minutes)
        await self.store.mute(other.id, until, user.id)
        log.info(
            "player muted",
            extra={"moderator": user.id, "muted": other.id, "minutes": request.minutes},
        )

    # --- telling -------------------------------------------------------------------------

    async def _friends(self, user_id: int) -> list[Friend]:
        relations = await self.store.relations(user_id)
        found: list[Friend] = []
        for friend_id, name in sorted(relations.friends.items(), key=lambda item: item[1]):
            person = self.presence.person(friend_id)
            place = "offline" if person is None else person.place
            found.append(Friend(name, "friend", place, None if person is None else person.table))
        found += [Friend(n, "asked") for n in sorted(relations.asked.values())]
        found += [Friend(n, "asking") for n in sorted(relations.asking.values())]
        found += [Friend(n, "blocked") for n in sorted(relations.blocked.values())]
        return found

    async def _friends_changed(self, user_id: int, *, tell: bool = True) -> None:
        """Push the user's friends list again to his connections here (and, `tell`, to the
        other processes')."""
        pushes = self.presence.users_of(user_id)
        if pushes:
            text = encode(Friends(friends=await self._friends(user_id)))
            for push in pushes:
                push(text)
        if tell:
            self._tell(Notice(self.node, "friends", user_id))

    def push_seat(self, user_id: int, seat: TournamentSeat) -> None:
        """A people's tournament seated `user_id`: tell his connections here and on every
        other process (he may be connected to any)."""
        self._deliver(user_id, seat)
        self._tell(Notice(self.node, "seat", user_id, seat=seat))

    def _deliver(self, user_id: int, message: Reply) -> None:
        text = encode(message)
        for push in self.presence.users_of(user_id):
            push(text)

    def _said(self, speaker: int, line: LobbyLine) -> None:
        self.chat.append((speaker, line))
        text = encode(LobbySaid(line=line))
        for watcher in self.presence.watchers.values():
            if speaker not in watcher.ignored:
                watcher.push(text)

    def _tell(self, notice: Notice) -> None:
        if self.relay is not None:
            self.relay(notice)

    async def notice(self, notice: Notice) -> None:
        """A notice from another process."""
        if notice.node == self.node:
            return
        if notice.kind == "friends" and notice.to is not None:
            await self._friends_changed(notice.to, tell=False)
        elif notice.kind == "invitation" and notice.to is not None and notice.invitation:
            self._deliver(notice.to, notice.invitation)
        elif notice.kind == "said" and notice.line is not None and notice.by is not None:
            self._said(notice.by, notice.line)
        elif notice.kind == "block" and notice.to is not None and notice.by is not None:
            self.presence.watcher_blocked(notice.to, notice.by, notice.on)
        elif notice.kind == "seat" and notice.to is not None and notice.seat is not None:
            self._deliver(notice.to, notice.seat)


def _line(stored: StoredLine) -> LobbyLine:
    return LobbyLine(stored.id, stored.name, stored.text, stored.at.isoformat())
