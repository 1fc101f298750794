"""docs/tichu-rules.md section 6: bombs, their order and their timing (edge cases 10.3 and 10.6)."""

from engine.tichu.actions import GiveDragon, Play
from engine.tichu.cards import parse_cards
from engine.tichu.combos import BOMB4, BOMBSF, beats, classify, kind_of
from engine.tichu.rules import Rules
from tests.engine.tichu.helpers import passes, play, rejection, table_state


def beats_led(led: str, answer: str) -> bool:
    table = classify(parse_cards(led))
    return beats(table, classify(parse_cards(answer), table))


BOMB = Play(cards=("8j", "8s", "8p", "8t"))


class TestBombOrder:
    """Section 6 and edge case 10.3: straight flushes over four of a kinds, longer over shorter."""

    def test_a_bomb_beats_every_non_bomb(self) -> None:
        assert beats_led("Dragon", "2j 2s 2p 2t")
        assert beats_led("Aj As Ap Kj Ks", "2j 2s 2p 2t")
        assert beats_led("MahJong 2j 3s 4p 5t 6j 7s 8p 9t Tj Js Qp Kt Aj", "2j 2s 2p 2t")

    def test_any_straight_flush_beats_any_four_of_a_kind(self) -> None:
        assert beats_led("Aj As Ap At", "2j 3j 4j 5j 6j")
        assert not beats_led("2j 3j 4j 5j 6j", "Aj As Ap At")

    def test_a_longer_straight_flush_beats_a_shorter_higher_one(self) -> None:
        assert beats_led("9s Ts Js Qs Ks", "2j 3j 4j 5j 6j 7j")
        assert not beats_led("2j 3j 4j 5j 6j 7j", "9s Ts Js Qs Ks")

    def test_equal_length_straight_flushes_compare_by_top(self) -> None:
        assert beats_led("2j 3j 4j 5j 6j", "3s 4s 5s 6s 7s")
        assert not beats_led("3s 4s 5s 6s 7s", "3p 4p 5p 6p 7p")

    def test_four_of_a_kinds_compare_by_rank(self) -> None:
        assert beats_led("7j 7s 7p 7t", "8j 8s 8p 8t")
        assert not beats_led("8j 8s 8p 8t", "7j 7s 7p 7t")


class TestBombTiming:
    """Section 6 and edge case 10.6: bombs are interrupts while a combination is on the table."""

    def test_a_bomb_falls_on_the_first_card_of_a_trick_even_the_mahjong(self) -> None:
        state = table_state("MahJong 9j", "2s 3s", "8j 8s 8p 8t Kj", "Qs")
        state = play(state, 0, "MahJong")
        assert state.to_move == 1
        state = state.apply(2, BOMB)
        assert kind_of(state.table) == BOMB4
        assert state.to_move == 3, "play continues after the bomber"

    def test_a_player_who_passed_may_bomb_later(self) -> None:
        state = table_state("9j 2s", "8j 8s 8p 8t Kj", "3p", "4p")
        state = passes(play(state, 0, "9j"), 1)
        state = state.apply(1, BOMB)
        assert state.owner == 1

    def test_a_bomb_may_fall_on_ones_own_combination(self) -> None:
        state = table_state("9j 8j 8s 8p 8t", "2s", "3p", "4p")
        state = play(state, 0, "9j")
        assert state.apply(0, BOMB).owner == 0

    def test_a_bomb_may_fall_after_all_passed_before_the_trick_is_taken(self) -> None:
        state = table_state("9j 2s", "3s", "8j 8s 8p 8t Kj", "4p")
        state = passes(play(state, 0, "9j"), 1, 2, 3)
        assert state.closed and state.to_move == 0
        state = state.apply(2, BOMB)
        assert state.owner == 2
        assert state.trick == parse_cards("9j 8j 8s 8p 8t")

    def test_the_player_on_turn_may_bomb_instead_of_following(self) -> None:
        state = table_state("9j 2s", "8j 8s 8p 8t Kj", "3p", "4p")
        assert play(play(state, 0, "9j"), 1, "8j 8s 8p 8t").owner == 1

    def test_no_bomb_out_of_turn_on_an_empty_table(self) -> None:
        state = table_state("9j", "8j 8s 8p 8t Kj", "3p", "4p")
        assert rejection(state, 1, BOMB) == "nothing_to_bomb"

    def test_a_bomb_may_be_led_in_ones_own_lead(self) -> None:
        state = table_state("8j 8s 8p 8t 9j", "2s", "3p", "4p")
        assert kind_of(state.apply(0, BOMB).table) == BOMB4

    def test_no_bomb_on_the_dog(self) -> None:
        state = play(table_state("Dog 9j", "8j 8s 8p 8t Kj", "3p", "4p"), 0, "Dog")
        assert rejection(state, 1, BOMB) == "dog_not_bombable"

    def test_rule_option_lets_a_bomb_fall_on_the_dog(self) -> None:
        rules = Rules(dog_bombable=True)
        state = play(table_state("Dog 9j", "8j 8s 8p 8t Kj", "3p", "4p", rules=rules), 0, "Dog")
        assert state.apply(1, BOMB).owner == 1

    def test_no_bomb_after_the_third_player_went_out(self) -> None:
        state = table_state("Dragon", "", "", "8j 8s 8p 8t 2j", out=(1, 2))
        state = play(state, 0, "Dragon")
        assert state.phase == "dragon"
        assert rejection(state, 3, BOMB) == "round_is_over"
        assert state.apply(0, GiveDragon(to=3)).round_index == 1

    def test_bombs_may_be_overbombed_only_by_higher_bombs(self) -> None:
        state = table_state("9j 2s", "8j 8s 8p 8t Kj", "2j 3j 4j 5j 6j", "7j 7s 7p 7t")
        state = play(play(state, 0, "9j"), 1, "8j 8s 8p 8t")
        assert rejection(state, 3, Play(cards=("7j", "7s", "7p", "7t"))) == "does_not_beat"
        state = play(state, 2, "2j 3j 4j 5j 6j")
        assert kind_of(state.table) == BOMBSF

    def test_a_player_who_is_out_cannot_bomb(self) -> None:
        state = play(table_state("9j 2s", "", "3p", "4p", out=(1,)), 0, "9j")
        assert rejection(state, 1, BOMB) == "already_out"

    def test_a_bomb_on_the_dragon_takes_the_trick(self) -> None:
        state = table_state("Dragon 2s", "8j 8s 8p 8t Kj", "3p", "4p")
        state = play(state, 0, "Dragon")
        state = passes(play(state, 1, "8j 8s 8p 8t"), 2, 3, 0)
        assert state.phase == "play" and state.closed and state.to_move == 1
        state = play(state, 1, "Kj")
        assert state.won[1] & parse_cards("Dragon 8j")
