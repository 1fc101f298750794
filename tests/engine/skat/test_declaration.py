"""ISkO 2.1-2.2 (game classes), 3.4 (announcement) and 3.6.2 (null above the bid)."""

import pytest

from engine.errors import IllegalAction
from engine.skat.actions import Bid, Declare, Discard, Hold, Pass, PickUpSkat
from engine.skat.cards import format_cards
from tests.engine.skat.helpers import deal_state, run


def after_bidding(bid: int = 18) -> object:
    state = run(deal_state(), (1, Bid(bid)), (0, Hold()), (1, Pass()), (2, Pass()))
    assert state.phase == "skat" and state.declarer == 0
    return state


class TestHandOrSkat:
    """ISkO 2.2: the declarer picks up the skat and discards any two cards, or plays hand."""

    def test_hand_declarations_offer_every_announcement(self) -> None:
        legal = after_bidding().legal_actions(0)  # type: ignore[attr-defined]
        declarations = [a for a in legal if isinstance(a, Declare)]
        # 5 trump games x (plain, schneider, schwarz, ouvert) + null hand + null ouvert hand.
        assert len(declarations) == 22
        assert Declare("clubs", schneider=True, schwarz=True, ouvert=True) in declarations

    def test_pickup_then_discard_any_two_cards_including_jacks(self) -> None:
        state = after_bidding().apply(0, PickUpSkat())  # type: ignore[attr-defined]
        assert state.phase == "discard" and len(format_cards(state.hands[0])) == 12
        discards = [a for a in state.legal_actions(0) if isinstance(a, Discard)]
        assert len(discards) == 66
        state = state.apply(0, Discard(("JC", "JS")))
        assert format_cards(state.skat) == ["JC", "JS"]

    def test_a_discard_has_one_spelling_higher_card_first(self) -> None:
        state = after_bidding().apply(0, PickUpSkat())  # type: ignore[attr-defined]
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Discard(("8D", "9D")))
        assert error.value.code == "discard_order"
        assert state.apply(0, Discard(("9D", "8D"))).phase == "declare"

    def test_discarding_a_card_not_held_is_rejected(self) -> None:
        state = after_bidding().apply(0, PickUpSkat())  # type: ignore[attr-defined]
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Discard(("JH", "JC")))
        assert error.value.code == "not_in_hand"

    def test_after_pickup_only_plain_games_null_and_null_ouvert(self) -> None:
        state = after_bidding().apply(0, PickUpSkat())  # type: ignore[attr-defined]
        state = state.apply(0, Discard(("9D", "8D")))
        declarations = [a for a in state.legal_actions(0) if isinstance(a, Declare)]
        assert declarations == [
            Declare("diamonds"), Declare("hearts"), Declare("spades"), Declare("clubs"),
            Declare("grand"), Declare("null"), Declare("null", ouvert=True),
        ]  # fmt: skip

    @pytest.mark.parametrize(
        "declare",
        [
            Declare("grand", schneider=True),
            Declare("grand", ouvert=True, schneider=True, schwarz=True),
        ],
    )
    def test_announcements_after_pickup_are_rejected(self, declare: Declare) -> None:
        state = after_bidding().apply(0, PickUpSkat())  # type: ignore[attr-defined]
        state = state.apply(0, Discard(("9D", "8D")))
        with pytest.raises(IllegalAction) as error:
            state.apply(0, declare)
        assert error.value.code == "bad_announcement"


class TestAnnouncementsImplyEachOther:
    """ISkO 5.2.6: ouvert implies hand, schneider and schwarz announced; schwarz implies
    schneider. The engine accepts only the normalised form and says why."""

    @pytest.mark.parametrize(
        "declare",
        [
            Declare("hearts", schwarz=True),
            Declare("grand", ouvert=True),
            Declare("null", schneider=True),
        ],
    )
    def test_incomplete_announcements_are_rejected_with_a_reason(self, declare: Declare) -> None:
        with pytest.raises(IllegalAction) as error:
            after_bidding().apply(0, declare)  # type: ignore[attr-defined]
        assert error.value.code == "bad_announcement"


class TestNullAboveTheBid:
    """ISkO 3.6.2 / docs/skat-rules.md section 7: a null below the bid is never offered."""

    @pytest.mark.parametrize(
        ("bid", "offered"),
        [
            (23, {(False,), (True,)}),
            (24, {(False,), (True,)}),
            (36, {(True,)}),
            (48, {(True,)}),
            (60, set()),
        ],
    )
    def test_null_hand_variants_by_bid(self, bid: int, offered: set[tuple[bool]]) -> None:
        legal = after_bidding(bid).legal_actions(0)  # type: ignore[attr-defined]
        nulls = {(a.ouvert,) for a in legal if isinstance(a, Declare) and a.game == "null"}
        assert nulls == offered

    def test_plain_null_after_pickup_needs_a_bid_of_at_most_23(self) -> None:
        state = after_bidding(24).apply(0, PickUpSkat())  # type: ignore[attr-defined]
        state = state.apply(0, Discard(("9D", "8D")))
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Declare("null"))
        assert error.value.code == "null_below_bid"
        assert state.apply(0, Declare("null", ouvert=True)).phase == "play"
