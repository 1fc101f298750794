"""Partitions: every distinct split of a hand into combinations, checked against brute force."""

import random

import pytest

from bots.tichu.combination import counts_of, parts_with_lowest
from bots.tichu.partition import count_partitions, min_parts, partitions
from engine.bits import iter_bits
from engine.tichu.cards import ALL_CARDS, PHOENIX, parse_cards
from engine.tichu.combos import NO_COMBO, classify

Signature = tuple[tuple[int, int], ...]


def brute_force(hand: int) -> set[Signature]:
    """Every partition of the card set by trying every subset holding its lowest card."""
    if not hand:
        return {()}
    low = hand & -hand
    rest = hand ^ low
    cards = [1 << c for c in iter_bits(rest)]
    found: set[Signature] = set()
    for mask in range(1 << len(cards)):
        subset = low | sum(c for i, c in enumerate(cards) if mask >> i & 1)
        combo = classify(subset)
        if combo == NO_COMBO:
            continue
        for tail in brute_force(hand & ~subset):
            found.add(tuple(sorted(((combo, counts_of(subset)), *tail))))
    return found


def _hands(count: int, size: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    # a narrow deck (five values, specials) so that pairs, stairs and straights abound
    deck = [c for c in iter_bits(ALL_CARDS) if c < 28 or c >= 60]
    return [sum(1 << c for c in rng.sample(deck, size)) for _ in range(count)]


@pytest.mark.parametrize("seed", range(4))
def test_partitions_are_exactly_the_distinct_splits_of_the_hand(seed: int) -> None:
    for hand in _hands(25, 8, seed):
        expected = brute_force(hand)
        got = set(partitions(hand, slack=99).partitions)
        flushes = any(combo >> 9 == 9 for p in expected for combo, _ in p)
        if flushes:  # a flush's cards also form a plain straight, which counts keep apart
            assert expected <= got
        else:
            assert got == expected


def test_equivalent_partitions_are_generated_once() -> None:
    hand = parse_cards("5j 5s 5p 6j 6s 7t")
    found = partitions(hand, slack=99).partitions
    assert len(found) == len(set(found))
    # 555 66 7, 555 6 6 7, 55 66 5 7, 5566 5 7, 5 5 5 6 6 7, ... but only one "55 + 5" per split
    assert sum(1 for p in found if len(p) == 6) == 1


def test_slack_keeps_only_partitions_near_the_shortest() -> None:
    hand = parse_cards("2j 3s 4p 5t 6j 7s 8p 9t Tj Js Qp Kt Aj Phoenix")
    shortest = min_parts(counts_of(hand))
    # 2..A and the Phoenix: the Phoenix cannot be the 1 (docs/tichu-rules.md section 7.3)
    assert shortest == 2
    assert all(len(p) <= shortest + 2 for p in partitions(hand, slack=2).partitions)


def test_phoenix_is_a_joker_in_every_combination_type() -> None:
    parts = {c for c, _ in parts_with_lowest(counts_of(parse_cards("4j 4s 5t 5j 6j 7j Phoenix")))}
    kinds = {c >> 9 for c in parts}
    assert {1, 2, 3, 4, 5, 6} <= kinds  # single .. stairs
    assert counts_of(PHOENIX) in {c for p in count_partitions(counts_of(PHOENIX)) for _, c in p}
