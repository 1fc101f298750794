"""All distinct partitions of a hand into combinations, the search space of the classic bot.

A partition is a sorted tuple of `Part`s whose counts add up to the hand's. Equivalent
partitions (the same combination types, lengths and values, only suits differing) are
produced once because they are built from counts, not cards. Straight flushes are the one
place where suits matter: each set of disjoint straight flushes of the hand is taken out at
card level first and the rest is partitioned by counts.

Partitions longer than the shortest by more than `slack` combinations are pruned: they are
never the best, and a pairs-heavy hand has tens of thousands of them. The enumeration is a
memoised recursion on counts (choose the part holding the lowest value, recurse on the rest)
with a branch bound from the minimum number of parts, so the cache serves every later
decision of the round (a hand after a play is a sub-problem of the hand before).
"""

from functools import lru_cache
from itertools import combinations
from typing import Final, NamedTuple

from bots.tichu.combination import Counts, Part, counts_of, parts_with_lowest
from engine.tichu.bombs import bombs
from engine.tichu.cards import CardMask
from engine.tichu.combos import BOMBSF, kind_of

__all__ = ["DEFAULT_SLACK", "HandPartitions", "count_partitions", "min_parts", "partitions"]

Partition = tuple[Part, ...]

DEFAULT_SLACK: Final = 2
_CACHE: Final = 1 << 17
_HAND_CACHE: Final = 1 << 14
_MAX_FLUSHES: Final = 3  # no hand holds more than three disjoint straight flushes


class HandPartitions(NamedTuple):
    """The partitions of one hand and the cards of the straight flushes they use.

    Attributes:
        partitions: every distinct partition within the slack, shortest first.
        flushes: cards of each straight-flush part by its counts (suits matter only there).
    """

    partitions: tuple[Partition, ...]
    flushes: dict[Counts, CardMask]


@lru_cache(maxsize=_CACHE)
def _parts(counts: Counts) -> tuple[Part, ...]:
    return tuple(parts_with_lowest(counts))


@lru_cache(maxsize=_CACHE)
def min_parts(counts: Counts) -> int:
    """The fewest combinations the counts split into."""
    if not counts:
        return 0
    return 1 + min(min_parts(counts - part[1]) for part in _parts(counts))


@lru_cache(maxsize=_CACHE)
def count_partitions(counts: Counts, slack: int = DEFAULT_SLACK) -> tuple[Partition, ...]:
    """Every distinct partition of the counts with at most `min_parts + slack` parts."""
    if not counts:
        return ((),)
    limit = min_parts(counts) + slack
    found: set[Partition] = set()
    for part in _parts(counts):
        rest = counts - part[1]
        room = limit - 1 - min_parts(rest)
        if room < 0:
            continue
        for tail in count_partitions(rest, room):
            found.add(tuple(sorted((part, *tail))))
    return tuple(sorted(found, key=lambda p: (len(p), p)))


@lru_cache(maxsize=_HAND_CACHE)
def partitions(hand: CardMask, slack: int = DEFAULT_SLACK) -> HandPartitions:
    """Every distinct partition of `hand` within `slack` of the shortest, shortest first
    (cached: callers must not change the result)."""
    flushes = [(cards, combo) for cards, combo in bombs(hand) if kind_of(combo) == BOMBSF]
    choices: list[tuple[tuple[CardMask, int], ...]] = [()]
    for size in range(1, min(len(flushes), _MAX_FLUSHES) + 1):
        for chosen in combinations(flushes, size):
            used = 0
            for cards, _ in chosen:
                if used & cards:
                    break
                used |= cards
            else:
                choices.append(chosen)
    best = min(len(c) + min_parts(counts_of(hand & ~_cards(c))) for c in choices)
    found: list[Partition] = []
    cards_of: dict[Counts, CardMask] = {}
    for chosen in choices:
        rest = counts_of(hand & ~_cards(chosen))
        room = best + slack - len(chosen) - min_parts(rest)
        if room < 0:
            continue
        head = tuple((combo, counts_of(cards)) for cards, combo in chosen)
        for cards, _ in chosen:
            cards_of[counts_of(cards)] = cards
        found += [tuple(sorted((*head, *tail))) for tail in count_partitions(rest, room)]
    found.sort(key=lambda p: (len(p), p))
    return HandPartitions(tuple(found), cards_of)


def _cards(chosen: tuple[tuple[CardMask, int], ...]) -> CardMask:
    used = 0
    for cards, _ in chosen:
        used |= cards
    return used
