"""docs/tichu-rules.md section 7: Mah Jong, Dog, Phoenix, Dragon (edge cases 10.1, 10.8, 10.9)."""

import pytest

from engine.tichu.actions import GiveDragon, Play
from engine.tichu.cards import card_points, parse_cards
from engine.tichu.combos import height_of
from engine.tichu.rules import Rules
from engine.tichu.state import new_game
from tests.engine.tichu.helpers import (
    decide_all,
    exchange_lowest,
    ordered_deal,
    passes,
    play,
    plays_of,
    rejection,
    table_state,
)


class TestMahJong:
    """Section 7.1 and 3.6: its holder after the exchange leads, not necessarily with it."""

    def test_the_mahjong_holder_after_the_exchange_leads_the_first_trick(self) -> None:
        state = exchange_lowest(decide_all(new_game(Rules(), deal=ordered_deal())))
        assert state.phase == "play"
        assert state.hands[2] & parse_cards("MahJong"), "seat 0 passed it to its partner"
        assert state.to_move == 2

    def test_the_leader_need_not_play_the_mahjong_first(self) -> None:
        state = exchange_lowest(decide_all(new_game(Rules(), deal=ordered_deal())))
        card = next(c for c in state.observation(2).hand if c != "MahJong")
        assert play(state, 2, card).hands[2] & parse_cards("MahJong")

    def test_the_mahjong_is_the_lowest_single(self) -> None:
        state = play(table_state("MahJong 9j", "2s", "3s", "4s"), 0, "MahJong")
        assert plays_of(state, 1) == {"2s"}


class TestPhoenixSingle:
    """Section 7.3 and 10.1: half a rank above the previous single, 1.5 led, never on the Dragon."""

    def test_led_it_counts_one_and_a_half(self) -> None:
        state = play(table_state("Phoenix 9j", "MahJong 2s", "3s", "4s"), 0, "Phoenix")
        assert height_of(state.table) == 3
        assert plays_of(state, 1) == {"2s"}, "the Mah Jong does not beat it, a 2 does"

    def test_on_a_seven_it_counts_seven_and_a_half(self) -> None:
        state = play(table_state("7j 2j", "Phoenix 3s", "7s 8s", "4s"), 0, "7j")
        state = play(state, 1, "Phoenix")
        assert plays_of(state, 2) == {"8s"}, "an 8 beats it, the other 7 does not"

    def test_on_an_ace_only_the_dragon_or_a_bomb_beat_it(self) -> None:
        state = table_state("Aj 2j", "Phoenix 3s", "As Dragon 5j 5s 5p 5t", "4s")
        state = play(play(state, 0, "Aj"), 1, "Phoenix")
        assert plays_of(state, 2) == {"Dragon", "5j 5s 5p 5t"}

    def test_it_cannot_be_played_on_the_dragon(self) -> None:
        state = play(table_state("Dragon 2j", "Phoenix 3s", "4p", "4s"), 0, "Dragon")
        assert rejection(state, 1, Play(cards=("Phoenix",))) == "does_not_beat"


class TestDog:
    """Section 7.2 and 10.8: led alone, hands the lead to the partner, worth nothing, unbombable."""

    def test_the_dog_is_only_a_lead(self) -> None:
        state = play(table_state("9j 2j", "Dog 3s", "4p", "4s"), 0, "9j")
        assert rejection(state, 1, Play(cards=("Dog",))) == "does_not_beat"

    def test_the_dog_passes_the_lead_to_the_partner(self) -> None:
        state = play(table_state("Dog 9j", "3s", "4p", "5s"), 0, "Dog")
        assert state.to_move == 2
        assert state.closed

    def test_with_the_partner_out_the_lead_goes_to_the_next_player_after_him(self) -> None:
        state = play(table_state("Dog 9j", "3s", "", "5s", out=(2,)), 0, "Dog")
        assert state.to_move == 3

    def test_with_partner_and_the_one_after_him_out_the_lead_comes_back(self) -> None:
        state = play(table_state("Dog 9j", "3s", "", "", out=(2, 3)), 0, "Dog")
        assert state.to_move == 0

    def test_the_dog_may_be_the_last_card(self) -> None:
        state = play(table_state("Dog", "3s", "4p", "5s"), 0, "Dog")
        assert state.finish == (0,)
        assert state.to_move == 2

    def test_the_dog_trick_is_worth_nothing_and_goes_to_the_new_leader(self) -> None:
        state = play(table_state("Dog 9j", "3s", "4p 5p", "5s", spare_to=1), 0, "Dog")
        state = play(state, 2, "4p")
        assert state.won[2] == parse_cards("Dog")
        assert card_points(state.won[2]) == 0


class TestDragon:
    """Section 7.5 and 10.9: its winner gives the whole trick to the opponent of his choice."""

    def test_only_a_bomb_beats_the_dragon(self) -> None:
        state = play(table_state("Dragon 2j", "Phoenix Aj 3s 3p 3j 3t", "4p", "5s"), 0, "Dragon")
        assert plays_of(state, 1) == {"3j 3s 3p 3t"}

    @pytest.mark.parametrize("opponent", [1, 3])
    def test_the_winner_gives_the_trick_to_either_opponent(self, opponent: int) -> None:
        state = passes(play(table_state("Dragon 2j", "3s", "4p", "5s"), 0, "Dragon"), 1, 2, 3)
        assert state.phase == "dragon" and state.to_move == 0
        state = state.apply(0, GiveDragon(to=opponent))
        assert state.won[opponent] & parse_cards("Dragon")
        assert state.to_move == 0 and state.phase == "play"

    def test_the_partner_cannot_receive_it(self) -> None:
        state = passes(play(table_state("Dragon 2j", "3s", "4p", "5s"), 0, "Dragon"), 1, 2, 3)
        assert rejection(state, 0, GiveDragon(to=2)) == "not_an_opponent"
        assert rejection(state, 0, GiveDragon(to=0)) == "not_an_opponent"
        assert rejection(state, 1, GiveDragon(to=0)) == "not_your_turn"

    def test_the_winner_must_give_before_anything_else(self) -> None:
        state = passes(play(table_state("Dragon 2j", "3s", "4p", "5s"), 0, "Dragon"), 1, 2, 3)
        assert rejection(state, 0, Play(cards=("2j",))) == "must_give_dragon"
        assert {type(a).__name__ for a in state.legal_actions(0)} == {"GiveDragon"}

    def test_an_opponent_who_is_out_may_receive_it(self) -> None:
        state = table_state("Dragon 2j", "", "4p", "5s", out=(1,))
        state = passes(play(state, 0, "Dragon"), 2, 3)
        assert state.apply(0, GiveDragon(to=1)).won[1] & parse_cards("Dragon")

    def test_the_dragon_is_given_away_also_on_the_last_trick(self) -> None:
        state = table_state("Dragon", "", "", "5s", out=(1, 2), spare_to=3)
        state = play(state, 0, "Dragon")
        assert state.phase == "dragon"
        final = state.apply(0, GiveDragon(to=1))
        assert final.round_index == 1
        score = final.rounds[-1]
        # Seat 1 got the Dragon (25); the last player 3 gives his hand (the 5, 5 points) to team 0
        # and his tricks (every other card: 70) to the first player out, seat 1.
        assert score.card_points == (5, 95)

    def test_a_dragon_that_won_after_the_winner_went_out_is_still_given(self) -> None:
        state = passes(play(table_state("Dragon", "3s", "4p", "5s"), 0, "Dragon"), 1, 2, 3)
        assert state.phase == "dragon" and state.to_move == 0
        state = state.apply(0, GiveDragon(to=3))
        assert state.to_move == 1, "the next player still holding cards leads"
