"""Skat actions: a tagged union, the same types on the wire and in the engine.

Cards are card texts (`"JC"`); the engine checks them on `apply`. Hand games are not a flag of
`Declare`: a declaration made without `PickUpSkat` is a hand game (docs/skat-rules.md section 4).
"""

from typing import Literal

import msgspec

from engine.skat.cards import GameType

__all__ = [
    "Abandon",
    "AcceptClaim",
    "Action",
    "Bid",
    "Claim",
    "Declare",
    "Discard",
    "Hold",
    "Kontra",
    "Pass",
    "PickUpSkat",
    "Play",
    "Re",
    "RefuseClaim",
    "Resign",
]


class _Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Common base: a field the action does not have is an error (a client's typo is refused,
    not ignored)."""


class Bid(_Action, frozen=True, tag="bid"):
    """Say a bid value (one of `rules.BID_VALUES`)."""

    value: int


class Hold(_Action, frozen=True, tag="hold"):
    """Answer "yes": hold the value just bid."""


class Pass(_Action, frozen=True, tag="pass"):
    """Pass in the bidding."""


class PickUpSkat(_Action, frozen=True, tag="pickup"):
    """The declarer takes the skat (no hand game)."""


class Discard(_Action, frozen=True, tag="discard"):
    """The declarer lays away two cards after picking up the skat, the higher card first (in
    the order of `engine.skat.cards.format_cards`: JC JS JH JD, then AC ... 7D), so that every
    discard has exactly one spelling."""

    cards: tuple[str, str]


class Declare(_Action, frozen=True, tag="declare"):
    """Announce the game. `schneider` and `schwarz` only in hand games; suit and grand ouvert
    only as hand and with both announcements; null has no announcements."""

    game: GameType
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False


class Play(_Action, frozen=True, tag="play"):
    """Play a card to the trick."""

    card: str


class Kontra(_Action, frozen=True, tag="kontra"):
    """A defender doubles (house rule)."""


class Re(_Action, frozen=True, tag="re"):
    """The declarer redoubles after a Kontra (house rule)."""


class Resign(_Action, frozen=True, tag="resign"):
    """Give up the game for one's party (ISkO 4.4)."""


class Claim(_Action, frozen=True, tag="claim"):
    """The declarer shows his cards and claims every remaining trick (in a null game: that he
    takes none). Both defenders answer before play goes on (ISkO 4.4.4; ISS `SC`)."""


class AcceptClaim(_Action, frozen=True, tag="accept_claim"):
    """A defender agrees to the declarer's claim (ISS: his `RE` after the `SC`)."""


class RefuseClaim(_Action, frozen=True, tag="refuse_claim"):
    """A defender objects to the claim: play goes on with the declarer's cards open."""


class Abandon(_Action, frozen=True, tag="abandon"):
    """The seat leaves the table or runs out of time (ISS `LE`/`TI`)."""

    reason: Literal["left", "timeout"] = "left"


Action = (
    Bid
    | Hold
    | Pass
    | PickUpSkat
    | Discard
    | Declare
    | Play
    | Kontra
    | Re
    | Resign
    | Claim
    | AcceptClaim
    | RefuseClaim
    | Abandon
)
