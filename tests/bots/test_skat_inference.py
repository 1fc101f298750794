"""Inference of hidden cards (bots.skat.inference): the weights follow the bids, passes and
the contract, stay finite and normalised, never admit a world the facts exclude, and card
play without inference is the uniform Monte Carlo player; a level infers in the roles it
names only."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.skat.features import null_features
from bots.skat.hand_value import TRUMP_GAMES, best_trump_game, game_value_estimate, strength
from bots.skat.inference import auction_of, weighted_worlds, world_weights
from bots.skat.levels import InferenceRoles, SkatBot
from bots.skat.montecarlo import choose_card, position_of, shared_solver
from bots.skat.sampling import World, sample_worlds
from engine.bits import popcount
from engine.skat.actions import Bid, Declare, Hold, Pass, PickUpSkat, Play
from engine.skat.cards import format_card, parse_card, trump_mask
from engine.skat.observation import Observation
from engine.skat.state import State
from tests.bots.test_skat_sampling import consistent, plain_game_until
from tests.engine.skat.helpers import deal_state, run

WORLDS = 400


def _pool(obs: Observation, seed: int = 0) -> tuple[list[World], np.ndarray]:
    worlds = sample_worlds(obs, WORLDS, np.random.default_rng(seed))
    return worlds, world_weights(obs, worlds)


def _weighted_and_uniform(values: list[float], weights: np.ndarray) -> tuple[float, float]:
    data = np.array(values)
    return float(weights @ data), float(data.mean())


def _strength(cards: int) -> float:
    return best_trump_game(cards)[1]


def test_the_auction_is_read_as_values_said_held_and_refused() -> None:
    state = run(
        deal_state(),
        (1, Bid(18)),
        (0, Hold()),
        (1, Bid(20)),
        (0, Pass()),
        (2, Bid(22)),
        (1, Hold()),
        (2, Bid(23)),
        (1, Pass()),
    )
    auction = auction_of(state.observation(2))
    assert auction.reached == (18, 22, 23)
    assert auction.refused == (20, 23, 0)


def test_a_passer_refusing_18_probably_holds_a_weak_hand() -> None:
    # Forehand bids and plays; rearhand (the viewer's partner) passed at once.
    state = run(deal_state(), (1, Pass()), (2, Pass()), (0, Bid(18)))
    state = run(state, (0, PickUpSkat()))
    obs = state.observation(1)
    worlds, weights = _pool(obs)
    weighted, uniform = _weighted_and_uniform([_strength(w.hands[2]) for w in worlds], weights)
    assert weighted < uniform - 0.2


def _worth(cards: int) -> int:
    """The highest matador value among the trump games in which `cards` look playable."""
    return max(
        (game_value_estimate(cards, g) for g in TRUMP_GAMES if strength(cards, g) >= 6.5),
        default=0,
    )


@pytest.mark.parametrize("viewer", [0, 2])
def test_a_high_bidder_probably_holds_a_hand_worth_his_bid(viewer: int) -> None:
    # Middlehand bid up to 36 and stopped there; forehand held; rearhand passed.
    moves: list[tuple[int, Bid | Hold | Pass]] = []
    for value in (18, 20, 22, 23, 24, 27, 30, 33, 35, 36):
        moves += [(1, Bid(value)), (0, Hold())]
    state = run(deal_state(), *moves, (1, Pass()), (2, Pass()))
    obs = state.observation(viewer)
    worlds, weights = _pool(obs)
    worth = [float(_worth(w.hands[1]) >= 36) for w in worlds]
    weighted, uniform = _weighted_and_uniform(worth, weights)
    assert weighted > uniform + 0.1


def test_the_declarer_of_a_suit_probably_holds_its_trumps() -> None:
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    state = state.apply(0, Declare("hearts"))
    obs = state.observation(1)
    worlds, weights = _pool(obs)
    trumps = [float(popcount(w.hands[0] & trump_mask("hearts"))) for w in worlds]
    weighted, uniform = _weighted_and_uniform(trumps, weights)
    assert weighted > uniform + 0.5


def test_the_declarer_of_null_probably_holds_low_cards() -> None:
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    state = state.apply(0, Declare("null"))
    obs = state.observation(1)
    worlds, weights = _pool(obs)
    unsafe = [float(null_features(w.hands[0])[2]) for w in worlds]
    weighted, uniform = _weighted_and_uniform(unsafe, weights)
    assert weighted < uniform - 0.3


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), tricks=st.integers(0, 9), viewer=st.sampled_from([0, 1, 2]))
def test_weights_are_finite_and_normalised(seed: int, tricks: int, viewer: int) -> None:
    state = plain_game_until(seed, tricks)
    if state.is_over:
        return
    obs = state.observation(viewer)
    weights = world_weights(obs, sample_worlds(obs, 50, np.random.default_rng(seed)))
    assert np.all(np.isfinite(weights))
    assert np.all(weights >= 0)
    assert abs(weights.sum() - 1.0) < 1e-9


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    tricks=st.integers(0, 9),
    in_trick=st.integers(0, 2),
    viewer=st.sampled_from([0, 1, 2]),
)
def test_weighting_never_yields_a_world_the_voids_exclude(
    seed: int, tricks: int, in_trick: int, viewer: int
) -> None:
    state = plain_game_until(seed, tricks, in_trick)
    if state.is_over:
        return
    obs = state.observation(viewer)
    worlds, counts = weighted_worlds(obs, 20, np.random.default_rng(seed))
    assert sum(counts) == 20
    assert len(worlds) == len(counts)
    for world in worlds:
        assert consistent(world, state, viewer)


def _play_positions() -> list[State]:
    """Positions with several legal cards from a few random plain games."""
    found = []
    for seed in range(40):
        state = plain_game_until(seed, 3, 1)
        if not state.is_over and state.phase == "play":
            seat = state.to_move
            assert seat is not None
            if len([a for a in state.legal_actions(seat) if isinstance(a, Play)]) > 1:
                found.append(state)
        if len(found) >= 3:
            break
    return found


def test_without_inference_the_card_is_the_uniform_worlds_majority() -> None:
    positions = _play_positions()
    assert positions
    for state in positions:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        decision = choose_card(obs, np.random.default_rng(3), worlds=8, inference=False)
        worlds = sample_worlds(obs, 8, np.random.default_rng(3))
        wins: dict[str, int] = {}
        for world in worlds:
            target = decision.diagnostics["target"]
            result = shared_solver().solve(position_of(obs, world), "moves", target)
            for move in result.moves:
                for card in move.cards:
                    good = move.declarer_wins == (seat == obs.declarer)
                    wins[format_card(card)] = wins.get(format_card(card), 0) + good
        assert isinstance(decision.action, Play)
        assert wins[decision.action.card] == max(wins.values())
        fractions = decision.diagnostics["cards"]
        assert {card: f[0] for card, f in fractions.items()} == {
            card: n / 8 for card, n in wins.items()
        }


@pytest.mark.parametrize("roles", ["none", "declarer", "defenders", "both"])
def test_a_level_infers_in_the_roles_it_names_only(roles: InferenceRoles) -> None:
    # The declarer to move in the first position, a defender in the second; in both the
    # weighted worlds give other card statistics than the uniform ones.
    positions = (plain_game_until(10, 2), plain_game_until(3, 3, 1))
    assert [state.to_move == state.declarer for state in positions] == [True, False]
    for state in positions:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        role = "declarer" if seat == obs.declarer else "defenders"
        by_level = SkatBot(worlds=8, inference=roles)(obs, np.random.default_rng(5))
        weighted, uniform = (
            choose_card(obs, np.random.default_rng(5), worlds=8, inference=inference)
            for inference in (True, False)
        )
        assert weighted.diagnostics != uniform.diagnostics
        expected = weighted if roles in ("both", role) else uniform
        assert by_level.diagnostics == expected.diagnostics


def test_sharp_weights_are_tempered_to_the_effective_sample_asked_for() -> None:
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    obs = state.apply(0, Declare("hearts")).observation(1)
    worlds = sample_worlds(obs, WORLDS, np.random.default_rng(0))
    sharp = world_weights(obs, worlds)
    tempered = world_weights(obs, worlds, min_ess=100)
    assert 1 / (sharp**2).sum() < 100 <= 1 / (tempered**2).sum()
    assert abs(tempered.sum() - 1.0) < 1e-9


def test_a_defender_who_did_not_smear_probably_lacked_the_ten() -> None:
    # Grand by forehand; middlehand's ace of diamonds wins, rearhand adds only the queen.
    state = run(
        deal_state(),
        (1, Bid(18)),
        (0, Hold()),
        (1, Pass()),
        (2, Pass()),
        (0, Declare("grand")),
        (0, Play("7D")),
        (1, Play("AD")),
        (2, Play("QD")),
    )
    obs = state.observation(0)
    worlds, weights = _pool(obs)
    ten = [float(w.hands[2] >> parse_card("TD") & 1) for w in worlds]
    weighted, uniform = _weighted_and_uniform(ten, weights)
    assert weighted < uniform - 0.15
