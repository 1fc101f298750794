"""Both solvers against brute-force minimax on thousands of tiny positions (docs/conventions.md
section 10.5).

docs/skat-rules.md sections 1 and 6: follow the effective suit (jacks are trumps outside null),
61 card points win with the skat, schwarz is about tricks, null is lost with the first trick.
"""

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bits import iter_bits
from engine.skat.cards import follow_mask, parse_card, parse_cards
from engine.skat.solver import SCHWARZ, Position, SolveResult, Target, solve
from engine.skat.solver import reference as ref
from engine.skat.solver.position import KIND_POINTS
from engine.skat.solver.query import ask
from tests.engine.skat.solver.strategies import positions, targets

Solve = Callable[..., SolveResult]
SOLVERS = [ref.solve, solve]
EXAMPLES = settings(max_examples=1000, deadline=None)


def expected_win(position: Position, target: Target) -> bool:
    question = ask(position, "win", target)
    return ref.brute_force(position, question.kind) >= question.needed


def expected_points(position: Position) -> int | None:
    if position.game == "null":
        return None
    return position.declarer_points + ref.brute_force(position, KIND_POINTS)


def legal_cards(position: Position) -> set[int]:
    hand = position.hands[position.to_move]
    follow = hand & follow_mask(position.game, position.trick[0]) if position.trick else 0
    return set(iter_bits(follow or hand))


@st.composite
def questions(draw: st.DrawFn) -> tuple[Position, Target]:
    position = draw(positions(max_cards=3))
    return position, draw(targets(position))


@pytest.mark.parametrize("solve", SOLVERS)
class TestAgainstBruteForce:
    @EXAMPLES
    @given(question=questions())
    def test_win_answers_the_target(self, solve: Solve, question: tuple[Position, Target]) -> None:
        position, target = question
        assert solve(position, "win", target).declarer_wins == expected_win(position, target)

    @EXAMPLES
    @given(position=positions(max_cards=3))
    def test_value_is_the_exact_minimax_value(self, solve: Solve, position: Position) -> None:
        result = solve(position, "value")
        assert result.declarer_points == expected_points(position)
        assert result.declarer_wins == expected_win(position, None)

    @pytest.mark.parametrize("mode", ["moves", "best"])
    @EXAMPLES
    @given(question=questions())
    def test_moves_value_every_legal_card(
        self, solve: Solve, mode: str, question: tuple[Position, Target]
    ) -> None:
        position, target = question
        result = solve(position, mode, target)
        cards = [c for move in result.moves for c in move.cards]
        assert sorted(cards) == sorted(legal_cards(position))
        for move in result.moves:
            for card in move.cards:
                child = ref.play(position, card)
                if target is None and position.game != "null":
                    points = expected_points(child)
                    assert move.exact or mode == "best"
                    if move.exact:
                        assert move.declarer_points == points
                    else:  # a bound showing the card is no better for the mover than the best
                        bound, best = move.declarer_points, result.declarer_points
                        assert bound is not None and points is not None and best is not None
                        mover_is_declarer = position.to_move == position.declarer
                        assert (
                            points <= bound <= best
                            if mover_is_declarer
                            else best <= bound <= points
                        )
                else:
                    assert move.declarer_points is None
                assert move.declarer_wins == expected_win(child, target)
        assert result.declarer_wins == expected_win(position, target)


@pytest.mark.parametrize("solve", SOLVERS)
class TestExamples:
    def test_a_zero_point_trick_spoils_schwarz_but_not_120(self, solve: Solve) -> None:
        # Clubs, declarer 0 leads: he takes the aces and tens, the defenders the 7D trick.
        position = Position(
            hands=(parse_cards("AS TS 7D"), parse_cards("KS QS 8D"), parse_cards("9S 8S 9D")),
            game="clubs",
            declarer=0,
            leader=0,
            declarer_points=92,
        )
        assert solve(position, "win", 120).declarer_wins
        assert not solve(position, "win", SCHWARZ).declarer_wins

    def test_null_is_lost_with_the_first_trick(self, solve: Solve) -> None:
        # Null, the declarer (1) must follow 8H with 9H; rearhand has only 7H and loses it.
        position = Position(
            hands=(parse_cards("7C"), parse_cards("9H KD"), parse_cards("7H AC")),
            game="null",
            declarer=1,
            leader=0,
            trick=(parse_card("8H"),),
        )
        result = solve(position, "best")
        assert not result.declarer_wins
        assert result.declarer_points is None

    def test_jacks_are_trumps_not_suit_cards(self, solve: Solve) -> None:
        # Spades: on a heart lead JH and 7C are both legal for a player without hearts.
        position = Position(
            hands=(parse_cards("AC"), parse_cards("JH 7C"), parse_cards("8H 9D")),
            game="spades",
            declarer=1,
            leader=0,
            trick=(parse_card("AH"),),
        )
        result = solve(position, "best")
        assert {c for m in result.moves for c in m.cards} == {parse_card("JH"), parse_card("7C")}
