"""ISkO 3.3 (bidding) and 3.2 (seats): docs/skat-rules.md section 3."""

import pytest

from engine.errors import IllegalAction
from engine.skat.actions import Bid, Declare, Hold, Pass, PickUpSkat
from engine.skat.rules import BID_VALUES, Rules
from engine.skat.state import new_game
from tests.engine.skat.helpers import deal_state, run


class TestBidValues:
    """ISkO 3.3.1-3.3.2: a bid is a value some declaration can reach."""

    def test_there_are_63_bid_values_from_18_to_264(self) -> None:
        assert len(BID_VALUES) == 63
        assert BID_VALUES[0] == 18 and BID_VALUES[-1] == 264
        assert BID_VALUES[:10] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)

    def test_a_value_no_game_can_reach_is_rejected(self) -> None:
        with pytest.raises(IllegalAction) as error:
            deal_state().apply(1, Bid(19))
        assert error.value.code == "not_a_bid_value"

    def test_jump_bids_are_legal(self) -> None:
        state = deal_state().apply(1, Bid(48))
        assert state.bid == 48 and state.to_move == 0


class TestBiddingOrder:
    """ISkO 3.3.3-3.3.6: middlehand bids to forehand, then rearhand to the survivor."""

    def test_middlehand_bids_first_to_forehand(self) -> None:
        state = deal_state()
        assert state.to_move == 1
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Bid(18))
        assert error.value.code == "not_your_turn"

    def test_forehand_only_holds_or_passes(self) -> None:
        state = deal_state().apply(1, Bid(18))
        assert state.legal_actions(0) == [Pass(), Hold()]

    def test_the_junior_must_raise_the_senior_only_equal(self) -> None:
        state = run(deal_state(), (1, Bid(20)), (0, Hold()))
        with pytest.raises(IllegalAction) as error:
            state.apply(1, Bid(20))
        assert error.value.code == "bid_too_low"

    def test_rearhands_first_bid_must_exceed_what_was_held(self) -> None:
        state = run(deal_state(), (1, Bid(22)), (0, Hold()), (1, Pass()))
        assert state.to_move == 2
        with pytest.raises(IllegalAction):
            state.apply(2, Bid(22))
        assert state.apply(2, Bid(23)).bid == 23

    def test_auction_a_rearhand_declares_at_23(self) -> None:
        state = run(
            deal_state(),
            (1, Bid(18)), (0, Hold()), (1, Bid(20)), (0, Hold()), (1, Pass()),
            (2, Bid(22)), (0, Hold()), (2, Bid(23)), (0, Pass()),
        )  # fmt: skip
        assert (state.phase, state.declarer, state.bid) == ("skat", 2, 23)

    def test_auction_b_rearhand_at_18_after_middlehand_passed(self) -> None:
        state = run(deal_state(), (1, Pass()), (2, Bid(18)), (0, Pass()))
        assert (state.declarer, state.bid) == (2, 18)

    def test_auction_c_middlehand_at_18(self) -> None:
        state = run(deal_state(), (1, Bid(18)), (0, Pass()), (2, Pass()))
        assert (state.declarer, state.bid) == (1, 18)

    def test_auction_d_forehand_at_18(self) -> None:
        state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
        assert (state.declarer, state.bid) == (0, 18)

    def test_forehand_may_play_after_two_passes_without_bids(self) -> None:
        state = run(deal_state(), (1, Pass()), (2, Pass()))
        assert state.phase == "bidding" and state.to_move == 0
        assert Hold() not in state.legal_actions(0)
        played = state.apply(0, Bid(18))
        assert (played.phase, played.declarer, played.bid) == ("skat", 0, 18)


class TestAllPass:
    """ISkO 3.3.7: all three pass - the deal is thrown in (Ramsch only as a house rule)."""

    def test_auction_e_all_pass_throws_the_deal_in(self) -> None:
        state = run(deal_state(), (1, Pass()), (2, Pass()), (0, Pass()))
        assert state.is_over
        result = state.result
        assert result.passed_in and result.declarer is None
        assert result.seeger_fabian == (0, 0, 0)

    def test_ramsch_option_plays_the_deal_with_jacks_as_trumps(self) -> None:
        state = run(
            deal_state(rules=Rules(all_pass="ramsch")), (1, Pass()), (2, Pass()), (0, Pass())
        )
        assert state.phase == "play" and state.ramsch and state.game == "grand"
        assert state.to_move == 0


class TestBidsAreIrrevocable:
    """ISkO 3.3.8: bidding, holding and passing cannot be taken back; a passed player is out."""

    def test_a_player_who_passed_cannot_bid_again(self) -> None:
        state = run(deal_state(), (1, Pass()))
        with pytest.raises(IllegalAction) as error:
            state.apply(1, Bid(18))
        assert error.value.code == "not_your_turn"

    def test_the_declarer_chooses_skat_or_hand_after_the_bidding(self) -> None:
        state = run(deal_state(), (1, Bid(18)), (0, Pass()), (2, Pass()))
        legal = state.legal_actions(1)
        assert PickUpSkat() in legal and Declare("grand", schneider=True) in legal
        assert state.legal_actions(0) != legal


class TestSeats:
    """ISkO 3.2: forehand is left of the dealer; at a 4-table the dealer sits out."""

    def test_three_table_dealer_is_rearhand(self) -> None:
        state = new_game(Rules(), seed=1, dealer=0)
        assert state.active_seats == (1, 2, 0)
        assert state.to_move == 2

    def test_four_table_dealer_sits_out(self) -> None:
        state = new_game(Rules(players=4), seed=1, dealer=1)
        assert state.active_seats == (2, 3, 0)
        assert state.hands[1] == 0
        assert state.legal_actions(1) == []
        with pytest.raises(IllegalAction) as error:
            state.apply(1, Pass())
        assert error.value.code == "not_a_player"
