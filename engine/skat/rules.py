"""Rule switches of a Skat table; the defaults are the International Skat Order (ISkO)."""

from typing import Final, Literal

import msgspec

__all__ = [
    "BID_VALUES",
    "CARDS_PER_TRICK",
    "CONCEDE_MIN_CARDS",
    "FULL_HAND",
    "NO_SEAT",
    "TRICKS_PER_DEAL",
    "Phase",
    "Rules",
]

# The phases of a deal, in order (observations carry it, so it lives here, not in `state`).
Phase = Literal["bidding", "skat", "discard", "declare", "push", "play", "over"]

TRICKS_PER_DEAL: Final = 10
CARDS_PER_TRICK: Final = 3
FULL_HAND: Final = 10
# ISkO 4.4.1: the declarer may give up without consent while he holds at least nine cards.
CONCEDE_MIN_CARDS: Final = 9
NO_SEAT: Final = -1  # "nobody" in a seat field of the state (no declarer yet, ...)

# Every value some declaration can reach (docs/skat-rules.md section 3.1): 63 values, 18..264.
BID_VALUES: tuple[int, ...] = tuple(
    sorted(
        {b * m for b in (9, 10, 11, 12) for m in range(2, 19)}
        | {24 * m for m in range(2, 12)}
        | {23, 35, 46, 59}
    )
)


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Options of a table. Everything off is the ISkO as played in tournaments.

    Attributes:
        players: 3, or 4 with the dealer sitting out each deal.
        all_pass: "throw_in" (ISkO 3.3.7: nothing is scored, the next player deals),
            "ramsch" (house rule: everybody plays alone, jacks are trumps, most points lose)
            or "schieberamsch" (Ramsch after each player in turn may pick up the skat and
            push two cards, no jacks, on; each push doubles; docs/skat-rules.md 3.3).
        kontra: house rule Kontra/Re: a defender who took part in the bidding may double before
            playing his first card; the declarer may redouble before his next card.
        bock: house rule Bockrunden: some deals earn a round of Bock deals (one per player) whose
            list values count double (`engine.skat.scoring.earns_bock`, docs/skat-rules.md
            section 3.5).
        iss_compat: the International Skat Server's conventions (docs/skat-rules.md section 12.3): a
            defenders' resignation needs both defenders, the declarer may resign at any time,
            and the other party takes every remaining trick after a resignation or abandonment.
    """

    players: Literal[3, 4] = 3
    all_pass: Literal["throw_in", "ramsch", "schieberamsch"] = "throw_in"
    kontra: bool = False
    bock: bool = False
    iss_compat: bool = False
