"""What one server process tells the others about people (server/social/relay.py carries
it on a topic only the server account may read, never the public)."""

from typing import Literal

import msgspec

from server.protocol.social import Invitation, LobbyLine
from server.protocol.tournaments import TournamentSeat

__all__ = ["Notice"]


class Notice(msgspec.Struct, frozen=True, omit_defaults=True):
    """From process `node`: user `to`'s friends changed (`friends`), he is invited
    (`invitation`), a line of the lobby chat (`said`, by `by`), `by` blocked `to`
    (`block`; `on` False: took it back), or a tournament's series seated him (`seat`)."""

    node: str
    kind: Literal["friends", "invitation", "said", "block", "seat"]
    to: int | None
    by: int | None = None
    on: bool = False
    invitation: Invitation | None = None
    line: LobbyLine | None = None
    seat: TournamentSeat | None = None
