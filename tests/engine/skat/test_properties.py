"""Invariants over random Skat deals (hypothesis): card conservation, 120 points, every legal
action applies and every other is rejected with a reason, replay reproduces the state,
msgspec round trips, and no observation contains a card its seat may not see
(docs/conventions.md section 5.2)."""

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bits import iter_bits, popcount
from engine.errors import IllegalAction
from engine.skat.actions import (
    AcceptClaim,
    Action,
    Bid,
    Claim,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    Play,
    Re,
    RefuseClaim,
    Resign,
)
from engine.skat.cards import (
    ALL_CARDS,
    CARD_POINTS,
    GAME_TYPES,
    card_points,
    format_card,
    format_cards,
)
from engine.skat.deal import Deal
from engine.skat.legality import candidates, reject
from engine.skat.rules import Rules
from engine.skat.state import GameStart, State, new_game, replay

rules_strategy = st.builds(
    Rules,
    players=st.sampled_from([3, 4]),
    all_pass=st.sampled_from(["throw_in", "ramsch", "schieberamsch"]),
    kontra=st.booleans(),
    iss_compat=st.booleans(),
)


def random_actions(state: State, rng: random.Random) -> list[tuple[int, State]]:
    """Play a deal to the end with random legal actions; returns (seat, state before) pairs."""
    states = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions(seat)
        assert legal, "the seat to move always has a legal action"
        moves = [a for a in legal if not isinstance(a, Resign | Kontra | Re)]
        if rng.random() < 0.03:
            seat = rng.choice(state.active_seats)
            moves = state.legal_actions(seat) or moves
            if not state.legal_actions(seat):
                seat = state.to_move
        states.append((seat, state))
        state = state.apply(seat, rng.choice(moves))
    states.append((-1, state))
    return states


def all_actions(state: State) -> list[Action]:
    """Every action of every kind that could be tried now (a superset of anything legal)."""
    cards = [format_card(c) for c in range(32)]
    declarations = [
        Declare(g, schneider=s, schwarz=z, ouvert=o)
        for g in GAME_TYPES
        for s in (False, True)
        for z in (False, True)
        for o in (False, True)
    ]
    return [
        Pass(), Hold(), Bid(18), Bid(19), Bid(264), Bid(state.bid), PickUpSkat(),
        Discard((cards[0], cards[31])), Discard((cards[5], cards[5])),
        *declarations, *[Play(c) for c in cards], Kontra(), Re(), Resign(),
        Claim(), AcceptClaim(), RefuseClaim(),
    ]  # fmt: skip


def game_states(seed: int, rules: Rules) -> list[tuple[int, State]]:
    rng = random.Random(seed)
    return random_actions(new_game(rules, seed=seed, dealer=rng.randrange(rules.players)), rng)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_cards_are_conserved_and_points_sum_to_120(seed: int, rules: Rules) -> None:
    for _, state in game_states(seed, rules):
        on_table = sum(1 << c for c in state.trick)
        places = [*state.hands, state.skat, on_table, *state.taken]
        assert sum(popcount(m) for m in places) == 32
        union = 0
        for mask in places:
            union |= mask
        assert union == ALL_CARDS
        assert sum(card_points(m) for m in places) == 120


@given(mask=st.integers(0, ALL_CARDS))
def test_a_card_set_is_written_and_counted_card_by_card(mask: int) -> None:
    cards = sorted(iter_bits(mask), reverse=True)
    assert format_cards(mask) == [format_card(c) for c in cards]
    assert card_points(mask) == sum(CARD_POINTS[c] for c in cards)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_legal_actions_apply_and_all_others_are_rejected_with_a_reason(
    seed: int, rules: Rules
) -> None:
    for _, state in game_states(seed, rules)[::3]:
        for seat in range(rules.players):
            legal = state.legal_actions(seat)
            for action in legal:
                state.apply(seat, action)
            for action in all_actions(state):
                if action in legal:
                    continue
                try:
                    state.apply(seat, action)
                except IllegalAction as error:
                    assert error.code and error.message
                else:
                    raise AssertionError(f"{action!r} by {seat} accepted but not listed")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_the_listed_actions_are_the_candidates_that_reject_allows(seed: int, rules: Rules) -> None:
    """`legal` lists some actions without asking `reject` (cards, bids, discards) or asking
    only its card-play part (Kontra, Re, resigning, claims): the same actions in the same
    order as asking it of every candidate."""
    for _, state in game_states(seed, rules):
        for seat in range(rules.players):
            asked = [a for a in candidates(state, seat) if reject(state, seat, a) is None]
            assert state.legal_actions(seat) == asked


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_replay_of_the_log_reproduces_the_state(seed: int, rules: Rules) -> None:
    final = game_states(seed, rules)[-1][1]
    again = replay(final.start, final.log)
    assert again == final
    assert again.result == final.result
    encoded = msgspec.json.encode(final.log)
    decoded = msgspec.json.decode(encoded, type=tuple[tuple[int, Action], ...])
    assert decoded == final.log
    start = msgspec.json.decode(msgspec.json.encode(final.start), type=GameStart)
    assert replay(start, decoded) == final


def hidden_places(state: State, seat: int | None) -> list[int]:
    """Indices into (hands..., skat) of the places whose cards `seat` cannot see."""
    places = []
    shown = state.shown or (state.contract is not None and state.contract.ouvert)
    for other in state.active_seats:
        if other != seat and not (shown and other == state.declarer):
            places.append(other)
    sees_skat = seat == state.declarer and state.picked_up
    if not sees_skat:
        places.append(state.players)  # the skat
    return places


def swapped(state: State, seat: int | None, rng: random.Random) -> State | None:
    """The same history on a deal where two cards `seat` has not seen changed places;
    None if no such swap keeps every past move legal."""
    places = hidden_places(state, seat)
    masks = [*state.hands, state.skat]
    for _ in range(20):
        a, b = rng.sample(places, 2) if len(places) > 1 else (None, None)
        if a is None or b is None or not masks[a] or not masks[b]:
            return None
        card_a = rng.choice(list(iter_bits(masks[a])))
        card_b = rng.choice(list(iter_bits(masks[b])))
        swap = {card_a: card_b, card_b: card_a}

        def move(mask: int, swap: dict[int, int] = swap) -> int:
            return sum(1 << swap.get(c, c) for c in iter_bits(mask))

        deal = state.start.deal
        seats = state.active_seats
        start_hands = tuple(move(deal.hands[i]) for i in range(3))
        new_deal = Deal(
            hands=(start_hands[0], start_hands[1], start_hands[2]), skat=move(deal.skat)
        )
        log = [
            (s, Discard(tuple(format_cards(sum(1 << swap.get(c, c) for c in _cards(a.cards))))))  # type: ignore[arg-type]
            if isinstance(a, Discard)
            else (s, a)
            for s, a in state.log
        ]
        try:
            other = replay(GameStart(state.rules, new_deal, state.dealer), log)
        except IllegalAction:
            continue
        assert other.active_seats == seats
        return other
    return None


def _cards(texts: tuple[str, str]) -> list[int]:
    from engine.skat.cards import parse_card

    return [parse_card(t) for t in texts]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy, pick=st.floats(0, 1))
def test_observations_do_not_depend_on_unseen_cards(seed: int, rules: Rules, pick: float) -> None:
    history = game_states(seed, rules)[:-1]
    if not history:
        return
    _, state = history[int(pick * (len(history) - 1))]
    rng = random.Random(seed)
    for seat in [None, *range(rules.players)]:
        other = swapped(state, seat, rng)
        if other is None:
            continue
        assert other != state
        mine = msgspec.json.encode(state.observation(seat))
        theirs = msgspec.json.encode(other.observation(seat))
        assert mine == theirs, f"seat {seat} can tell two deals apart that it may not"


def test_the_leak_check_would_see_a_leak() -> None:
    """A view that included hidden hands would differ on the swapped deal: the property test
    above can fail."""
    rng = random.Random(5)
    found = 0
    for seed in range(20):
        history = game_states(seed, Rules())
        _, state = history[len(history) // 2]
        other = swapped(state, 0, rng)
        if other is not None:
            found += 1
            leaky = msgspec.json.encode((state.observation(0), state.hands, state.skat))
            assert leaky != msgspec.json.encode((other.observation(0), other.hands, other.skat))
    assert found >= 10
