"""Card tracking: what a seat can infer about the other hands, and hands sampled to match.

Certain facts, all from the seat's own observation:

* the cards it passed in the exchange are in the receivers' hands until they are played;
* the Mah Jong, while unplayed, is in the hand of the round's first leader;
* a seat on turn that neither fulfils a pending wish nor could be excused holds no card of the
  wished rank: after leading without it (or the Dog), or after passing or answering without it
  on a single lower than the wished rank (a single of that rank would have been legal).

`sample_hands` deals the unseen cards to the other seats at random, respecting hand sizes and
these facts: each card goes to a seat with probability proportional to its free places, which
is exactly a uniform deal when no exclusion binds. (Cards left over when every hand is full
are taken as lying elsewhere; in a real round the unseen cards exactly fill the hands.)
"""

from typing import Final, NamedTuple

import numpy as np

from bots.tichu.situation import Situation, TrickEvent
from engine.bits import iter_bits, popcount
from engine.tichu.cards import MAHJONG, RANK_MASK, CardMask
from engine.tichu.combos import NO_COMBO, SINGLE, height, height_of, is_bomb, kind_of
from engine.tichu.deal import LEFT, PARTNER, RIGHT, SEATS, seat_at

__all__ = ["Knowledge", "knowledge", "sample_hands"]

_ATTEMPTS: Final = 20  # tries before a sample ignores the exclusions
Hands = tuple[CardMask, CardMask, CardMask, CardMask]


class Knowledge(NamedTuple):
    """Per seat: cards it surely holds, and cards it surely does not hold (the viewer's own
    hand is its `held`)."""

    held: Hands
    excluded: Hands


def knowledge(sit: Situation) -> Knowledge:
    """The certain facts the seat's observation gives about every hand."""
    held = [0, 0, 0, 0]
    excluded = [0, 0, 0, 0]
    held[sit.seat] = sit.hand
    gone = sit.played | sit.hand
    for offset, card in zip((RIGHT, PARTNER, LEFT), sit.given, strict=True):
        if card and not card & gone:
            held[seat_at(sit.seat, offset)] |= card
    if not MAHJONG & gone:
        leads = [e.seat for e in sit.events if e.lead]
        first = leads[0] if leads else sit.to_move
        if first >= 0 and first != sit.seat:
            held[first] |= MAHJONG
    top = NO_COMBO  # the combination each event met on the table
    for event in sit.events:
        if event.lead:
            top = NO_COMBO
        if _proves_no_wish(event, top, sit.seat):
            excluded[event.seat] |= RANK_MASK[event.wish] & ~sit.played
        if event.cards:
            top = event.combo
    return Knowledge(_four(held), _four(excluded))


def _proves_no_wish(event: TrickEvent, top: int, viewer: int) -> bool:
    """Whether a seat that neither fulfilled the pending wish nor bombed shows it holds no
    card of the wished rank: it led, or met a single that such a card would have beaten."""
    if not event.wish or event.seat == viewer or event.dragon_to >= 0:
        return False
    if event.cards & RANK_MASK[event.wish] or (event.cards and is_bomb(event.combo)):
        return False
    if event.lead:
        return True
    return kind_of(top) == SINGLE and height_of(top) < height(event.wish)


def _four(masks: list[CardMask]) -> Hands:
    return masks[0], masks[1], masks[2], masks[3]


def sample_hands(sit: Situation, known: Knowledge, rng: np.random.Generator) -> Hands:
    """A deal of the unseen cards to the other seats consistent with the sizes and facts."""
    others = [seat_at(sit.seat, step) for step in range(1, SEATS)]
    fixed = 0
    for seat in others:
        fixed |= known.held[seat]
    pool = list(iter_bits(sit.unseen & ~fixed))
    for attempt in range(_ATTEMPTS + 1):
        hands = list(known.held)
        room = [
            0 if s == sit.seat else sit.sizes[s] - popcount(known.held[s]) for s in range(SEATS)
        ]
        strict = attempt < _ATTEMPTS
        for index in rng.permutation(len(pool)):
            card = 1 << pool[int(index)]
            weights = [0 if strict and known.excluded[s] & card else room[s] for s in range(SEATS)]
            total = sum(weights)
            if total == 0:
                if any(room):
                    break
                continue  # every hand is full: the card lies elsewhere
            pick = int(rng.integers(total))
            seat = 0
            while pick >= weights[seat]:
                pick -= weights[seat]
                seat += 1
            hands[seat] |= card
            room[seat] -= 1
        else:
            return _four(hands)
    raise ValueError("no deal fits the hand sizes")
