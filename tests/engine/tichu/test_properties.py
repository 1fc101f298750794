"""Invariants over random Tichu matches (hypothesis seeds, seeded random policies).

Card conservation, 100 card points per round without a double victory, termination, every
legal action applies and every other generated action is rejected with a known code,
`replay` reproduces the state, msgspec round trips, and no observation changes when the cards
its seat has not seen are shuffled among their holders (docs/conventions.md section 5.2).
"""

import random
from collections.abc import Iterator

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bits import iter_bits, popcount
from engine.errors import IllegalAction
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrandTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import ALL_CARDS, MAHJONG, format_card, format_cards, format_rank
from engine.tichu.legality import CODES
from engine.tichu.observation import Observation
from engine.tichu.plays import plays
from engine.tichu.rules import Rules
from engine.tichu.scoring import DOUBLE_VICTORY_POINTS
from engine.tichu.state import State, new_game, replay

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CALL_PROBABILITY = 0.03
GRAND_PROBABILITY = 0.05
INTERRUPT_PROBABILITY = 0.2


def random_exchange(state: State, seat: int, rng: random.Random) -> Exchange:
    cards = rng.sample([format_card(c) for c in iter_bits(state.hands[seat])], 3)
    return Exchange(left=cards[0], partner=cards[1], right=cards[2])


def random_move(state: State, rng: random.Random) -> tuple[int, Action]:
    """One move of a seeded random policy: interrupts, calls and exchanges included."""
    if state.phase == "grand_tichu":
        seat = rng.choice([s for s in range(4) if not state.decided >> s & 1])
        return seat, GrandTichu() if rng.random() < GRAND_PROBABILITY else DeclineGrandTichu()
    if state.phase == "exchange":
        seat = rng.choice([s for s in range(4) if state.gifts[s] is None])
        if rng.random() < CALL_PROBABILITY and CallTichu() in state.legal_actions(seat):
            return seat, CallTichu()
        return seat, random_exchange(state, seat, rng)
    if rng.random() < INTERRUPT_PROBABILITY:
        seat = rng.randrange(4)
        bombs = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
        if seat != state.to_move and bombs:
            return seat, rng.choice(bombs)
    seat = state.turn
    legal = state.legal_actions(seat)
    ordinary = [a for a in legal if not isinstance(a, CallTichu)]
    if rng.random() < CALL_PROBABILITY or not ordinary:
        return seat, rng.choice(legal)
    return seat, rng.choice(ordinary)


def random_match(seed: int, rules: Rules, max_rounds: int) -> Iterator[tuple[State, int, Action]]:
    """(state, seat, action) along a random match until it ends or `max_rounds` are done."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while not state.is_over and state.round_index < max_rounds:
        seat, action = random_move(state, rng)
        yield state, seat, action
        state = state.apply(seat, action)
    yield state, -1, Pass()


def assert_conserved(state: State) -> None:
    union = count = 0
    for mask in (*state.hands, *state.stock, *state.won, state.trick):
        assert not union & mask, "a card is in two places"
        union |= mask
        count += popcount(mask)
    assert union == ALL_CARDS and count == 56


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, target=st.sampled_from([300, 600, 1000]))
def test_matches_terminate_conserve_cards_and_score_100_per_round(seed: int, target: int) -> None:
    rounds = 0
    for state, _, _ in random_match(seed, Rules(target_points=target), max_rounds=200):
        assert_conserved(state)
        rounds = state.round_index
    assert state.is_over, f"no winner after {rounds} rounds"
    assert max(state.result.totals) >= target
    assert sum(r.points[0] for r in state.rounds) == state.result.totals[0]
    for score in state.rounds:
        if score.double_victory:
            assert sorted(score.card_points) == [0, DOUBLE_VICTORY_POINTS]
        else:
            assert sum(score.card_points) == 100
            assert len(score.finish) == 3


def candidates(state: State, seat: int, rng: random.Random) -> list[Action]:
    """Actions to try on `seat`: every combination of its hand (with and without a wish),
    every simple action, a few exchanges (some with a repeated or foreign card)."""
    hand = state.hands[seat]
    found: list[Action] = [Pass(), CallTichu(), GrandTichu(), DeclineGrandTichu()]
    found += [GiveDragon(to=to) for to in range(4)]
    for cards, _ in plays(hand | MAHJONG if rng.random() < 0.1 else hand):
        found.append(Play(cards=format_cards(cards)))
        found.append(Play(cards=format_cards(cards), wish=format_rank(rng.randrange(2, 15))))
    names = [format_card(c) for c in iter_bits(ALL_CARDS)]
    for _ in range(3):
        a, b, c = rng.sample(names, 3)
        found.append(Exchange(left=a, partner=b, right=c))
    mine = [format_card(c) for c in iter_bits(hand)]
    if len(mine) >= 3:
        found.append(Exchange(left=mine[0], partner=mine[0], right=mine[1]))
        found.append(random_exchange(state, seat, rng))
    found.append(Play(cards=tuple(rng.sample(names, rng.randrange(1, 6)))))
    return found


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_legal_actions_apply_and_every_other_action_is_rejected(seed: int) -> None:
    rng = random.Random(seed)
    for step, (state, _, _) in enumerate(random_match(seed, Rules(), max_rounds=1)):
        if step % 3:
            continue
        for seat in range(4):
            legal = state.legal_actions(seat, exchanges=False)
            for action in legal:
                state.apply(seat, action)
            for action in candidates(state, seat, rng):
                try:
                    state.apply(seat, action)
                except IllegalAction as error:
                    assert error.code in CODES
                    assert action not in legal
                else:
                    assert action in legal or isinstance(action, Exchange)


def _answer(state: State, seat: int, action: Action) -> State | str:
    try:
        return state.apply(seat, action)
    except IllegalAction as error:
        return error.code


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_apply_checks_whether_or_not_the_state_listed_its_actions(seed: int) -> None:
    """`apply` keeps no memo of what `legal_actions` listed: an equal state that was never
    asked (decoded afresh) answers every action the same, and `apply_listed` gives the state
    `apply` gives for every listed action."""
    rng = random.Random(seed)
    for step, (state, _, _) in enumerate(random_match(seed, Rules(), max_rounds=1)):
        if step % 5:
            continue
        for seat in range(4):
            unasked = msgspec.json.decode(msgspec.json.encode(state), type=State)
            listed = state.legal_actions(seat, exchanges=False)
            for action in [*listed, *candidates(state, seat, rng)]:
                assert _answer(state, seat, action) == _answer(unasked, seat, action)
            for action in listed:
                assert unasked.apply_listed(seat, action) == state.apply(seat, action)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_replay_reproduces_the_state_and_states_round_trip(seed: int) -> None:
    trajectory = list(random_match(seed, Rules(), max_rounds=2))
    state = trajectory[-1][0]
    log = [(seat, action) for _, seat, action in trajectory if seat >= 0]
    assert state.moves == log
    assert replay(state.start, log) == state
    encoded = msgspec.json.encode(state)
    assert msgspec.json.decode(encoded, type=State) == state
    for seat, action in log[:50]:
        assert msgspec.json.decode(msgspec.json.encode(action), type=Action) == action
        assert seat in range(4)


def unseen(state: State, seat: int | None) -> int:
    """Cards `seat` has not seen and whose holder is not public (None: a spectator)."""
    hidden = 0
    for other in range(4):
        hidden |= state.stock[other]
        if other != seat:
            hidden |= state.hands[other]
    if state.phase not in ("grand_tichu", "exchange"):
        hidden &= ~MAHJONG  # its holder led the first trick
        own = state.gifts[seat] if seat is not None else None
        if own is not None:
            hidden &= ~(own[0] | own[1] | own[2])  # the seat knows where its passes went
    return hidden


def shuffle_unseen(state: State, seat: int | None, rng: random.Random) -> State:
    """`state` with the cards unseen by `seat` permuted among their holders (sizes kept)."""
    hidden = [1 << c for c in iter_bits(unseen(state, seat))]
    image = dict(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))

    def remap(mask: int) -> int:
        kept = mask
        moved = 0
        for card in hidden:
            if mask & card:
                kept ^= card
                moved |= image[card]
        return kept | moved

    gifts = tuple(
        g if g is None or other == seat else (remap(g[0]), remap(g[1]), remap(g[2]))
        for other, g in enumerate(state.gifts)
    )
    return msgspec.structs.replace(
        state,
        hands=tuple(remap(h) for h in state.hands),
        stock=tuple(remap(s) for s in state.stock),
        gifts=gifts,
    )


def observed(state: State, seat: int | None) -> bytes:
    obs = state.observation(seat)
    assert msgspec.json.decode(msgspec.json.encode(obs), type=Observation) == obs
    return msgspec.json.encode(obs)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_no_observation_depends_on_unseen_cards(seed: int) -> None:
    rng = random.Random(seed)
    for step, (state, _, _) in enumerate(random_match(seed, Rules(), max_rounds=1)):
        if step % 4:
            continue
        for seat in (0, 1, 2, 3, None):
            assert observed(shuffle_unseen(state, seat, rng), seat) == observed(state, seat)


def test_the_leak_check_would_see_a_leak() -> None:
    """Shuffling really moves hidden cards, so a leaking observation would differ."""
    rng = random.Random(7)
    state = next(s for s, _, _ in random_match(7, Rules(), max_rounds=1) if s.phase == "play")
    shuffled = shuffle_unseen(state, 0, rng)
    assert shuffled.hands[0] == state.hands[0]
    assert shuffled.hands[1:] != state.hands[1:]
    assert [popcount(h) for h in shuffled.hands] == [popcount(h) for h in state.hands]
    leaked = msgspec.json.encode([format_cards(h) for h in state.hands])
    assert leaked != msgspec.json.encode([format_cards(h) for h in shuffled.hands])
