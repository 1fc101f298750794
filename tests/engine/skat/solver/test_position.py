"""Positions are validated at the boundary, and the internal layout keeps the rules' order
(docs/skat-rules.md section 1: trumps, suits, null order)."""

import pytest

from engine.errors import InvalidInput
from engine.skat.cards import GAME_TYPES, effective_suit, parse_card, parse_cards, power
from engine.skat.deal import deal_from_seed
from engine.skat.solver import Position
from engine.skat.solver.position import (
    KIND_NULL,
    KIND_POINTS,
    R_MASK,
    R_SUIT,
    TRUMP_ID,
    from_internal,
    rules_table,
    to_internal,
)


@pytest.mark.parametrize("game", GAME_TYPES)
def test_internal_layout_orders_each_effective_suit_like_the_rules(game: str) -> None:
    rules = rules_table(game, KIND_NULL if game == "null" else KIND_POINTS)
    for a in range(32):
        assert from_internal(game, to_internal(game, 1 << a).bit_length() - 1) == a
        for b in range(32):
            ia = to_internal(game, 1 << a).bit_length() - 1
            ib = to_internal(game, 1 << b).bit_length() - 1
            same = rules[R_SUIT + ia] == rules[R_SUIT + ib]
            assert same == (effective_suit(game, a) == effective_suit(game, b))
            if same and a != b:
                assert (ia > ib) == (power(game, a) > power(game, b))
    trumps = int(rules[R_MASK + TRUMP_ID])
    assert trumps == 0 or trumps >> (32 - trumps.bit_count()) == (1 << trumps.bit_count()) - 1


def _hands(*texts: str) -> tuple[int, int, int]:
    a, b, c = (parse_cards(t) for t in texts)
    return a, b, c


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"hands": _hands("AC 7D", "AC 8D", "KC 9D")}, "two hands"),
        ({"hands": _hands("AC 7D", "TC", "KC 9D")}, "hand sizes"),
        ({"game": "ramsch"}, "unknown game"),
        ({"declarer": 3}, "declarer"),
        ({"trick": (parse_card("AC"),)}, "trick cards"),
        ({"trick": (1, 2, 3)}, "at most two"),
        ({"declarer_points": 118}, "exceed 120"),
        ({"declarer_tricks": 9}, "exceed ten"),
        ({"defender_tricks": -1}, "negative"),
    ],
)
def test_invalid_positions_are_rejected(fields: dict[str, object], problem: str) -> None:
    base: dict[str, object] = {
        "hands": _hands("AC 7D", "TC 8D", "KC 9D"),
        "game": "grand",
        "declarer": 0,
        "leader": 0,
    }
    with pytest.raises(InvalidInput, match=problem):
        Position(**(base | fields))


def test_a_card_on_the_table_must_follow_suit() -> None:
    # Forehand led AH; middlehand still holds 8H, so 7C is a revoke.
    with pytest.raises(InvalidInput, match="does not follow"):
        Position(
            hands=_hands("KD", "8H", "9C QC"),
            game="spades",
            declarer=0,
            leader=0,
            trick=(parse_card("AH"), parse_card("7C")),
        )


def test_a_deal_banks_the_skat_for_the_declarer() -> None:
    deal = deal_from_seed(5)
    position = Position.from_deal(deal.hands, deal.skat, "diamonds", declarer=2, leader=0)
    assert position.to_move == 0
    assert position.tricks_left == 10
    assert position.declarer_points + position.points_in_play == 120
    with pytest.raises(InvalidInput, match="skat"):
        Position.from_deal(deal.hands, deal.hands[0] & -deal.hands[0], "grand", 0)
