"""The actions of a Tichu match: a tagged union, the same types on the wire and in the engine.

Cards are card texts (`engine.tichu.cards`), a wish is a rank text `"2"`..`"A"`, seats are
0..3 in turn order. Exchange fields name the receiver relative to the giver: `right` is the
next player in turn order (seat + 1), `partner` is seat + 2, `left` is seat + 3 (docs/tichu-rules.md
section 2: play passes to the right).
"""

import msgspec

__all__ = [
    "Action",
    "CallTichu",
    "DeclineGrandTichu",
    "Event",
    "Exchange",
    "GiveDragon",
    "GrandTichu",
    "Pass",
    "Play",
]


class _Action(msgspec.Struct, frozen=True, gc=False, tag_field="type", forbid_unknown_fields=True):
    """Common base: encodes as a JSON object with a `type` tag; a field the action does not
    have is an error (a client's typo is refused, not ignored).

    Actions hold no other objects that could form a reference cycle, so the garbage collector
    need not track them (`gc=False`): a match creates many.
    """


class GrandTichu(_Action, frozen=True, tag="grand_tichu"):
    """Call Grand Tichu after seeing the first eight cards (worth 200)."""


class DeclineGrandTichu(_Action, frozen=True, tag="decline_grand_tichu"):
    """Decide not to call Grand Tichu; the last of four decisions deals the other six cards."""


class Exchange(_Action, frozen=True, tag="exchange"):
    """The three cards passed face down, one to each other player."""

    left: str
    partner: str
    right: str


class CallTichu(_Action, frozen=True, tag="tichu"):
    """Call (small) Tichu: allowed while the caller still holds all fourteen cards."""


class Play(_Action, frozen=True, tag="play"):
    """Lead or play a combination; a bomb may be thrown out of turn.

    `wish` names a rank and is only allowed when `cards` contain the Mah Jong: the wish is made
    with the play itself, so no separate step (and no bomb window) lies between them.
    """

    cards: tuple[str, ...]
    wish: str | None = None


class Pass(_Action, frozen=True, tag="pass"):
    """Pass on the trick on the table (never on one's own lead)."""


class GiveDragon(_Action, frozen=True, tag="give_dragon"):
    """Give the trick won with the Dragon to the opponent at seat `to`."""

    to: int


Action = GrandTichu | DeclineGrandTichu | Exchange | CallTichu | Play | Pass | GiveDragon


class Event(msgspec.Struct, frozen=True, gc=False):
    """A public record: `seat` took `action` (exchanges are private and never recorded)."""

    seat: int
    action: Action
