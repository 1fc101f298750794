"""The jitted solver against the reference on larger positions, with every technique switched
off in turn, and with one warm table kept across many worlds."""

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInput
from engine.skat.deal import deal_from_seed
from engine.skat.solver import Options, Position, Solver, SolveResult, Target, solve
from engine.skat.solver import reference as ref
from tests.engine.skat.solver.answers import assert_same_answer
from tests.engine.skat.solver.strategies import positions, targets
from tests.jit import needs_jit

MODES = ("win", "value", "moves", "best")


def _answer(result: SolveResult) -> SolveResult:
    return msgspec.structs.replace(result, nodes=0)


@st.composite
def questions(draw: st.DrawFn, max_cards: int) -> tuple[Position, str, Target]:
    position = draw(positions(max_cards=max_cards))
    return position, draw(st.sampled_from(MODES)), draw(targets(position))


@settings(max_examples=500, deadline=None)
@given(question=questions(max_cards=4))
def test_jitted_solver_matches_the_reference(question: tuple[Position, str, Target]) -> None:
    position, mode, target = question
    assert_same_answer(solve(position, mode, target), ref.solve(position, mode, target), position)


VARIANTS = [
    *({name: False} for name in Options.__struct_fields__ if name != "value_driver"),
    {"value_driver": "mtd"},
    {"value_driver": "bisection"},
    {"value_driver": "window"},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v.items())))
@settings(max_examples=60, deadline=None)
@given(question=questions(max_cards=4))
def test_switching_a_technique_off_changes_no_answer(
    variant: dict[str, object], question: tuple[Position, str, Target]
) -> None:
    position, mode, target = question
    solver = Solver(Options(**variant), table_bits=12)
    expected = ref.solve(position, mode, target)
    assert_same_answer(solver.solve(position, mode, target), expected, position)


@settings(max_examples=40, deadline=None)
@given(question=st.lists(questions(max_cards=4), min_size=5, max_size=25))
def test_a_warm_table_gives_the_same_answers(
    question: list[tuple[Position, str, Target]],
) -> None:
    solver = Solver(table_bits=10)  # tiny: many slot collisions between worlds
    for position, mode, target in question:
        got = solver.solve(position, mode, target)
        assert_same_answer(got, ref.solve(position, mode, target), position)


@needs_jit
def test_a_world_solved_trick_after_trick_reuses_the_table() -> None:
    deal = deal_from_seed(11)
    position = Position.from_deal(deal.hands, deal.skat, "hearts", declarer=1, leader=0)
    solver = Solver()
    fresh = solver.solve(position, "value")
    again = solver.solve(position, "value")
    assert again.declarer_points == fresh.declarer_points
    assert again.nodes < fresh.nodes
    moves = solver.solve(position, "best").moves
    best = min(moves, key=lambda m: (m.declarer_points or 0, not m.exact))  # forehand defends
    after = ref.play(position, best.cards[0])
    assert solver.solve(after, "value").declarer_points == fresh.declarer_points


def test_many_worlds_wrap_the_stamp_and_stay_correct() -> None:
    solver = Solver(table_bits=10)
    deal = deal_from_seed(3)
    hands = deal.hands
    for i in range(1100):  # more worlds than stamps: the table is cleared on wrap-around
        rotated = (hands[i % 3], hands[(i + 1) % 3], hands[(i + 2) % 3])
        small = tuple(h & 0x0F0F0F0F for h in rotated)
        sizes = {bin(h).count("1") for h in small}
        if len(sizes) != 1:
            continue
        position = Position((small[0], small[1], small[2]), "grand", i % 3, (i // 3) % 3)
        assert _answer(solver.solve(position, "value")) == _answer(ref.solve(position, "value"))


@pytest.mark.parametrize(
    ("mode", "target"), [("fast", None), ("win", -1), ("win", 121), ("win", "all")]
)
def test_bad_questions_are_rejected(mode: str, target: Target) -> None:
    deal = deal_from_seed(1)
    position = Position.from_deal(deal.hands, deal.skat, "clubs", declarer=0)
    with pytest.raises(InvalidInput):
        solve(position, mode, target)


def test_null_takes_no_target() -> None:
    deal = deal_from_seed(1)
    position = Position.from_deal(deal.hands, deal.skat, "null", declarer=0)
    with pytest.raises(InvalidInput):
        solve(position, "win", 61)


def test_table_size_is_bounded() -> None:
    with pytest.raises(InvalidInput):
        Solver(table_bits=30)
