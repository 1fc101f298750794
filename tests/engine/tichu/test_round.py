"""docs/tichu-rules.md sections 3, 4 and 8: a round's phases, tricks and going out
(edge cases 10.10, 10.11, 10.13, 10.14)."""

from engine.bits import popcount
from engine.tichu.actions import (
    CallTichu,
    DeclineGrandTichu,
    Exchange,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import parse_cards
from engine.tichu.rules import Rules
from engine.tichu.scoring import GRAND, TICHU
from engine.tichu.state import State, new_game
from tests.engine.tichu.helpers import (
    decide_all,
    exchange_lowest,
    ordered_deal,
    passes,
    play,
    rejection,
    table_state,
)


def fresh() -> State:
    return new_game(Rules(), deal=ordered_deal())


class TestDeals:
    """Section 3.1: every round is dealt anew; the deals are reproducible from the seed."""

    def test_the_same_seed_deals_the_same_rounds(self) -> None:
        first, second = new_game(Rules(), seed=5), new_game(Rules(), seed=5)
        assert first.start.deal(3) == second.start.deal(3)
        assert first.start.deal(0) != first.start.deal(1)
        assert first.hands == first.start.deal(0).first

    def test_a_given_deal_is_used_for_the_first_round(self) -> None:
        assert fresh().start.deal(0) == ordered_deal()


class TestDealAndGrandTichu:
    """Section 3.1-3.3 and 10.13: eight cards, the Grand Tichu decision, then six more."""

    def test_each_seat_first_sees_eight_cards_and_decides_at_the_same_time(self) -> None:
        state = fresh()
        assert state.phase == "grand_tichu"
        assert [popcount(h) for h in state.hands] == [8, 8, 8, 8]
        assert state.to_move is None
        for seat in range(4):
            assert state.legal_actions(seat) == [GrandTichu(), DeclineGrandTichu()]
        assert len(state.observation(0).hand) == 8

    def test_the_last_decision_deals_the_other_six_cards(self) -> None:
        state = decide_all(fresh(), grand=(1, 3))
        assert state.phase == "exchange"
        assert [popcount(h) for h in state.hands] == [14, 14, 14, 14]
        assert state.calls[1] == GRAND and state.calls[3] == GRAND

    def test_grand_tichu_only_before_the_ninth_card(self) -> None:
        state = decide_all(fresh())
        assert rejection(state, 0, GrandTichu()) == "wrong_phase"

    def test_a_seat_decides_once(self) -> None:
        state = fresh().apply(0, DeclineGrandTichu())
        assert rejection(state, 0, GrandTichu()) == "already_decided"
        assert state.legal_actions(0) == []


class TestExchange:
    """Section 3.4 and 10.14: one card to each other player, all passed face down at once."""

    def test_cards_move_only_when_all_four_have_fixed_their_exchange(self) -> None:
        state = exchange_lowest(decide_all(fresh()), seats=(0, 1, 2))
        assert state.phase == "exchange" and state.to_move is None
        assert [popcount(h) for h in state.hands] == [14, 14, 14, 14]
        assert state.observation(0).received is None
        assert state.observation(3).must_exchange

    def test_received_cards_arrive_from_the_right_givers(self) -> None:
        state = exchange_lowest(decide_all(fresh()))
        # Seat 0 held Dog MahJong 2j ... and passed Dog right (1), MahJong partner (2), 2j left (3).
        assert state.hands[1] & parse_cards("Dog")
        assert state.hands[2] & parse_cards("MahJong")
        assert state.hands[3] & parse_cards("2j")
        received = state.observation(1).received
        assert received is not None and received.left == "Dog"

    def test_an_exchange_is_three_different_cards_of_ones_hand_once(self) -> None:
        state = decide_all(fresh())
        assert rejection(state, 0, Exchange(left="Dog", partner="Dog", right="2j")) == (
            "same_card_twice"
        )
        assert rejection(state, 0, Exchange(left="Aj", partner="Dog", right="2j")) == "not_in_hand"
        state = exchange_lowest(state, seats=(0,))
        assert rejection(state, 0, Exchange(left="3j", partner="3s", right="3p")) == (
            "already_exchanged"
        )

    def test_special_cards_may_be_passed(self) -> None:
        state = exchange_lowest(decide_all(fresh()))
        assert state.phase == "play"

    def test_every_legal_exchange_is_listed(self) -> None:
        state = decide_all(fresh())
        exchanges = [a for a in state.legal_actions(0) if isinstance(a, Exchange)]
        assert len(exchanges) == 14 * 13 * 12


class TestTichuCalls:
    """Section 3.5 and 10.13: Tichu until one's own first card; both partners may call."""

    def test_tichu_may_be_called_before_and_after_the_exchange(self) -> None:
        state = decide_all(fresh()).apply(0, CallTichu())
        state = exchange_lowest(state).apply(2, CallTichu())
        assert state.calls[0] == TICHU and state.calls[2] == TICHU

    def test_not_during_the_grand_tichu_decision(self) -> None:
        assert rejection(fresh(), 0, CallTichu()) == "wrong_phase"

    def test_not_twice_and_not_after_grand_tichu(self) -> None:
        state = decide_all(fresh(), grand=(1,)).apply(0, CallTichu())
        assert rejection(state, 0, CallTichu()) == "already_called"
        assert rejection(state, 1, CallTichu()) == "already_called"

    def test_passing_keeps_the_right_to_call_but_playing_a_card_ends_it(self) -> None:
        full = "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj Dragon"
        state = table_state("MahJong 2s", full, "3s", "4s")
        state = passes(play(state, 0, "MahJong"), 1)
        assert CallTichu() in state.legal_actions(1)
        state = state.apply(1, CallTichu())
        assert state.calls[1] == TICHU
        played = table_state("2s 3s", full, "4s", "5s", turn=1)
        played = play(played, 1, "2j")
        assert rejection(played, 1, CallTichu()) == "already_played"

    def test_a_call_is_not_turn_bound(self) -> None:
        state = exchange_lowest(decide_all(fresh()))
        assert state.to_move == 2
        assert state.apply(0, CallTichu()).calls[0] == TICHU


class TestTricks:
    """Section 4 and 10.10: answers, passes, and the end of a trick."""

    def test_the_leader_cannot_pass(self) -> None:
        assert rejection(table_state("9j", "2s", "3s", "4s"), 0, Pass()) == "must_lead"

    def test_only_the_player_on_turn_plays_a_non_bomb(self) -> None:
        state = play(table_state("9j 2j", "Ts", "Js", "Qs"), 0, "9j")
        assert rejection(state, 2, Play(cards=("Js",))) == "not_your_turn"
        assert rejection(state, 2, Pass()) == "not_your_turn"

    def test_an_answer_must_be_the_same_type_and_higher(self) -> None:
        state = play(table_state("9j 2j", "Ts Js Jp", "3s", "4s"), 0, "9j")
        assert rejection(state, 1, Play(cards=("Js", "Jp"))) == "does_not_beat"
        assert rejection(state, 1, Play(cards=("Ts", "Js"))) == "not_a_combination"
        assert rejection(state, 1, Play(cards=("Ah",))) == "bad_cards"
        assert rejection(state, 1, Play(cards=("Aj",))) == "not_in_hand"

    def test_listing_the_legal_actions_changes_no_verdict(self) -> None:
        """`apply` reads an action listed by `legal_actions` without checking it again; any
        other action right after the listing is still checked in full."""

        class Always(Play, frozen=True):
            def __eq__(self, other: object) -> bool:
                return True

            __hash__ = Play.__hash__

        state = play(table_state("9j 2j", "Ts Js Jp", "3s", "4s"), 0, "9j")
        listed = state.legal_actions(1)
        assert rejection(state, 1, Always(cards=("Jp", "Js"))) == "does_not_beat"
        assert rejection(state, 1, Play(cards=("Aj",))) == "not_in_hand"
        assert rejection(state, 2, Pass()) == "not_your_turn"
        state.legal_actions(1)
        assert rejection(state.apply(1, listed[0]), 1, listed[0]) == "not_in_hand"
        assert state.apply(1, Play(cards=("Js",))) == state.apply(1, listed[1])

    def test_passing_does_not_exclude_from_the_trick(self) -> None:
        state = table_state("9j 2j", "Ts Aj", "Js", "Qs")
        state = passes(play(state, 0, "9j"), 1)
        state = passes(play(play(state, 2, "Js"), 3, "Qs"), 0)
        assert state.to_move == 1
        assert play(state, 1, "Aj").owner == 1

    def test_the_trick_ends_after_all_other_players_holding_cards_passed(self) -> None:
        state = table_state("9j 2j", "", "Js 3s", "Qs 4s", out=(1,))
        state = passes(play(state, 0, "9j"), 2, 3)
        assert state.closed and state.to_move == 0

    def test_the_winner_leads_and_takes_the_trick(self) -> None:
        state = passes(play(table_state("9j 2j", "3s", "4s", "5s"), 0, "9j"), 1, 2, 3)
        state = play(state, 0, "2j")
        assert state.won[0] & parse_cards("9j")

    def test_when_the_winner_went_out_the_next_player_with_cards_leads(self) -> None:
        state = table_state("9j", "3s", "4s 6s", "5s 7s")
        state = passes(play(state, 0, "9j"), 1, 2, 3)
        assert state.finish == (0,)
        assert state.to_move == 1
        state = play(state, 1, "3s")
        assert state.won[0] & parse_cards("9j"), "the trick still belongs to its winner"

    def test_after_a_play_the_next_player_holding_cards_answers(self) -> None:
        state = play(table_state("9j 2j", "", "Js", "Qs", out=(1,)), 0, "9j")
        assert state.to_move == 2


class TestRoundEnd:
    """Sections 3.7, 8, 9 and 10.11: the round ends at a double victory or the third player out."""

    def test_a_double_victory_ends_the_round_at_once_even_mid_trick(self) -> None:
        state = table_state("9j", "2s Aj", "", "4s 5s", out=(2,))
        state = play(state, 0, "9j")  # seat 1 could still beat the 9: no matter
        assert state.round_index == 1
        assert state.rounds[-1].double_victory
        assert state.rounds[-1].points[0] == 200

    def test_the_third_player_out_ends_the_round_at_once(self) -> None:
        state = table_state("9j", "", "Js 3s", "", out=(1, 3))
        state = play(state, 0, "9j")
        assert state.round_index == 1
        assert state.rounds[-1].finish == (1, 3, 0)
