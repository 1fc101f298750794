"""A Skat deal: three hands of ten and the two-card skat, from a seed or given cards."""

import msgspec

from engine.bits import popcount
from engine.errors import InvalidInput
from engine.rng import make_rng
from engine.skat.cards import ALL_CARDS, CardMask, format_cards, parse_cards

__all__ = ["Deal", "deal_from_seed", "parse_deal"]


class Deal(msgspec.Struct, frozen=True):
    """Cards by position: `hands[0]` forehand, `hands[1]` middlehand, `hands[2]` rearhand."""

    hands: tuple[CardMask, CardMask, CardMask]
    skat: CardMask

    def __post_init__(self) -> None:
        masks = (*self.hands, self.skat)
        sizes = tuple(popcount(m) for m in masks)
        union = 0
        for m in masks:
            union |= m
        if sizes != (10, 10, 10, 2) or union != ALL_CARDS:
            raise InvalidInput("a deal needs three disjoint hands of 10 cards and a skat of 2")

    def to_text(self) -> dict[str, list[list[str]] | list[str]]:
        """Card texts (docs/conventions.md section 4): `{"hands": [[...] x 3], "skat": [...]}`."""
        return {"hands": [format_cards(h) for h in self.hands], "skat": format_cards(self.skat)}


def parse_deal(hands: list[list[str]] | list[str], skat: list[str] | str) -> Deal:
    """A deal from card texts; raises InvalidInput when cards are unknown, repeated or missing."""
    if len(hands) != 3:
        raise InvalidInput("a deal needs exactly three hands")
    h0, h1, h2 = (parse_cards(h) for h in hands)
    return Deal(hands=(h0, h1, h2), skat=parse_cards(skat))


def deal_from_seed(seed: int) -> Deal:
    """A uniformly random deal, reproducible from `seed`.

    The shuffled deck is cut as in docs/skat-rules.md section 2 (3 - skat - 4 - 3): forehand gets
    d[0:3] + d[11:15] + d[23:26], middlehand d[3:6] + d[15:19] + d[26:29], rearhand
    d[6:9] + d[19:23] + d[29:32], the skat d[9:11].
    """
    deck = [int(c) for c in make_rng(seed).permutation(32)]

    def mask(*slices: tuple[int, int]) -> CardMask:
        return sum(1 << deck[i] for a, b in slices for i in range(a, b))

    return Deal(
        hands=(
            mask((0, 3), (11, 15), (23, 26)),
            mask((3, 6), (15, 19), (26, 29)),
            mask((6, 9), (19, 23), (29, 32)),
        ),
        skat=mask((9, 11)),
    )
