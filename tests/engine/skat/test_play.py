"""ISkO 4.1-4.3 (lead, following suit, tricks); early ends as docs/iss-format.md section 4."""

import pytest

from engine.errors import IllegalAction
from engine.skat.actions import Declare, Play
from engine.skat.cards import format_cards
from tests.engine.skat.helpers import deal_state, declared, run

# Middlehand holds the jack of hearts but no other heart; rearhand holds hearts and jacks.
VOID_FH = "AH TH KH 7C 8C 9C AC TC KC QC"
VOID_MH = "JH 7S 8S 9S QS KS TS AS 7D 8D"
VOID_HH = "QH 9H 8H 7H JC JS JD AD TD KD"
VOID_SKAT = "QD 9D"

# Forehand: aces, kings, queens; middlehand: tens and nines; rearhand: eights, sevens, two jacks.
HIGH_FH = "AC AS AH AD KC KS KH KD QC QS"
HIGH_MH = "TC TS TH TD QH QD 9C 9S 9H 9D"
HIGH_HH = "7C 7S 7H 7D 8C 8S 8H 8D JC JS"
HIGH_SKAT = "JH JD"


def void_deal(game: Declare) -> object:
    return declared(1, game, state=deal_state(VOID_FH, VOID_MH, VOID_HH, VOID_SKAT))


def legal_cards(state: object, seat: int) -> list[str]:
    return [a.card for a in state.legal_actions(seat) if isinstance(a, Play)]  # type: ignore[attr-defined]


class TestLead:
    """ISkO 4.1.1: forehand leads the first trick, whoever is declarer."""

    @pytest.mark.parametrize("declarer", [0, 1, 2])
    def test_forehand_leads_the_first_trick(self, declarer: int) -> None:
        state = declared(declarer, Declare("grand"))
        assert state.phase == "play" and state.to_move == 0

    def test_the_trick_winner_leads_the_next_trick(self) -> None:
        state = void_deal(Declare("spades"))
        state = run(state, (0, Play("AH")), (1, Play("7S")), (2, Play("QH")))
        assert state.tricks[-1].winner == 1 and state.to_move == 1


class TestFollowingSuit:
    """ISkO 4.2: follow the led suit; jacks belong to the trumps in suit and grand games and
    to their printed suit in null (docs/skat-rules.md 10.2); no duty to trump or to overtake."""

    def test_jack_of_hearts_is_no_heart_in_a_spades_game(self) -> None:
        state = run(void_deal(Declare("spades")), (0, Play("AH")))
        assert sorted(legal_cards(state, 1)) == sorted(VOID_MH.split())

    def test_holder_of_hearts_must_follow_with_hearts_not_jacks(self) -> None:
        state = run(void_deal(Declare("spades")), (0, Play("AH")), (1, Play("7D")))
        assert sorted(legal_cards(state, 2)) == sorted(["QH", "9H", "8H", "7H"])
        with pytest.raises(IllegalAction) as error:
            state.apply(2, Play("JC"))
        assert error.value.code == "must_follow_suit"

    def test_jack_of_hearts_follows_hearts_in_null(self) -> None:
        state = run(void_deal(Declare("null")), (0, Play("AH")))
        assert legal_cards(state, 1) == ["JH"]

    def test_a_jack_lead_asks_for_trumps(self) -> None:
        state = deal_state(VOID_FH, VOID_MH, VOID_HH, VOID_SKAT)
        state = declared(2, Declare("grand"), state=state)
        state = run(state, (0, Play("7C")), (1, Play("JH")), (2, Play("JC")))
        assert state.tricks[-1].winner == 2
        state = state.apply(2, Play("JS"))
        assert legal_cards(state, 0) == format_cards(state.hands[0])  # no trump: any card

    def test_no_duty_to_overtake(self) -> None:
        state = run(void_deal(Declare("spades")), (0, Play("AH")), (1, Play("7D")))
        assert "7H" in legal_cards(state, 2)

    def test_playing_out_of_turn_is_rejected(self) -> None:
        state = void_deal(Declare("spades"))
        with pytest.raises(IllegalAction) as error:
            state.apply(1, Play("7S"))
        assert error.value.code == "not_your_turn"

    def test_a_card_not_held_is_rejected(self) -> None:
        with pytest.raises(IllegalAction) as error:
            void_deal(Declare("spades")).apply(0, Play("JC"))
        assert error.value.code == "not_in_hand"


class TestTricks:
    """ISkO 4.3: the highest trump wins, else the highest card of the led suit; ten ranks
    above king outside null, below jack in null."""

    def test_trump_beats_the_led_suit(self) -> None:
        state = run(void_deal(Declare("spades")), (0, Play("AH")), (1, Play("7S")), (2, Play("7H")))
        assert state.tricks[0].winner == 1

    def test_off_suit_card_never_wins(self) -> None:
        state = run(void_deal(Declare("hearts")), (0, Play("7C")), (1, Play("AS")), (2, Play("AD")))
        assert state.tricks[0].winner == 0

    def test_ten_beats_king_in_suit_games_but_not_in_null(self) -> None:
        grand = declared(
            0, Declare("grand"), state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT)
        )
        grand = run(grand, (0, Play("KC")), (1, Play("TC")), (2, Play("7C")))
        assert grand.tricks[0].winner == 1
        null = declared(0, Declare("null"), state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT))
        null = run(null, (0, Play("KC")), (1, Play("TC")), (2, Play("7C")))
        assert null.tricks[0].winner == 0

    def test_a_full_deal_ends_after_ten_tricks_with_all_points_placed(self) -> None:
        state = declared(0, Declare("grand"))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state = state.apply(seat, Play(legal_cards(state, seat)[0]))
        assert len(state.tricks) == 10 and state.ended_by == "played_out"
        result = state.result
        assert 0 <= result.declarer_points <= 120


class TestEarlyEnds:
    """ISkO 5.2.7 / docs/iss-format.md section 4: null ends at the declarer's first trick; an
    announced schwarz at the defenders' first trick; an announced schneider once they pass 30."""

    def test_null_ends_when_the_declarer_takes_a_trick(self) -> None:
        state = declared(0, Declare("null"), state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT))
        state = run(state, (0, Play("AC")), (1, Play("TC")), (2, Play("7C")))
        assert state.is_over and state.ended_by == "null_trick"
        assert state.result.won is False and state.result.list_value == -70

    def test_announced_schneider_is_lost_once_the_defenders_pass_30(self) -> None:
        state = declared(
            2,
            Declare("grand", schneider=True),
            state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT),
        )
        state = run(state, (0, Play("AC")), (1, Play("TC")), (2, Play("7C")))
        assert not state.is_over
        state = run(state, (0, Play("AS")), (1, Play("TS")), (2, Play("7S")))
        assert state.is_over and state.ended_by == "schneider_broken"
        result = state.result
        # with 4 (JC JS in hand, JH JD in the skat), game, hand, schneider, announced: 8 x 24.
        assert (result.matadors, result.won, result.list_value) == (4, False, -384)
        assert not result.schwarz

    def test_announced_schwarz_is_lost_at_the_first_defender_trick(self) -> None:
        state = declared(
            2,
            Declare("grand", schneider=True, schwarz=True),
            state=deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT),
        )
        state = run(state, (0, Play("AC")), (1, Play("TC")), (2, Play("7C")))
        assert state.is_over and state.ended_by == "schwarz_broken"
        assert state.result.list_value == -2 * 24 * 10
