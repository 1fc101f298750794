"""docs/tichu-rules.md section 5: the combinations and how they compare (edge cases 10.2 - 10.5)."""

import pytest

from engine.tichu.cards import parse_cards
from engine.tichu.combos import (
    BOMB4,
    BOMBSF,
    FULLHOUSE,
    NO_COMBO,
    PAIR,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
    beats,
    classify,
    height_of,
    kind_of,
)


def kind(cards: str, *, phoenix_as_one: bool = False) -> int:
    return kind_of(classify(parse_cards(cards), phoenix_as_one=phoenix_as_one))


def top(cards: str) -> float:
    return height_of(classify(parse_cards(cards))) / 2


def beats_led(led: str, answer: str) -> bool:
    table = classify(parse_cards(led))
    return beats(table, classify(parse_cards(answer), table))


class TestSinglesPairsTriples:
    """Section 5: singles by value; pairs and triples of one rank, the Phoenix completing one."""

    def test_single_values_run_from_mahjong_to_dragon(self) -> None:
        assert top("MahJong") == 1
        assert top("Aj") == 14
        assert top("Dragon") == 15

    @pytest.mark.parametrize("cards", ["5j 5s", "5j Phoenix"])
    def test_pairs(self, cards: str) -> None:
        assert kind(cards) == PAIR

    @pytest.mark.parametrize("cards", ["5j 5s 5p", "5j 5s Phoenix"])
    def test_triples(self, cards: str) -> None:
        assert kind(cards) == TRIPLE

    @pytest.mark.parametrize("cards", ["MahJong Phoenix", "Dragon Phoenix", "Dog Phoenix", "5j 6j"])
    def test_specials_never_pair(self, cards: str) -> None:
        assert kind(cards) == NO_COMBO

    def test_equal_rank_never_beats(self) -> None:
        assert not beats_led("9j 9s", "9p 9t")
        assert beats_led("9j 9s", "Tp Phoenix")


class TestStairs:
    """Section 5 and 10.4: consecutive pairs, the Phoenix completing one; same length to beat."""

    @pytest.mark.parametrize("cards", ["5j 5s 6p 6t", "5j 5s 6p Phoenix 7j 7s", "Qj Qs Kp Kt"])
    def test_stairs(self, cards: str) -> None:
        assert kind(cards) == STAIRS

    @pytest.mark.parametrize("cards", ["5j 5s 7p 7t", "5j 5s 5p 6j 6s 6p", "5j 5s 7p Phoenix"])
    def test_gaps_and_triples_are_no_stairs(self, cards: str) -> None:
        assert kind(cards) == NO_COMBO

    def test_stairs_beat_only_stairs_of_the_same_length(self) -> None:
        assert beats_led("5j 5s 6p 6t", "7j 7s 8p 8t")
        assert not beats_led("5j 5s 6p 6t", "7j 7s 8p 8t 9j 9s")


class TestFullHouse:
    """Section 5 and 10.4: triple plus pair, compared by the triple only."""

    def test_full_house_compares_the_triple_only(self) -> None:
        assert beats_led("5j 5s 5p Aj As", "6j 6s 6p 2j 2s")
        assert not beats_led("6j 6s 6p 2j 2s", "5j 5s 5p Aj As")

    def test_two_pairs_and_phoenix_make_the_higher_pair_the_triple(self) -> None:
        played = classify(parse_cards("5j 5s 9p 9t Phoenix"))
        assert kind_of(played) == FULLHOUSE
        assert height_of(played) == 18

    def test_phoenix_completes_either_part(self) -> None:
        assert top("5j 5s 5p 9t Phoenix") == 5
        assert top("5j 5s 9p 9t 9j") == 9

    def test_four_of_a_kind_and_phoenix_is_no_full_house(self) -> None:
        assert kind("5j 5s 5p 5t Phoenix") == NO_COMBO


class TestStraights:
    """Section 5, 10.4 and 10.5: five or more consecutive values, the Mah Jong as the 1."""

    def test_mahjong_is_the_one_of_a_straight(self) -> None:
        assert kind("MahJong 2j 3s 4p 5t") == STRAIGHT
        assert top("MahJong 2j 3s 4p 5t") == 5

    def test_ace_is_never_low(self) -> None:
        assert kind("Aj 2s 3p 4t 5j") == NO_COMBO

    def test_phoenix_fills_a_gap_or_extends_at_the_top(self) -> None:
        assert top("3j 4s 6p 7t Phoenix") == 7
        assert top("3j 4s 5p 6t Phoenix") == 7
        assert top("Tj Js Qp Kt Aj Phoenix") == 14

    def test_phoenix_cannot_be_the_one(self) -> None:
        """2..A plus Phoenix would need the Phoenix as the 1: not a straight (10.5)."""
        cards = "2j 3s 4p 5t 6j 7s 8p 9t Tj Js Qp Kt Aj Phoenix"
        assert kind(cards) == NO_COMBO
        assert kind(cards, phoenix_as_one=True) == STRAIGHT

    def test_dragon_and_dog_never_join_a_straight(self) -> None:
        assert kind("Tj Js Qp Kt Aj Dragon") == NO_COMBO
        assert kind("Dog 2j 3s 4p 5t") == NO_COMBO

    def test_four_card_runs_are_no_combination(self) -> None:
        assert kind("3j 4s 5p 6t") == NO_COMBO

    def test_a_straight_beats_only_one_of_the_same_length(self) -> None:
        assert beats_led("3j 4s 5p 6t 7j", "4j 5s 6p 7t 8j")
        assert not beats_led("3j 4s 5p 6t 7j", "4j 5s 6p 7t 8j 9s")
        assert not beats_led("3j 4s 5p 6t 7j", "3s 4j 5t 6p 7s")

    def test_the_longest_straight_is_mahjong_to_ace(self) -> None:
        assert kind("MahJong 2j 3s 4p 5t 6j 7s 8p 9t Tj Js Qp Kt Aj") == STRAIGHT


class TestNotCombinations:
    """Section 5: two triples, a triple with a single, loose pairs, anything with Dog or Dragon."""

    @pytest.mark.parametrize(
        "cards", ["5j 5s 5p 6j 6s 6p", "5j 5s 5p 9j", "5j 5s 9p 9t", "Dragon 5j", "Dog Dragon"]
    )
    def test_no_combination(self, cards: str) -> None:
        assert kind(cards) == NO_COMBO


class TestPhoenixAndMahJongNeverBomb:
    """Edge case 10.2: the Phoenix or the Mah Jong never complete a bomb."""

    def test_phoenix_in_a_same_suit_run_makes_a_straight(self) -> None:
        assert kind("3j 4j 5j 6j Phoenix") == STRAIGHT

    def test_three_of_a_kind_and_phoenix_is_no_bomb(self) -> None:
        assert kind("8j 8s 8p Phoenix") == NO_COMBO

    def test_mahjong_and_a_same_suit_run_is_a_straight(self) -> None:
        assert kind("MahJong 2j 3j 4j 5j") == STRAIGHT

    def test_real_bombs(self) -> None:
        assert kind("8j 8s 8p 8t") == BOMB4
        assert kind("3j 4j 5j 6j 7j") == BOMBSF
        assert kind("Dragon") == SINGLE
