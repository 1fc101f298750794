"""Worlds consistent with an observation: what a seat knows, and uniform samples of the rest.

A *world* places every card the viewer has not seen: the other players' hands and the skat
(unless the viewer is the declarer who picked it up). `Facts` collects what constrains the
placement: hand sizes, cards shown (played, ouvert hands, the viewer's own cards and skat) and
voids shown by failing to follow suit. Sampling is exactly uniform over all consistent worlds:
cards are grouped by effective suit, a dynamic programme counts the ways to place the groups
into the free places, and each sample draws the group counts in proportion to those ways
(the classic solver's k-subset indexing, extended to void constraints).
"""

from bisect import bisect_right
from functools import cache
from math import comb
from typing import TypeAlias

import msgspec
import numpy as np

from engine.bits import iter_bits, popcount
from engine.errors import InvalidInput
from engine.skat.cards import (
    ALL_CARDS,
    CardMask,
    GameType,
    effective_suit,
    parse_card,
    parse_cards,
)
from engine.skat.observation import Observation

__all__ = ["Facts", "World", "count_worlds", "facts_of", "sample_worlds"]

# A group's splits that leave a placeable rest, (counts, rest's capacities) each, and their
# cumulative weights.
_Choices: TypeAlias = tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], tuple[int, ...]]

SKAT_SIZE = 2
GROUPS = 5  # effective suits: clubs, spades, hearts, diamonds, trumps


class World(msgspec.Struct, frozen=True):
    """One complete placement of the cards still in hands and the skat: `hands` per table
    seat (the current hands, not the dealt ones) and the current skat."""

    hands: tuple[CardMask, ...]
    skat: CardMask


class Facts(msgspec.Struct, frozen=True):
    """What a viewer knows for sampling.

    Attributes:
        known: cards whose place is known, per table seat (own hand, an ouvert hand).
        known_skat: the skat if the viewer knows it (declarer after pickup), else 0.
        sizes: current hand size per table seat.
        unknown: cards to be placed.
        voids: per seat a bit mask over effective suits (bit g: void in group g).
        free_seats: seats with cards to be placed, in seat order.
        skat_free: whether the skat's cards are to be placed.
        game: the game whose effective suits the voids refer to (None before the declaration:
            no voids are known then and all unknown cards form one group).
    """

    known: tuple[CardMask, ...]
    known_skat: CardMask
    sizes: tuple[int, ...]
    unknown: CardMask
    voids: tuple[int, ...]
    free_seats: tuple[int, ...]
    skat_free: bool
    game: GameType | None


def facts_of(obs: Observation) -> Facts:
    """The facts a seat can use, computed from its observation only."""
    players = obs.players
    played = 0
    for trick in obs.tricks:
        played |= parse_cards(trick.cards)
    played |= parse_cards(obs.trick)
    known = [0] * players
    for seat, cards in enumerate(obs.open_hands):
        if cards is not None:
            known[seat] = parse_cards(cards)
    if obs.seat is not None and obs.hand:
        known[obs.seat] = parse_cards(obs.hand)
    known_skat = parse_cards(obs.discarded) if obs.discarded else 0
    if obs.phase == "discard":
        known_skat = 0  # the skat is in the declarer's hand
    sizes = list(obs.hand_sizes)
    shown = played | known_skat
    for mask in known:
        shown |= mask
    game = _game_of(obs)
    voids = _voids(obs, game) if game else (0,) * players
    free_seats = tuple(s for s in range(players) if sizes[s] > popcount(known[s]) and sizes[s] > 0)
    # During the discard the skat lies in the declarer's hand; at the end all is shown.
    skat_free = obs.phase not in ("discard", "over") and known_skat == 0
    return Facts(
        known=tuple(known),
        known_skat=known_skat,
        sizes=tuple(sizes),
        unknown=ALL_CARDS & ~shown,
        voids=voids,
        free_seats=free_seats,
        skat_free=skat_free,
        game=game,
    )


def _game_of(obs: Observation) -> GameType | None:
    if obs.ramsch:
        return "grand"
    return obs.contract.game if obs.contract else None


def _voids(obs: Observation, game: GameType) -> tuple[int, ...]:
    """Effective suits each seat has shown it lacks, by failing to follow."""
    voids = [0] * obs.players
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick and obs.trick_leader is not None:
        tricks.append((obs.trick_leader, obs.trick))
    order = obs.order
    for leader, cards in tricks:
        led = effective_suit(game, parse_card(cards[0]))
        seat = leader
        for text in cards[1:]:
            seat = order[(order.index(seat) + 1) % 3]
            if effective_suit(game, parse_card(text)) != led:
                voids[seat] |= 1 << led
    return tuple(voids)


def _places(facts: Facts) -> tuple[list[int], list[int]]:
    """(capacity, void mask) per free place: the free seats, then the skat."""
    capacities = [facts.sizes[s] - popcount(facts.known[s]) for s in facts.free_seats]
    voids = [facts.voids[s] for s in facts.free_seats]
    if facts.skat_free:
        capacities.append(SKAT_SIZE)
        voids.append(0)
    return capacities, voids


def _groups(facts: Facts) -> list[list[int]]:
    """Unknown cards by effective suit (one group before the game is known)."""
    cards = sorted(iter_bits(facts.unknown))
    if facts.game is None:
        return [cards]
    game = facts.game
    return [[c for c in cards if effective_suit(game, c) == g] for g in range(GROUPS)]


def _group_suits(facts: Facts) -> list[int]:
    return [-1] if facts.game is None else list(range(GROUPS))


class _Counter:
    """Number of ways to place the groups g.. into places with the remaining capacities."""

    def __init__(self, sizes: list[int], suits: list[int], voids: list[int]) -> None:
        self.sizes = sizes
        self.allowed = [
            tuple(i for i, v in enumerate(voids) if suit < 0 or not v >> suit & 1) for suit in suits
        ]
        self.ways = cache(self._ways)
        self.choices = cache(self._choices)

    def splits(self, group: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every way to split group `group` over its allowed places: (counts, ways)."""
        result: list[tuple[tuple[int, ...], int]] = []
        allowed = self.allowed[group]

        def split(index: int, left: int, counts: list[int], ways: int) -> None:
            if index == len(allowed) - 1:
                place = allowed[index]
                if left <= caps[place]:
                    counts[place] = left
                    result.append((tuple(counts), ways))
                    counts[place] = 0
                return
            place = allowed[index]
            for k in range(min(left, caps[place]) + 1):
                counts[place] = k
                split(index + 1, left - k, counts, ways * comb(left, k))
            counts[place] = 0

        if not allowed:
            return [((0,) * len(caps), 1)] if self.sizes[group] == 0 else []
        split(0, self.sizes[group], [0] * len(caps), 1)
        return result

    def _choices(self, group: int, caps: tuple[int, ...]) -> _Choices:
        """The splits of group `group` that leave a placeable rest, each with the rest's
        capacities, and their cumulative weights (ways to place everything so): the same
        for every world a decision samples, so worked out once per (group, caps)."""
        options: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        cumulative: list[int] = []
        total = 0
        for counts, ways in self.splits(group, caps):
            rest = tuple(c - k for c, k in zip(caps, counts, strict=True))
            weight = ways * self.ways(group + 1, rest)
            if weight:
                total += weight
                options.append((counts, rest))
                cumulative.append(total)
        return tuple(options), tuple(cumulative)

    def _ways(self, group: int, caps: tuple[int, ...]) -> int:
        if group == len(self.sizes):
            return 1 if not any(caps) else 0
        cumulative = self.choices(group, caps)[1]
        return cumulative[-1] if cumulative else 0


def _counter(facts: Facts) -> tuple[_Counter, tuple[int, ...], list[list[int]]]:
    capacities, voids = _places(facts)
    groups = _groups(facts)
    if sum(capacities) != popcount(facts.unknown):
        raise InvalidInput("observation is inconsistent: places and unknown cards differ")
    counter = _Counter([len(g) for g in groups], _group_suits(facts), voids)
    return counter, tuple(capacities), groups


def count_worlds(obs: Observation) -> int:
    """How many worlds are consistent with the observation."""
    counter, capacities, _ = _counter(facts_of(obs))
    return counter.ways(0, capacities)


def sample_worlds(obs: Observation, n: int, rng: np.random.Generator) -> list[World]:
    """`n` worlds drawn independently and uniformly from those consistent with `obs`.

    Raises InvalidInput if no world is consistent (a corrupt observation).
    """
    facts = facts_of(obs)
    counter, capacities, groups = _counter(facts)
    if counter.ways(0, capacities) == 0:
        raise InvalidInput("no world is consistent with this observation")
    places = len(capacities)
    return [_sample(facts, counter, capacities, groups, places, rng) for _ in range(n)]


def _sample(
    facts: Facts,
    counter: _Counter,
    capacities: tuple[int, ...],
    groups: list[list[int]],
    places: int,
    rng: np.random.Generator,
) -> World:
    caps = capacities
    placed = [0] * places
    for group, cards in enumerate(groups):
        options, cumulative = counter.choices(group, caps)
        pick = int(rng.integers(cumulative[-1]))  # at most C(22,10) * C(12,10): fits int64
        counts, caps = options[bisect_right(cumulative, pick)]
        order: list[int] = rng.permutation(len(cards)).tolist()
        start = 0
        for place, k in enumerate(counts):
            for i in order[start : start + k]:
                placed[place] |= 1 << cards[i]
            start += k
    hands = list(facts.known)
    for place, seat in enumerate(facts.free_seats):
        hands[seat] |= placed[place]
    skat = placed[-1] if facts.skat_free else facts.known_skat
    return World(hands=tuple(hands), skat=skat)
