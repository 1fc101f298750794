"""The protocol's messages for players finding each other: presence, friends, invitations,
blocks, the lobby chat, reports and mutes (docs/protocol.md, "People").

`server/protocol/__init__.py` joins them to `Request` and `Reply`.
"""

from typing import Annotated, Literal

import msgspec

from server.protocol.fields import (
    TEXT_PATTERN,
    ChatText,
    PlayerName,
    TableId,
)
from server.protocol.replies import TableInfo, _Reply
from server.protocol.requests import _Request

__all__ = [
    "MAX_MUTE_MINUTES",
    "SOCIAL_REQUESTS",
    "Block",
    "Friend",
    "FriendAccept",
    "FriendRefuse",
    "FriendRemove",
    "FriendRequest",
    "Friends",
    "Invitation",
    "Invite",
    "LobbyChat",
    "LobbyLine",
    "LobbySaid",
    "Mute",
    "People",
    "Person",
    "Place",
    "Presence",
    "Report",
    "SocialReply",
    "SocialRequest",
    "Unblock",
    "WatchPeople",
]

MAX_MUTE_MINUTES = 60 * 24 * 365
Place = Literal["lobby", "playing", "watching", "private", "offline"]


# --- requests -------------------------------------------------------------------------


class WatchPeople(_Request, tag="watch_people"):
    """Who is online, one's friends and the lobby chat now (a `people` reply), then a
    `presence`, `friends`, `invitation` or `lobby_said` push whenever one changes, until the
    connection closes."""


class FriendRequest(_Request, tag="friend_request"):
    """Ask the account `name` to be friends (accepts his request if he asked first).
    Accounts only: a guest registers first."""

    name: PlayerName


class FriendAccept(_Request, tag="friend_accept"):
    """Accept the friend request of `name`."""

    name: PlayerName


class FriendRefuse(_Request, tag="friend_refuse"):
    """Refuse the friend request of `name`."""

    name: PlayerName


class FriendRemove(_Request, tag="friend_remove"):
    """End the friendship with `name`, or withdraw one's request to him."""

    name: PlayerName


class Block(_Request, tag="block"):
    """Block `name`: he no longer sees one's presence, and his requests, invitations and
    lobby chat no longer reach one. Ends any friendship with him."""

    name: PlayerName


class Unblock(_Request, tag="unblock"):
    """Take back a block."""

    name: PlayerName


class Invite(_Request, tag="invite"):
    """Invite the friend `name` to the table `table` one sits at (private tables too): he
    gets an `invitation` he can `join` with."""

    name: PlayerName
    table: TableId


class LobbyChat(_Request, tag="lobby_chat"):
    """Say something in the lobby (the rules of a table's `chat`)."""

    text: ChatText


class Report(_Request, tag="report"):
    """Tell the moderators about the player `name` (stored for them to read)."""

    name: PlayerName
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=TEXT_PATTERN)]


class Mute(_Request, tag="mute"):
    """Moderators only: `name` may not chat in the lobby for `minutes` (0: lift it)."""

    name: PlayerName
    minutes: Annotated[int, msgspec.Meta(ge=0, le=MAX_MUTE_MINUTES)]


SOCIAL_REQUESTS = (
    WatchPeople,
    FriendRequest,
    FriendAccept,
    FriendRefuse,
    FriendRemove,
    Block,
    Unblock,
    Invite,
    LobbyChat,
    Report,
    Mute,
)
SocialRequest = (
    WatchPeople
    | FriendRequest
    | FriendAccept
    | FriendRefuse
    | FriendRemove
    | Block
    | Unblock
    | Invite
    | LobbyChat
    | Report
    | Mute
)


# --- replies and pushes ---------------------------------------------------------------


class Person(msgspec.Struct, frozen=True, omit_defaults=True):
    """Somebody online and where: in the `lobby`, `playing` or `watching` at the public table
    `table`, at a `private` table (which one is never said), or `offline` (he left)."""

    id: int
    name: str
    guest: bool
    place: Place
    table: str | None = None


class Friend(msgspec.Struct, frozen=True, omit_defaults=True):
    """A tie to another account: `friend`, `asked` (one's request waits), `asking` (his
    request waits for one's answer) or `blocked` (by one). `place` for friends only: where he
    is now (`offline` when he is not connected)."""

    name: str
    status: Literal["friend", "asked", "asking", "blocked"]
    place: Place | None = None
    table: str | None = None


class LobbyLine(msgspec.Struct, frozen=True):
    """A line of the lobby chat: `at` in ISO 8601."""

    id: int
    name: str
    text: str
    at: str


class People(_Reply, tag="people"):
    """Reply to `watch_people`: who is online (never somebody who blocked the asker), one's
    friends and requests, and the lobby chat's last lines, oldest first."""

    online: list[Person]
    friends: list[Friend]
    chat: list[LobbyLine]


class Presence(_Reply, tag="presence"):
    """Pushed to `watch_people` watchers: who came, moved or left (`offline`) since the last
    `presence`, each once and where he is now (the changes of a short while go together)."""

    people: list[Person]


class Friends(_Reply, tag="friends"):
    """Pushed when one's friends or requests change: the whole list again."""

    friends: list[Friend]


class Invitation(_Reply, tag="invitation"):
    """Pushed when a friend invites one to a table: `join` it with `invite` (None for a
    public table)."""

    by: str
    table: TableInfo
    invite: str | None = None


class LobbySaid(_Reply, tag="lobby_said"):
    """Pushed to `watch_people` watchers: a new line of the lobby chat."""

    line: LobbyLine


SocialReply = People | Presence | Friends | Invitation | LobbySaid
