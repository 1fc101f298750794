"""House rules offered as options (docs/skat-rules.md sections 3.3 Ramsch and Schieberamsch,
3.4 Kontra/Re) and the 4-table of ISkO 3.2 (the dealer sits out and still collects Fabian
points)."""

import random

import pytest

from engine.errors import IllegalAction
from engine.skat.actions import Bid, Declare, Discard, Hold, Kontra, Pass, PickUpSkat, Play, Re
from engine.skat.cards import card_points, format_cards
from engine.skat.rules import Rules
from engine.skat.scoring import ramsch_scores
from engine.skat.state import State, new_game
from tests.engine.skat.helpers import deal_state, declared, run


def play_out(state: State, seed: int = 0) -> State:
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
        state = state.apply(seat, rng.choice(plays))
    return state


class TestKontraRe:
    """Kontra/Re (house rule): a defender who took part in the bidding doubles before his
    first card; the declarer redoubles before his next card. Off by default."""

    def kontra_table(self) -> State:
        # Middlehand bid 18 and forehand held: both took part; rearhand passed silently.
        state = deal_state(rules=Rules(kontra=True))
        state = run(state, (1, Bid(18)), (0, Hold()), (1, Bid(20)), (0, Pass()), (2, Pass()))
        return state.apply(1, Declare("grand"))

    def test_off_by_default(self) -> None:
        state = declared(1, Declare("grand"))
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Kontra())
        assert error.value.code == "kontra_not_played"

    def test_only_a_defender_who_bid_may_say_kontra(self) -> None:
        state = self.kontra_table()
        assert Kontra() in state.legal_actions(0)
        assert Kontra() not in state.legal_actions(2)  # rearhand passed without a word
        assert Kontra() not in state.legal_actions(1)  # the declarer

    def test_kontra_and_re_double_twice(self) -> None:
        state = self.kontra_table().apply(0, Kontra())
        assert Re() in state.legal_actions(1)
        state = play_out(state.apply(1, Re()))
        result = state.result
        assert result.kontra == 2
        base = result.game_value if result.won else -2 * result.game_value
        assert result.list_value == 4 * base

    def test_kontra_too_late_after_the_first_card(self) -> None:
        state = self.kontra_table().apply(0, Play("JC"))
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Kontra())
        assert error.value.code == "kontra_too_late"


class TestRamsch:
    """Ramsch (house rule): after all pass, everybody plays alone with jacks as trumps; the
    skat goes to the winner of the last trick; the most points lose."""

    @pytest.mark.parametrize("seed", range(5))
    def test_a_played_out_ramsch_scores_the_loser(self, seed: int) -> None:
        state = new_game(Rules(all_pass="ramsch"), seed=seed)
        state = run(state, (1, Pass()), (2, Pass()), (0, Pass()))
        state = play_out(state, seed)
        result = state.result
        assert result.ramsch and result.declarer is None
        assert sum(1 for v in result.seeger_fabian if v != 0) >= 1
        assert min(result.seeger_fabian) < 0 or max(result.seeger_fabian) == 120


class TestFourTable:
    """ISkO 3.2 and SkWO 6.3.1: at a 4-table the dealer sits out but gets 30 Fabian points
    when the declarer loses, like each defender."""

    def test_dealer_sits_out_and_collects_fabian_points(self) -> None:
        state = new_game(Rules(players=4), seed=3, dealer=0)
        fh, mh, hh = state.active_seats
        assert (fh, mh, hh) == (1, 2, 3)
        state = run(state, (mh, Bid(18)), (fh, Pass()), (hh, Pass()))
        state = state.apply(mh, Declare("null", ouvert=True))
        state = play_out(state)
        result = state.result
        assert len(result.seeger_fabian) == 4
        if result.won:
            assert result.seeger_fabian == (0, 0, 59 + 50, 0)
        else:
            assert result.seeger_fabian == (30, 30, -118 - 50, 30)

    def test_the_sitting_out_dealer_sees_the_public_view(self) -> None:
        state = new_game(Rules(players=4), seed=3, dealer=0)
        view = state.observation(0)
        assert view.hand == () and view.legal == ()
        assert view == state.observation(None).__class__(
            **{**_fields(state.observation(None)), "seat": 0}
        )


def _fields(obs: object) -> dict[str, object]:
    import msgspec

    return msgspec.structs.asdict(obs)  # type: ignore[arg-type]


class TestSchieberamsch:
    """Schieberamsch (house rule, docs/skat-rules.md section 3.3): after all pass, forehand,
    middlehand and rearhand in turn pick up the skat and push two cards (never a jack) on, or
    pass it on unseen; each push doubles the Ramsch."""

    def all_passed(self) -> State:
        state = deal_state(rules=Rules(all_pass="schieberamsch"))
        return run(state, (1, Pass()), (2, Pass()), (0, Pass()))

    def test_forehand_begins_and_may_pick_up_or_pass_it_on(self) -> None:
        state = self.all_passed()
        assert state.phase == "push" and state.to_move == 0 and state.ramsch
        assert state.legal_actions(0) == [PickUpSkat(), Pass()]
        assert state.legal_actions(1) == []
        passed = state.apply(0, Pass())
        assert passed.to_move == 1 and passed.pushes == 0 and passed.skat == state.skat

    def test_a_pick_up_pushes_two_cards_but_no_jack(self) -> None:
        state = self.all_passed().apply(0, PickUpSkat())
        assert len(state.observation(0).hand) == 12
        pushes = state.legal_actions(0)
        assert pushes and all(isinstance(a, Discard) for a in pushes)
        assert not any(c.startswith("J") for a in pushes for c in a.cards)  # type: ignore[union-attr]
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Discard(("JC", "AC")))
        assert error.value.code == "no_jacks_pushed"
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Pass())
        assert error.value.code == "push_two_cards"
        pushed = state.apply(0, Discard(("AC", "TC")))
        assert pushed.pushes == 1 and pushed.to_move == 1
        assert format_cards(pushed.skat) == ["AC", "TC"]
        assert pushed.observation(1).history[-1].action is None  # the pushed cards stay hidden
        assert pushed.observation(0).history[-1].action == Discard(("AC", "TC"))

    def test_after_rearhand_forehand_leads_the_ramsch_with_doubled_scores(self) -> None:
        state = self.all_passed().apply(0, PickUpSkat()).apply(0, Discard(("AC", "TC")))
        state = state.apply(1, PickUpSkat())
        assert {"AC", "TC"} <= set(state.observation(1).hand)
        state = state.apply(1, Discard(("AC", "TC"))).apply(2, Pass())
        assert state.phase == "play" and state.to_move == 0 and state.pushes == 2
        assert all(len(state.observation(s).hand) == 10 for s in range(3))
        final = play_out(state, 3)
        taken = list(final.taken)
        taken[final.tricks[-1].winner] |= final.skat  # the skat goes with the last trick
        points = tuple(card_points(taken[s]) for s in final.active_seats)
        tricks = tuple(sum(1 for t in final.tricks if t.winner == s) for s in final.active_seats)
        assert final.result.ramsch and final.result.pushes == 2
        assert final.result.seeger_fabian == ramsch_scores(points, tricks, 2)

    def test_each_push_doubles_case_by_case(self) -> None:
        # docs/skat-rules.md section 3.3: S1-S3.
        assert ramsch_scores((40, 50, 30), (3, 4, 3), 2) == (0, -200, 0)
        assert ramsch_scores((70, 50, 0), (6, 4, 0), 1) == (-280, 0, 0)
        assert ramsch_scores((120, 0, 0), (10, 0, 0), 1) == (240, 0, 0)
