"""What players keep of each other (migration 0007): friends and requests, blocks, the lobby
chat's lines, reports, moderators and mutes.

A friendship is two rows of `friends`, one per direction; one row alone is a request. Only
accounts have friends and blocks (a guest's id may go when he is deleted); any user may chat
and report. Every function takes user ids the caller has resolved (`user_named`).
"""

import time
from datetime import UTC, datetime

import msgspec
from sqlalchemy import and_, delete, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql.elements import ColumnElement

from server.store.models import blocks, friends, lobby_chat, mutes, nodes, reports, roles, users
from server.store.users import StoredUser

__all__ = ["CHAT_LINES", "MODERATOR", "Relations", "SocialStore", "StoredLine"]

CHAT_LINES = 50  # lines of the lobby chat a newcomer gets (and the server reads at start)
MODERATOR = "moderator"


class Relations(msgspec.Struct, frozen=True):
    """One user's ties: his friends, the requests he sent and got, whom he blocked, and who
    blocked him (by user id and name)."""

    friends: dict[int, str]
    asked: dict[int, str]  # he asked them
    asking: dict[int, str]  # they asked him
    blocked: dict[int, str]
    blocked_by: frozenset[int]


class StoredLine(msgspec.Struct, frozen=True):
    """A line of the lobby chat as stored: `id` orders them."""

    id: int
    user_id: int
    name: str
    text: str
    at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


class SocialStore:
    """The social tables of one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def user_named(self, name: str) -> StoredUser | None:
        """The user (guest or account, never a bot) called `name`."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(users.c.id, users.c.name, users.c.kind).where(
                        users.c.name == name, users.c.kind != "bot"
                    )
                )
            ).first()
        return None if row is None else StoredUser(row.id, row.name, row.kind)

    async def relations(self, user_id: int) -> Relations:
        async with self.engine.connect() as conn:
            out = (
                await conn.execute(
                    select(friends.c.friend_id, users.c.name)
                    .join(users, users.c.id == friends.c.friend_id)
                    .where(friends.c.user_id == user_id)
                )
            ).all()
            into = (
                await conn.execute(
                    select(friends.c.user_id, users.c.name)
                    .join(users, users.c.id == friends.c.user_id)
                    .where(friends.c.friend_id == user_id)
                )
            ).all()
            blocked = (
                await conn.execute(
                    select(blocks.c.blocked_id, users.c.name)
                    .join(users, users.c.id == blocks.c.blocked_id)
                    .where(blocks.c.user_id == user_id)
                )
            ).all()
            blocked_by = (
                await conn.execute(select(blocks.c.user_id).where(blocks.c.blocked_id == user_id))
            ).all()
        outgoing = {row[0]: row[1] for row in out}
        incoming = {row[0]: row[1] for row in into}
        mutual = {i: n for i, n in outgoing.items() if i in incoming}
        return Relations(
            friends=mutual,
            asked={i: n for i, n in outgoing.items() if i not in mutual},
            asking={i: n for i, n in incoming.items() if i not in mutual},
            blocked={row[0]: row[1] for row in blocked},
            blocked_by=frozenset(row[0] for row in blocked_by),
        )

    async def ask(self, user_id: int, friend_id: int) -> bool:
        """`user_id` asks `friend_id` (or accepts his request); True if they are friends now."""
        async with self.engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(friends).values(user_id=user_id, friend_id=friend_id, at=_now())
                    )
            except IntegrityError:
                pass  # asked before: the same request again
            back = await conn.scalar(
                select(friends.c.user_id).where(
                    friends.c.user_id == friend_id, friends.c.friend_id == user_id
                )
            )
        return back is not None

    async def refuse(self, user_id: int, asker_id: int) -> bool:
        """`user_id` refuses the request of `asker_id`; False if there was none."""
        async with self.engine.begin() as conn:
            mine = await conn.scalar(
                select(friends.c.user_id).where(
                    friends.c.user_id == user_id, friends.c.friend_id == asker_id
                )
            )
            if mine is not None:
                return False  # friends (or asked him too): that is `remove`
            gone = await conn.execute(
                delete(friends).where(friends.c.user_id == asker_id, friends.c.friend_id == user_id)
            )
        return bool(gone.rowcount)

    async def remove(self, user_id: int, other_id: int) -> bool:
        """End the friendship (or withdraw the request) between the two; False if none."""
        async with self.engine.begin() as conn:
            gone = await conn.execute(delete(friends).where(_pair(user_id, other_id)))
        return bool(gone.rowcount)

    async def block(self, user_id: int, blocked_id: int) -> None:
        """`user_id` blocks `blocked_id`: any friendship or request between them ends."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(friends).where(_pair(user_id, blocked_id)))
            exists = await conn.scalar(
                select(blocks.c.user_id).where(
                    blocks.c.user_id == user_id, blocks.c.blocked_id == blocked_id
                )
            )
            if exists is None:
                await conn.execute(
                    insert(blocks).values(user_id=user_id, blocked_id=blocked_id, at=_now())
                )

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        async with self.engine.begin() as conn:
            gone = await conn.execute(
                delete(blocks).where(blocks.c.user_id == user_id, blocks.c.blocked_id == blocked_id)
            )
        return bool(gone.rowcount)

    async def is_blocked(self, user_id: int, by: int) -> bool:
        """Whether `by` blocked `user_id`."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(blocks.c.user_id).where(
                    blocks.c.user_id == by, blocks.c.blocked_id == user_id
                )
            )
        return found is not None

    async def live_nodes(self, lease_seconds: float) -> set[str]:
        """The server processes that renewed their lease within `lease_seconds`."""
        since = time.time() - lease_seconds
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(nodes.c.id).where(nodes.c.seen_at > since))).all()
        return {row[0] for row in rows}

    async def say(self, user_id: int, name: str, text: str) -> StoredLine:
        """Store a line of the lobby chat."""
        at = _now()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(lobby_chat).values(user_id=user_id, name=name, text=text, at=at)
            )
        return StoredLine(int(result.inserted_primary_key[0]), user_id, name, text, at)

    async def recent_lines(self, limit: int = CHAT_LINES) -> list[StoredLine]:
        """The last `limit` lines of the lobby chat, oldest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        lobby_chat.c.id,
                        lobby_chat.c.user_id,
                        lobby_chat.c.name,
                        lobby_chat.c.text,
                        lobby_chat.c.at,
                    )
                    .order_by(lobby_chat.c.id.desc())
                    .limit(limit)
                )
            ).all()
        return [StoredLine(r.id, r.user_id, r.name, r.text, r.at) for r in reversed(rows)]

    async def report(self, reporter_id: int, reported_id: int, reason: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(reports).values(
                    reporter_id=reporter_id, reported_id=reported_id, reason=reason, at=_now()
                )
            )

    async def reports(self) -> list[tuple[str, str, str, datetime]]:
        """Every report, oldest first: (reporter, reported, reason, when)."""
        reporter = users.alias("reporter")
        reported = users.alias("reported")
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(reporter.c.name, reported.c.name, reports.c.reason, reports.c.at)
                    .join(reporter, reporter.c.id == reports.c.reporter_id)
                    .join(reported, reported.c.id == reports.c.reported_id)
                    .order_by(reports.c.id)
                )
            ).all()
        return list(rows)

    async def role(self, user_id: int) -> str | None:
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(roles.c.role).where(roles.c.user_id == user_id))
        return None if found is None else str(found)

    async def set_role(self, user_id: int, role: str | None) -> None:
        """Give `user_id` the `role` (None: take his role away)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(roles).where(roles.c.user_id == user_id))
            if role is not None:
                await conn.execute(insert(roles).values(user_id=user_id, role=role))

    async def mute(self, user_id: int, until: datetime, by: int | None) -> None:
        """`user_id` may not chat in the lobby until `until` (a moderator's `by`)."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(mutes).where(mutes.c.user_id == user_id))
            await conn.execute(insert(mutes).values(user_id=user_id, until=until, by_id=by))

    async def muted_until(self, user_id: int) -> datetime | None:
        """Until when `user_id` is muted, if he is now."""
        async with self.engine.connect() as conn:
            until = await conn.scalar(select(mutes.c.until).where(mutes.c.user_id == user_id))
        return until if until is not None and until > _now() else None


def _pair(a: int, b: int) -> ColumnElement[bool]:
    """Both rows of `friends` between `a` and `b`."""
    return or_(
        and_(friends.c.user_id == a, friends.c.friend_id == b),
        and_(friends.c.user_id == b, friends.c.friend_id == a),
    )
