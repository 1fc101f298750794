"""Skat actions: a tagged union, the same types on the wire and in the engine.

Cards are card texts (`"JC"`); the engine checks them on `apply`. Hand games are not a flag of
`Declare`: a declaration made without `PickUpSkat` is a hand game (docs/skat-rules.md section 4).
"""

from typing import Literal

import msgspec

from engine.skat.cards import GameType

__all__ = [
    "Abandon",
    "Action",
    "Bid",
    "Declare",
    "Discard",
    "Hold",
    "Kontra",
    "Pass",
    "PickUpSkat",
    "Play",
    "Re",
    "Resign",
]


class Bid(msgspec.Struct, frozen=True, tag="bid"):
    """Say a bid value (one of `rules.BID_VALUES`)."""

    value: int


class Hold(msgspec.Struct, frozen=True, tag="hold"):
    """Answer "yes": hold the value just bid."""


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    """Pass in the bidding."""


class PickUpSkat(msgspec.Struct, frozen=True, tag="pickup"):
    """The declarer takes the skat (no hand game)."""


class Discard(msgspec.Struct, frozen=True, tag="discard"):
    """The declarer lays away two cards after picking up the skat, the higher card first (in
    the order of `engine.skat.cards.format_cards`: JC JS JH JD, then AC ... 7D), so that every
    discard has exactly one spelling."""

    cards: tuple[str, str]


class Declare(msgspec.Struct, frozen=True, tag="declare"):
    """Announce the game. `schneider` and `schwarz` only in hand games; suit and grand ouvert
    only as hand and with both announcements; null has no announcements."""

    game: GameType
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False


class Play(msgspec.Struct, frozen=True, tag="play"):
    """Play a card to the trick."""

    card: str


class Kontra(msgspec.Struct, frozen=True, tag="kontra"):
    """A defender doubles (house rule)."""


class Re(msgspec.Struct, frozen=True, tag="re"):
    """The declarer redoubles after a Kontra (house rule)."""


class Resign(msgspec.Struct, frozen=True, tag="resign"):
    """Give up the game for one's party (ISkO 4.4)."""


class Abandon(msgspec.Struct, frozen=True, tag="abandon"):
    """The seat leaves the table or runs out of time (ISS `LE`/`TI`)."""

    reason: Literal["left", "timeout"] = "left"


Action = Bid | Hold | Pass | PickUpSkat | Discard | Declare | Play | Kontra | Re | Resign | Abandon
