"""World sampling from an observation (docs/conventions.md section 5.4): every sample agrees
with all the viewer knows, the true deal is always possible, and samples are uniform."""

import random
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.skat.sampling import World, count_worlds, facts_of, sample_worlds
from engine.bits import popcount
from engine.skat.actions import Declare, Kontra, Re, Resign
from engine.skat.cards import effective_suit
from engine.skat.rules import Rules
from engine.skat.state import State, new_game


def plain_game_until(seed: int, tricks: int, cards_in_trick: int = 0) -> State:
    """A random deal with a plain (unannounced) game, played to the given point."""
    rng = random.Random(seed)
    state = new_game(Rules(), seed=seed)
    while not state.is_over and (len(state.tricks), len(state.trick)) < (tricks, cards_in_trick):
        seat = state.to_move
        assert seat is not None
        actions = [
            a
            for a in state.legal_actions(seat)
            if not isinstance(a, Resign | Kontra | Re)
            and not (isinstance(a, Declare) and (a.schneider or a.game == "null"))
        ]
        state = state.apply(seat, rng.choice(actions))
    return state


def consistent(world: World, state: State, seat: int | None) -> bool:
    obs = state.observation(seat)
    facts = facts_of(obs)
    if any(popcount(world.hands[s]) != popcount(state.hands[s]) for s in range(state.players)):
        return False
    if seat is not None and world.hands[seat] != state.hands[seat]:
        return False
    if popcount(world.skat) != popcount(state.skat):
        return False
    union = world.skat
    for hand in world.hands:
        if union & hand:
            return False
        union |= hand
    if union != (sum(state.hands) | state.skat):
        return False
    if facts.game is not None:
        for s in range(state.players):
            for group in range(5):
                if facts.voids[s] >> group & 1 and any(
                    effective_suit(facts.game, c) == group for c in _cards(world.hands[s])
                ):
                    return False
    return True


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    tricks=st.integers(0, 9),
    in_trick=st.integers(0, 2),
    viewer=st.sampled_from([None, 0, 1, 2]),
)
def test_samples_agree_with_everything_the_viewer_knows(
    seed: int, tricks: int, in_trick: int, viewer: int | None
) -> None:
    state = plain_game_until(seed, tricks, in_trick)
    if state.is_over:
        return
    obs = state.observation(viewer)
    truth = World(hands=state.hands, skat=state.skat)
    assert consistent(truth, state, viewer), "the true deal must satisfy the facts"
    assert count_worlds(obs) >= 1
    for world in sample_worlds(obs, 20, np.random.default_rng(seed)):
        assert consistent(world, state, viewer)


def test_voids_shown_are_respected() -> None:
    for seed in range(200):
        state = plain_game_until(seed, 5)
        if state.is_over:
            continue
        facts = facts_of(state.observation(0))
        if any(facts.voids):
            worlds = sample_worlds(state.observation(0), 50, np.random.default_rng(seed))
            assert all(consistent(w, state, 0) for w in worlds)
            return
    raise AssertionError("no deal with a shown void among 200 seeds")


def test_samples_are_uniform_over_consistent_worlds() -> None:
    """A late position with few worlds: every world appears about equally often."""
    for seed in range(100):
        state = plain_game_until(seed, 7, 1)
        if state.is_over:
            continue
        obs = state.observation(state.declarer)
        total = count_worlds(obs)
        if 6 <= total <= 40:
            break
    else:
        raise AssertionError("no suitable position found")
    draws = 400 * total
    counts = Counter((w.hands, w.skat) for w in sample_worlds(obs, draws, np.random.default_rng(7)))
    assert len(counts) == total
    expected = draws / total
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    # 99.9% quantile of chi-square with up to 39 degrees of freedom is below 73.
    assert chi_square < 73


def test_same_seed_same_worlds() -> None:
    obs = plain_game_until(3, 2).observation(1)
    first = sample_worlds(obs, 5, np.random.default_rng(11))
    assert first == sample_worlds(obs, 5, np.random.default_rng(11))
