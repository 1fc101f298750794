"""docs/tichu-rules.md section 1: the 56 cards, their text form and their points."""

import pytest

from engine.bits import popcount
from engine.errors import InvalidInput
from engine.tichu.cards import (
    ALL_CARDS,
    DOG,
    DRAGON,
    MAHJONG,
    PHOENIX,
    SPECIALS,
    STANDARD,
    card_points,
    format_cards,
    parse_card,
    parse_cards,
    parse_rank,
    to_text,
)


class TestDeck:
    """Section 1: four suits of thirteen ranks plus Mah Jong, Dog, Phoenix and Dragon."""

    def test_the_deck_has_52_standard_cards_and_4_specials(self) -> None:
        assert popcount(STANDARD) == 52
        assert SPECIALS == DOG | MAHJONG | PHOENIX | DRAGON
        assert popcount(ALL_CARDS) == 56

    def test_every_card_fits_a_signed_64_bit_integer(self) -> None:
        assert ALL_CARDS < 1 << 63


class TestPoints:
    """Section 1: fives 5, tens and kings 10, Dragon 25, Phoenix -25; 100 in the deck."""

    @pytest.mark.parametrize(
        ("cards", "points"),
        [("5j", 5), ("Ts", 10), ("Kp", 10), ("Dragon", 25), ("Phoenix", -25), ("Aj 2s 9t", 0)],
    )
    def test_card_points(self, cards: str, points: int) -> None:
        assert card_points(parse_cards(cards)) == points

    def test_the_deck_is_worth_100(self) -> None:
        assert card_points(ALL_CARDS) == 100


class TestNotation:
    """The card notation of docs/conventions.md section 4 and of the reference file."""

    def test_every_card_text_round_trips(self) -> None:
        texts = format_cards(ALL_CARDS)
        assert len(texts) == 56
        assert parse_cards(texts) == ALL_CARDS

    def test_canonical_order_is_value_then_suit_with_phoenix_last(self) -> None:
        assert to_text(parse_cards("Phoenix Dragon 2t 2j MahJong Dog Aj")) == (
            "Dog MahJong 2j 2t Aj Dragon Phoenix"
        )

    @pytest.mark.parametrize("text", ["1j", "Tx", "mahjong", "", "10j"])
    def test_unknown_card_text_is_rejected(self, text: str) -> None:
        with pytest.raises(InvalidInput):
            parse_card(text)

    def test_a_card_given_twice_is_rejected(self) -> None:
        with pytest.raises(InvalidInput):
            parse_cards("5j 5j")

    def test_wish_ranks_are_2_to_ace(self) -> None:
        assert [parse_rank(r) for r in "23456789TJQKA"] == list(range(2, 15))
        for bad in ("1", "Dragon", "10", ""):
            with pytest.raises(InvalidInput):
                parse_rank(bad)
