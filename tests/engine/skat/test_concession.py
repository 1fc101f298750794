"""ISkO 4.4 (concession, resignation) and the ISS conventions of docs/skat-rules.md section 12.3."""

import pytest

from engine.errors import IllegalAction
from engine.skat.actions import Declare, Play, Resign
from engine.skat.rules import Rules
from tests.engine.skat.helpers import deal_state, declared, run
from tests.engine.skat.test_play import HIGH_FH, HIGH_HH, HIGH_MH, HIGH_SKAT


def grand_by_forehand(rules: Rules) -> object:
    state = deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT, rules=rules)
    return declared(0, Declare("grand"), state=state)


class TestDefendersResign:
    """ISkO 4.4.3: one defender's concession ends the game for both; ISS needs both."""

    def test_one_defender_suffices_under_the_isko(self) -> None:
        state = grand_by_forehand(Rules()).apply(1, Resign())  # type: ignore[attr-defined]
        assert state.is_over and state.result.won
        # Every remaining trick goes to the declarer: 120 points, schneider and schwarz.
        assert (state.result.declarer_points, state.result.declarer_tricks) == (120, 10)
        assert state.result.schneider and state.result.schwarz

    def test_both_defenders_must_resign_with_iss_compat(self) -> None:
        state = grand_by_forehand(Rules(iss_compat=True)).apply(1, Resign())  # type: ignore[attr-defined]
        assert not state.is_over
        state = state.apply(0, Play("AC"))  # play goes on; a defender may resign out of turn
        state = state.apply(2, Resign())
        assert state.is_over and state.result.resigned and state.result.won

    def test_a_defender_cannot_resign_twice(self) -> None:
        state = grand_by_forehand(Rules(iss_compat=True)).apply(1, Resign())  # type: ignore[attr-defined]
        with pytest.raises(IllegalAction) as error:
            state.apply(1, Resign())
        assert error.value.code == "already_resigned"


class TestDeclarerConcedes:
    """ISkO 4.4.1: the declarer may give up alone while he holds nine or ten cards; the loss
    carries no schneider or schwarz against him."""

    def test_declarer_concedes_at_once(self) -> None:
        state = grand_by_forehand(Rules()).apply(0, Resign())  # type: ignore[attr-defined]
        result = state.result
        # Forehand lacks JC JS (JH JD lie in the skat): without 2, game, hand: 4 x 24, doubled.
        assert (result.won, result.matadors, result.list_value) == (False, -2, -192)
        assert not result.schneider and not result.schwarz

    def test_too_late_to_concede_alone_after_two_cards(self) -> None:
        state = grand_by_forehand(Rules())
        state = run(
            state, (0, Play("AC")), (1, Play("TC")), (2, Play("7C")),
            (0, Play("AS")), (1, Play("TS")), (2, Play("7S")),
        )  # fmt: skip
        with pytest.raises(IllegalAction) as error:
            state.apply(0, Resign())
        assert error.value.code == "too_late_to_concede"

    def test_iss_lets_the_declarer_resign_any_time(self) -> None:
        state = grand_by_forehand(Rules(iss_compat=True))
        state = run(
            state, (0, Play("AC")), (1, Play("TC")), (2, Play("7C")),
            (0, Play("AS")), (1, Play("TS")), (2, Play("7S")),
        )  # fmt: skip
        assert state.apply(0, Resign()).result.won is False


class TestDecidedStaysDecided:
    """ISkO 4.1.3: a game already won cannot be lost by a later concession (ISkO mode)."""

    def test_declarer_who_already_has_61_keeps_his_win(self) -> None:
        state = deal_state(HIGH_FH, HIGH_MH, HIGH_HH, HIGH_SKAT, rules=Rules())
        state = declared(0, Declare("grand"), state=state)
        moves = [
            ("AC", "TC", "7C"), ("AS", "TS", "7S"), ("AH", "TH", "7H"),
        ]  # fmt: skip
        for cards in moves:
            for seat, card in zip((0, 1, 2), cards, strict=True):
                state = state.apply(seat, Play(card))
        assert not state.is_over
        abandoned = state.abandon(0)
        assert abandoned.result.won is True and abandoned.result.declarer_points == 3 * 21 + 4


class TestAbandon:
    """docs/skat-rules.md section 8.4 / ISS `LE` `TI`: leaving before a contract aborts the
    deal; after it, the leaver's party gives up and the other party takes every remaining trick."""

    def test_leaving_during_the_bidding_aborts_with_a_penalty(self) -> None:
        result = deal_state().abandon(2, "timeout").result
        assert result.aborted and result.declarer is None and result.penalized == (2,)
        assert result.seeger_fabian == (0, 0, 0)

    def test_a_defender_leaving_gives_the_declarer_every_trick(self) -> None:
        result = grand_by_forehand(Rules()).abandon(2).result  # type: ignore[attr-defined]
        assert result.won and result.declarer_tricks == 10 and result.schwarz

    def test_abandon_is_not_a_move(self) -> None:
        from engine.skat.actions import Abandon

        with pytest.raises(IllegalAction) as error:
            deal_state().apply(1, Abandon())
        assert error.value.code == "not_a_move"
