"""The pure-Python reference checks itself: memoised search against brute force, and the
equivalence groups it reports really have equal values."""

from hypothesis import given, settings

from engine.skat.cards import parse_card, parse_cards
from engine.skat.solver import Position
from engine.skat.solver import reference as ref
from engine.skat.solver.position import KIND_NULL, KIND_POINTS, KIND_SCHWARZ
from tests.engine.skat.solver.strategies import positions


def _kinds(position: Position) -> tuple[int, ...]:
    return (KIND_NULL,) if position.game == "null" else (KIND_POINTS, KIND_SCHWARZ)


@settings(max_examples=300, deadline=None)
@given(position=positions(max_cards=3))
def test_memoised_search_matches_brute_force(position: Position) -> None:
    for kind in _kinds(position):
        assert ref.future_value(position, kind)[0] == ref.brute_force(position, kind)


@settings(max_examples=300, deadline=None)
@given(position=positions(max_cards=4))
def test_grouped_cards_have_equal_values(position: Position) -> None:
    for kind in _kinds(position):
        for group in ref.equivalent_groups(position, kind):
            values = {ref.future_value(ref.play(position, c), kind)[0] for c in group}
            assert len(values) == 1


def test_play_banks_the_trick_for_its_winner() -> None:
    position = Position(
        hands=(parse_cards("7D"), parse_cards("AD 8C"), parse_cards("KD 9C")),
        game="grand",
        declarer=2,
        leader=0,
        trick=(parse_card("TD"),),
    )
    after = ref.play(ref.play(position, parse_card("AD")), parse_card("KD"))
    assert after.leader == 1
    assert after.trick == ()
    assert (after.declarer_points, after.declarer_tricks, after.defender_tricks) == (0, 0, 1)
    assert after.hands == (parse_cards("7D"), parse_cards("8C"), parse_cards("9C"))


def test_null_groups_follow_the_null_order() -> None:
    # Null: J sits between T and Q, so TC JC are neighbours once no card lies between them.
    position = Position(
        hands=(parse_cards("TC JC 7H"), parse_cards("QC AH 8H"), parse_cards("9C KH 9H")),
        game="null",
        declarer=0,
        leader=0,
    )
    groups = ref.equivalent_groups(position, KIND_NULL)
    assert (parse_card("JC"), parse_card("TC")) in groups
