"""docs/tichu-rules.md section 9: round scores and the end of the match
(edge cases 10.11, 10.12, 10.13, 10.15)."""

import pytest

from engine.tichu.cards import ALL_CARDS, parse_cards
from engine.tichu.rules import Rules
from engine.tichu.scoring import GRAND, NO_CALL, TICHU, score_round
from engine.tichu.state import State
from tests.engine.tichu.helpers import passes, play, table_state

NONE = (NO_CALL, NO_CALL, NO_CALL, NO_CALL)


def piles(*texts: str) -> tuple[int, int, int, int]:
    masks = [parse_cards(t) for t in texts]
    return masks[0], masks[1], masks[2], masks[3]


class TestCardPoints:
    """Section 9 and 10.12: last player's hand to the opponents, his tricks to the first out."""

    def test_the_last_players_hand_goes_to_the_opponents(self) -> None:
        hands = piles("", "", "", "5j Kj")
        rest = ALL_CARDS & ~parse_cards("5j Kj")
        won = (0, rest, 0, 0)
        score = score_round(hands, won, (0, 1, 2), NONE)
        assert score.card_points == (15, 85)

    def test_the_last_players_tricks_go_to_the_first_player_out(self) -> None:
        hands = piles("", "", "", "2j")
        won = (ALL_CARDS & ~parse_cards("2j Dragon"), 0, 0, parse_cards("Dragon"))
        assert score_round(hands, won, (0, 1, 2), NONE).card_points == (100, 0)

    def test_the_first_player_out_may_be_the_last_players_partner(self) -> None:
        hands = piles("", "", "", "2j")
        won = (ALL_CARDS & ~parse_cards("2j Dragon"), 0, 0, parse_cards("Dragon"))
        assert score_round(hands, won, (1, 2, 0), NONE).card_points == (75, 25)

    def test_without_a_double_victory_the_teams_share_100(self) -> None:
        hands = piles("", "", "Phoenix 5s", "")
        won = (ALL_CARDS & ~parse_cards("Phoenix 5s"), 0, 0, 0)
        score = score_round(hands, won, (0, 1, 3), NONE)
        assert sum(score.card_points) == 100


class TestDoubleVictory:
    """Section 9 and 10.11: 200 to the team that went out first and second, cards not counted."""

    def test_double_victory_scores_200_to_0(self) -> None:
        hands = piles("", "Dragon 5j", "", "Kj")
        score = score_round(
            hands, (ALL_CARDS & ~parse_cards("Dragon 5j Kj"), 0, 0, 0), (2, 0), NONE
        )
        assert score.card_points == (200, 0)
        assert score.double_victory

    def test_tichu_counts_in_a_double_victory(self) -> None:
        hands = piles("", "Dragon", "", "Kj")
        calls = (TICHU, GRAND, NO_CALL, NO_CALL)
        score = score_round(hands, (0, 0, 0, 0), (0, 2), calls)
        assert score.call_points == (100, -200)
        assert score.points == (300, -200)


class TestCalls:
    """Section 9 and 10.13: +-100 Tichu, +-200 Grand Tichu, only the caller going out first wins."""

    @pytest.mark.parametrize(
        ("calls", "finish", "expected"),
        [
            ((TICHU, NO_CALL, NO_CALL, NO_CALL), (0, 1, 3), (100, 0)),
            ((TICHU, NO_CALL, NO_CALL, NO_CALL), (2, 1, 3), (-100, 0)),
            ((NO_CALL, GRAND, NO_CALL, NO_CALL), (3, 0, 2), (0, -200)),
            ((NO_CALL, GRAND, TICHU, NO_CALL), (1, 0, 2), (-100, 200)),
            ((TICHU, NO_CALL, TICHU, NO_CALL), (0, 1, 3), (0, 0)),
        ],
    )
    def test_call_points(
        self, calls: tuple[int, int, int, int], finish: tuple[int, ...], expected: tuple[int, int]
    ) -> None:
        last = next(s for s in range(4) if s not in finish)
        hands = [0, 0, 0, 0]
        hands[last] = parse_cards("2j")
        won = (ALL_CARDS & ~parse_cards("2j"), 0, 0, 0)
        score = score_round((hands[0], hands[1], hands[2], hands[3]), won, finish, calls)
        assert score.call_points == expected


def _double_victory_for_team_0(totals: tuple[int, int], rules: Rules | None = None) -> State:
    """A round ending in a double victory of seats 2 and 0 (200 points to team 0)."""
    state = table_state("9j", "2s Aj", "", "4s 5s", out=(2,), totals=totals, rules=rules)
    return play(state, 0, "9j")


class TestMatchEnd:
    """Section 9 and 10.15: rounds until a team has 1000; ties at or above it play on."""

    def test_the_match_ends_when_a_team_reaches_the_target(self) -> None:
        state = _double_victory_for_team_0((900, 500))
        assert state.is_over
        assert state.result.totals == (1100, 500)
        assert state.result.winner == 0
        assert state.legal_actions(0) == []

    def test_the_match_goes_on_below_the_target(self) -> None:
        state = _double_victory_for_team_0((700, 500))
        assert not state.is_over
        assert state.phase == "grand_tichu" and state.round_index == 1

    def test_both_teams_over_the_target_the_higher_wins(self) -> None:
        state = _double_victory_for_team_0((1000, 1150))
        assert state.is_over and state.result.winner == 0

    def test_a_tie_at_the_target_plays_another_round(self) -> None:
        state = _double_victory_for_team_0((900, 1100))
        assert state.result.totals == (1100, 1100)
        assert not state.is_over

    def test_rule_option_records_a_tie_as_a_draw(self) -> None:
        state = _double_victory_for_team_0((900, 1100), Rules(tie="draw"))
        assert state.is_over and state.result.winner is None

    def test_rule_option_limits_the_number_of_rounds(self) -> None:
        state = _double_victory_for_team_0((0, 0), Rules(max_rounds=1))
        assert state.is_over and state.result.winner == 0
        state = _double_victory_for_team_0((0, 200), Rules(max_rounds=1))
        assert state.is_over and state.result.winner is None

    def test_the_target_is_a_rule_option(self) -> None:
        state = _double_victory_for_team_0((0, 0), Rules(target_points=200))
        assert state.is_over


class TestThroughPlay:
    """Section 9: a round played to its end scores card points and calls together."""

    def test_a_called_tichu_that_goes_out_first_scores_100_plus_cards(self) -> None:
        state = table_state("9j", "2s", "3s 4s", "5s 6s", calls=("tichu", "", "", ""), spare_to=1)
        state = passes(play(state, 0, "9j"), 1, 2, 3)
        state = passes(play(play(state, 1, "2s"), 2, "4s"), 3)
        assert state.closed and state.to_move == 2
        state = play(state, 2, "3s")
        assert state.round_index == 1
        score = state.rounds[-1]
        assert score.finish == (0, 1, 2)
        assert score.call_points == (100, 0)
        assert sum(score.card_points) == 100
        assert score.points == (score.card_points[0] + 100, score.card_points[1])
