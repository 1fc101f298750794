"""Every bound the search cuts on is sound: checked against exact values of the reference on
random positions at trick boundaries (a wrong bound may stay hidden in end results)."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.skat.cards import SUIT_GAMES, card_points
from engine.skat.solver import Options, Position
from engine.skat.solver import reference as ref
from engine.skat.solver.bounds import cheapest, quick_value, side_bound, sure_value
from engine.skat.solver.null import null_safe
from engine.skat.solver.position import (
    KIND_NULL,
    KIND_POINTS,
    KIND_SCHWARZ,
    R_PTS,
    pack,
    rules_table,
)
from tests.engine.skat.solver.strategies import positions

BOUNDS = settings(max_examples=800, deadline=None)


def _in_play(position: Position, kind: int) -> int:
    if kind == KIND_POINTS:
        return card_points(sum(position.hands))
    return position.tricks_left


@BOUNDS
@given(position=positions(max_cards=4, games=(*SUIT_GAMES, "grand"), max_trick=0))
def test_sure_cards_and_quick_tricks_never_promise_too_much(position: Position) -> None:
    for kind in (KIND_POINTS, KIND_SCHWARZ):
        rules = rules_table(position.game, kind)
        state = pack(position, stamp=1)
        declarer = position.declarer
        exact = ref.future_value(position, kind)[0]
        defenders = _in_play(position, kind) - exact
        mine = int(state[declarer])
        theirs = int(state[0] | state[1] | state[2]) & ~mine
        assert sure_value(mine, theirs, rules) <= exact
        assert sure_value(theirs, mine, rules) <= defenders
        for follow in (0, 1):
            quick = quick_value(state, position.leader, rules, follow)
            assert quick <= (exact if position.leader == declarer else defenders)
        for options in (Options(), Options(follower_cards=False)):
            opts = options.to_array()
            bound = side_bound(state, position.leader, declarer, 0, rules, opts)
            assert bound <= exact
            defender = (declarer + 1) % 3
            assert side_bound(state, position.leader, defender, 0, rules, opts) <= defenders


@given(hand=st.integers(0, 2**32 - 1), game=st.sampled_from(("grand", "hearts")))
def test_cheapest_takes_the_least_valuable_cards_first(hand: int, game: str) -> None:
    rules = rules_table(game, KIND_POINTS)  # internal card indices: any mask is a hand
    values = sorted(int(rules[R_PTS + c]) for c in range(32) if hand >> c & 1)
    for count in range(len(values) + 1):
        assert cheapest(hand, count, rules) == sum(values[:count])


@BOUNDS
@given(position=positions(max_cards=4, games=("null",), max_trick=0))
def test_a_safe_null_hand_takes_no_trick(position: Position) -> None:
    assume(position.leader != position.declarer)
    rules = rules_table("null", KIND_NULL)
    if null_safe(pack(position, stamp=1), position.declarer, rules):
        assert ref.future_value(position, KIND_NULL)[0] == position.tricks_left
