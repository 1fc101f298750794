"""The legal-play generator against a brute force over every subset of small hands.

`plays.plays` must list exactly the card sets that `combos.classify` calls a combination
(and, on a table, that `combos.beats` accepts), each once, labelled as `classify` labels it.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bits import iter_bits
from engine.tichu.bombs import bombs, has_bomb
from engine.tichu.cards import ALL_CARDS, parse_cards
from engine.tichu.combos import NO_COMBO, Combo, beats, classify, is_bomb
from engine.tichu.play_actions import lead_actions, play_actions
from engine.tichu.plays import plays

CARDS = [1 << c for c in iter_bits(ALL_CARDS)]
MAX_HAND = 10


def _subsets(hand: int) -> list[int]:
    cards = [1 << c for c in iter_bits(hand)]
    found = [0]
    for card in cards:
        found += [s | card for s in found]
    return found[1:]


def _brute_force(hand: int, table: Combo, phoenix_as_one: bool) -> dict[int, Combo]:
    found = {}
    for cards in _subsets(hand):
        played = classify(cards, table, phoenix_as_one=phoenix_as_one)
        if played != NO_COMBO and (table == NO_COMBO or beats(table, played)):
            found[cards] = played
    return found


hands = st.lists(st.sampled_from(CARDS), min_size=1, max_size=MAX_HAND, unique=True).map(sum)


@settings(max_examples=300, deadline=None)
@given(hand=hands, other=hands, choice=st.integers(0, 10_000), phoenix_as_one=st.booleans())
def test_generator_matches_brute_force(
    hand: int, other: int, choice: int, phoenix_as_one: bool
) -> None:
    other &= ~hand
    leads = plays(other, NO_COMBO, phoenix_as_one=phoenix_as_one) if other else []
    tables = [NO_COMBO] + ([leads[choice % len(leads)][1]] if leads else [])
    for table in tables:
        generated = plays(hand, table, phoenix_as_one=phoenix_as_one)
        as_dict = dict(generated)
        assert len(as_dict) == len(generated), "a card set is listed twice"
        assert as_dict == _brute_force(hand, table, phoenix_as_one)


@settings(max_examples=100, deadline=None)
@given(hand=hands)
def test_bombs_are_the_bombs_among_all_plays(hand: int) -> None:
    every = {cards for cards, played in plays(hand) if is_bomb(played)}
    assert {cards for cards, _ in bombs(hand)} == every
    assert has_bomb(hand) == bool(every)


def test_a_big_hand_with_phoenix_and_mahjong_matches_brute_force() -> None:
    """Thirteen cards rich in pairs and runs: many stairs, full houses and Phoenix readings."""
    hand = parse_cards("MahJong 2j 2s 3j 3s 4j 4s 4p 5j 6s 7p 7t Phoenix")
    generated = plays(hand)
    assert len(dict(generated)) == len(generated)
    assert dict(generated) == _brute_force(hand, NO_COMBO, phoenix_as_one=False)


@settings(max_examples=200, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CARDS), min_size=1, max_size=14, unique=True).map(sum),
    keep=st.integers(0, 2**56 - 1),
    phoenix_as_one=st.booleans(),
)
def test_the_leads_of_a_smaller_hand_are_the_larger_hands_leads_filtered_in_order(
    hand: int, keep: int, phoenix_as_one: bool
) -> None:
    """The generator lists a hand's leads in one order: a smaller hand's are the larger
    hand's, filtered."""
    smaller = hand & keep
    filtered = [p for p in plays(hand, phoenix_as_one=phoenix_as_one) if not p[0] & ~smaller]
    assert filtered == plays(smaller, phoenix_as_one=phoenix_as_one)


@settings(max_examples=100, deadline=None)
@given(
    hands=st.lists(
        st.lists(st.sampled_from(CARDS), min_size=1, max_size=14, unique=True).map(sum),
        min_size=1,
        max_size=12,
    ),
    phoenix_as_one=st.booleans(),
    wish_required=st.booleans(),
)
def test_lead_actions_do_not_depend_on_the_hands_asked_before(
    hands: list[int], phoenix_as_one: bool, wish_required: bool
) -> None:
    wishes = (*(() if wish_required else (0,)), *range(2, 15))
    for index, hand in enumerate(hands):
        smaller = hand & hands[index - 1] or hand  # often a subset of a hand asked before
        for asked in (hand, smaller):
            expected = play_actions(plays(asked, phoenix_as_one=phoenix_as_one), wishes, asked)
            assert lead_actions(asked, phoenix_as_one, wishes) == expected
