"""docs/tichu-rules.md sections 7.1 and 7.4: the Mah Jong wish (edge case 10.7)."""

from engine.tichu.actions import Pass, Play
from engine.tichu.rules import Rules
from tests.engine.tichu.helpers import passes, play, plays_of, rejection, table_state

EIGHTS_BOMB = "8j 8s 8p 8t"


class TestMakingAWish:
    """Section 7.1: whoever plays the Mah Jong may name a rank 2..A; officially optional."""

    def test_the_wish_is_optional(self) -> None:
        state = play(table_state("MahJong 9j", "2s", "3s", "4s"), 0, "MahJong")
        assert state.wish == 0

    def test_a_wish_is_made_with_the_mahjong_play(self) -> None:
        state = play(table_state("MahJong 9j", "2s", "3s", "4s"), 0, "MahJong", wish="8")
        assert state.wish == 8

    def test_a_wish_made_inside_a_straight(self) -> None:
        state = table_state("MahJong 2j 3s 4p 5t 9j", "2s", "3p", "4s")
        assert play(state, 0, "MahJong 2j 3s 4p 5t", wish="K").wish == 13

    def test_only_the_mahjong_carries_a_wish(self) -> None:
        state = table_state("9j Kj", "2s", "3s", "4s")
        assert rejection(state, 0, Play(cards=("9j",), wish="8")) == "wish_without_mahjong"

    def test_rule_option_forces_a_wish(self) -> None:
        state = table_state("MahJong 9j", "2s", "3s", "4s", rules=Rules(wish_required=True))
        assert rejection(state, 0, Play(cards=("MahJong",))) == "wish_required"
        assert all(
            a.wish is not None
            for a in state.legal_actions(0)
            if isinstance(a, Play) and "MahJong" in a.cards
        )


class TestFulfilling:
    """Section 7.4 and 10.7: the player on turn who can legally play the wished rank must."""

    def test_a_follower_holding_a_playable_wished_card_must_play_it(self) -> None:
        state = play(table_state("MahJong Aj", "8s 9s", "3s", "4s"), 0, "MahJong", wish="8")
        assert plays_of(state, 1) == {"8s"}
        assert rejection(state, 1, Pass()) == "wish_must_be_fulfilled"
        assert rejection(state, 1, Play(cards=("9s",))) == "wish_must_be_fulfilled"

    def test_no_duty_when_the_wished_rank_cannot_beat(self) -> None:
        state = table_state("9j Aj", "8s 2s", "3s", "4s", wish="8")
        state = play(state, 0, "9j")
        assert Pass() in state.legal_actions(1)

    def test_no_duty_when_the_type_does_not_fit(self) -> None:
        state = table_state("9j 9s Aj", "8s 2s Ts", "3s", "4s", wish="8")
        state = play(state, 0, "9j 9s")
        assert Pass() in state.legal_actions(1)

    def test_the_duty_includes_a_bomb(self) -> None:
        state = table_state("9j Aj", EIGHTS_BOMB + " 3j", "3s", "4s", wish="8")
        state = play(state, 0, "9j")
        assert plays_of(state, 1) == {EIGHTS_BOMB}
        assert rejection(state, 1, Pass()) == "wish_must_be_fulfilled"

    def test_the_duty_includes_the_phoenix_inside_a_combination(self) -> None:
        state = table_state("7j 7s Aj", "8j Phoenix 3s", "3p", "4p", wish="8")
        state = play(state, 0, "7j 7s")
        assert plays_of(state, 1) == {"8j Phoenix"}

    def test_the_phoenix_alone_never_obliges_nor_fulfils(self) -> None:
        state = table_state("7j Aj", "Phoenix 3s", "3p", "4p", wish="8")
        state = play(state, 0, "7j")
        assert Pass() in state.legal_actions(1)
        assert play(state, 1, "Phoenix").wish == 8

    def test_the_leader_must_lead_a_combination_with_the_wished_rank(self) -> None:
        state = table_state("Dog 8j 9s 9p", "2s", "3s", "4s", wish="8")
        assert plays_of(state, 0) == {"8j"}
        assert rejection(state, 0, Play(cards=("Dog",))) == "wish_must_be_fulfilled"
        assert rejection(state, 0, Play(cards=("9s", "9p"))) == "wish_must_be_fulfilled"

    def test_the_wish_persists_across_tricks_until_fulfilled(self) -> None:
        state = table_state("MahJong Aj", "Ks 2s", "3s 8p", "4s")
        state = play(state, 0, "MahJong", wish="8")
        state = passes(play(state, 1, "Ks"), 2, 3, 0)
        assert state.closed and state.to_move == 1
        assert state.wish == 8
        state = play(state, 1, "2s")
        assert plays_of(state, 2) == {"8p"}
        assert play(state, 2, "8p").wish == 0

    def test_any_player_fulfils_it_even_with_a_bomb_out_of_turn(self) -> None:
        state = play(
            table_state("MahJong Aj", "2s 3s", EIGHTS_BOMB + " 5s", "4s"), 0, "MahJong", wish="8"
        )
        assert play(state, 2, EIGHTS_BOMB).wish == 0

    def test_playing_the_wished_rank_ends_the_wish(self) -> None:
        state = play(table_state("MahJong Aj", "8s 9s", "3s", "4s"), 0, "MahJong", wish="8")
        assert play(state, 1, "8s").wish == 0


class TestBombsAndTheWish:
    """Section 7.4: bombs out of turn are exempt; the bomber who wins must fulfil on his lead."""

    def test_an_out_of_turn_bomb_need_not_contain_the_wished_rank(self) -> None:
        state = table_state("MahJong Aj", "2s", "Kj Ks Kp Kt 8s", "4s")
        state = play(state, 0, "MahJong", wish="8")
        assert play(state, 2, "Kj Ks Kp Kt").wish == 8

    def test_the_bomber_who_wins_must_fulfil_when_he_leads(self) -> None:
        state = table_state("MahJong Aj", "2s", "Kj Ks Kp Kt 8s 9s", "4s")
        state = play(state, 0, "MahJong", wish="8")
        state = passes(play(state, 2, "Kj Ks Kp Kt"), 3, 0, 1)
        assert state.to_move == 2
        assert plays_of(state, 2) == {"8s"}

    def test_on_turn_the_official_rules_allow_any_bomb_instead(self) -> None:
        state = table_state("MahJong Aj", "Kj Ks Kp Kt 8s", "3s", "4s")
        state = play(state, 0, "MahJong", wish="8")
        assert plays_of(state, 1) == {"8s", "Kj Ks Kp Kt"}

    def test_rule_option_binds_bombs_on_turn_to_the_wish(self) -> None:
        rules = Rules(on_turn_bombs_ignore_wish=False)
        state = table_state("MahJong Aj", "Kj Ks Kp Kt 8s", "3s", "4s", rules=rules)
        state = play(state, 0, "MahJong", wish="8")
        assert plays_of(state, 1) == {"8s"}
        assert rejection(state, 1, Play(cards=("Kj", "Ks", "Kp", "Kt"))) == (
            "wish_must_be_fulfilled"
        )
