"""What a seat sees (docs/conventions.md sections 3 and 5): own cards, public plays, calls,
hand sizes, the wish and its own legal actions; a spectator sees the public part only."""

from engine.tichu.actions import CallTichu, Event, Exchange, Pass, Play
from engine.tichu.rules import Rules
from engine.tichu.state import new_game
from tests.engine.tichu.helpers import (
    decide_all,
    exchange_lowest,
    ordered_deal,
    play,
    table_state,
)


class TestContents:
    """The observation fields in each phase."""

    def test_a_spectator_sees_no_cards_and_has_no_actions(self) -> None:
        obs = new_game(Rules(), deal=ordered_deal()).observation(None)
        assert obs.hand == ()
        assert obs.legal == ()
        assert obs.hand_sizes == (8, 8, 8, 8)

    def test_a_seat_sees_its_eight_cards_before_the_grand_tichu_decision(self) -> None:
        obs = new_game(Rules(), deal=ordered_deal()).observation(0)
        assert obs.hand == ("Dog", "MahJong", "2j", "2s", "2p", "2t", "3j", "3s")
        assert obs.phase == "grand_tichu" and obs.to_move is None

    def test_own_passes_are_seen_at_once_received_cards_after_all_passed(self) -> None:
        state = exchange_lowest(decide_all(new_game(Rules(), deal=ordered_deal())), seats=(0,))
        obs = state.observation(0)
        assert obs.given == Exchange(left="2j", partner="MahJong", right="Dog")
        assert obs.received is None
        assert obs.exchanged == (True, False, False, False)
        assert not obs.must_exchange and state.observation(1).must_exchange
        state = exchange_lowest(state, seats=(1, 2, 3))
        received = state.observation(0).received
        assert received is not None
        assert (received.right, received.partner, received.left) == ("4j", "5t", "7p")

    def test_public_plays_calls_and_the_wish_are_seen_by_everyone(self) -> None:
        full = "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj Dragon"
        state = table_state("MahJong 9s", "2s 3s", full, "5s").apply(2, CallTichu())
        state = play(state, 0, "MahJong", wish="8")
        obs = state.observation(None)
        assert obs.calls == ("none", "none", "tichu", "none")
        assert obs.history == (
            Event(seat=2, action=CallTichu()),
            Event(seat=0, action=Play(cards=("MahJong",), wish="8")),
        )
        assert obs.table == ("MahJong",) and obs.table_seat == 0
        assert obs.wish == "8"
        assert obs.hand_sizes == (1, 2, 14, 1)

    def test_the_observation_lists_the_seats_own_legal_actions(self) -> None:
        state = play(table_state("MahJong 9j", "2s 3s", "4s", "5s"), 0, "MahJong")
        obs = state.observation(1)
        assert set(obs.legal) == {Play(cards=("2s",)), Play(cards=("3s",)), Pass()}
        assert obs.to_move == 1
        assert state.observation(3).legal == ()

    def test_the_trick_and_a_closed_trick_are_visible(self) -> None:
        state = play(table_state("9j 2j", "3s", "4s", "5s"), 0, "9j")
        for seat in (1, 2, 3):
            state = state.apply(seat, Pass())
        obs = state.observation(None)
        assert obs.trick_closed
        assert [event.seat for event in obs.trick] == [0, 1, 2, 3]
