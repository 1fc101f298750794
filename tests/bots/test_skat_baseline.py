"""The simple Skat bots: legal, deterministic per seed, and `greedy` beats `random`."""

import msgspec
import numpy as np
import pytest

from bots.registry import SKAT_MONTE_CARLO_LEVELS, SKAT_POLICIES, skat_policy
from bots.skat.levels import LEVELS
from bots.skat.match import SkatPolicy, duplicate_series, summarize
from engine.skat.actions import Bid, Declare, Discard, Pass, PickUpSkat
from engine.skat.cards import format_cards
from engine.skat.rules import Rules
from engine.skat.state import State, new_game

# Every option a table can set, each in some deal of the legality tests.
VARIANTS = (
    Rules(),
    Rules(players=4, all_pass="ramsch"),
    Rules(all_pass="ramsch", kontra=True),
    Rules(players=4, all_pass="schieberamsch", bock=True),
    Rules(kontra=True, iss_compat=True),
    Rules(players=4, kontra=True, bock=True),
)
# Contracts that bidding rarely reaches, declared by script so that every bot plays them.
CONTRACTS = (
    Declare("grand"),
    Declare("null"),
    Declare("null", ouvert=True),
    Declare("clubs", schneider=True, schwarz=True, ouvert=True),
    Declare("hearts"),
    Declare("grand", schneider=True),
)


def hurried(name: str) -> SkatPolicy:
    """`name` with its time budgets at zero: each search decision solves the fewest worlds a
    budget allows (`bots.skat.budget.MIN_WORLDS`). Which moves are legal does not depend on
    how many worlds are solved, and a hurried level runs every branch of the full one."""
    if name in SKAT_MONTE_CARLO_LEVELS:
        return msgspec.structs.replace(LEVELS[name], seconds=0.0, skat_seconds=0.0)
    return skat_policy(name)


def play_checked(state: State, policy: SkatPolicy, seed: int) -> State:
    """Play `state` to its end with `policy` in every seat, checking each action against the
    seat's legal list before the engine applies (and checks) it."""
    rng = np.random.default_rng(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        action = policy(obs, rng).action
        assert action in obs.legal, (seed, seat, action)
        state = state.apply(seat, action)
    return state


def declared(seed: int, contract: Declare) -> State:
    """A deal whose middlehand won the bidding at 18 and declared `contract`: from the hand
    if the rules allow it only so, or on odd seeds; else after picking up the skat and laying
    away its two highest cards."""
    state = new_game(Rules(), seed=seed)
    forehand, middlehand, rearhand = state.seats
    for seat, action in ((middlehand, Bid(18)), (forehand, Pass()), (rearhand, Pass())):
        state = state.apply(seat, action)
    if contract.schneider or seed % 2:
        return state.apply(middlehand, contract)
    state = state.apply(middlehand, PickUpSkat())
    high, low, *_ = format_cards(state.hands[middlehand])
    return state.apply(middlehand, Discard((high, low))).apply(middlehand, contract)


@pytest.mark.parametrize("name", SKAT_POLICIES)
def test_bot_plays_only_legal_moves_in_every_variant(name: str) -> None:
    policy = hurried(name)
    for seed in range(30):
        rules = VARIANTS[seed % len(VARIANTS)]
        assert play_checked(new_game(rules, seed=seed), policy, seed).is_over


@pytest.mark.parametrize("name", SKAT_POLICIES)
def test_bot_plays_every_contract_as_declarer_and_defender(name: str) -> None:
    policy = hurried(name)
    for seed, contract in enumerate(CONTRACTS):
        state = declared(seed, contract)
        assert state.contract == contract
        assert play_checked(state, policy, seed).is_over


@pytest.mark.parametrize("name", SKAT_MONTE_CARLO_LEVELS)
def test_each_search_level_with_its_own_budgets_plays_legal_deals(name: str) -> None:
    policy = skat_policy(name)
    for seed in range(4):
        rules = VARIANTS[seed]
        assert play_checked(new_game(rules, seed=seed), policy, seed).is_over


@pytest.mark.parametrize("name", SKAT_POLICIES)
def test_same_observation_and_seed_give_the_same_decision(name: str) -> None:
    policy = skat_policy(name)
    state = new_game(Rules(), seed=5)
    obs = state.observation(state.to_move)
    first = policy(obs, np.random.default_rng(3))
    assert first == policy(obs, np.random.default_rng(3))


def test_unknown_bot_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="known: random"):
        skat_policy("nobody")


def test_greedy_beats_random_over_rotated_duplicate_deals() -> None:
    """Every deal is played with the bots in all six seatings, so card luck cancels."""
    policies = {name: skat_policy(name) for name in ("greedy", "random")}
    table = summarize(duplicate_series(["greedy", "random", "random"], policies, range(40)))
    greedy, rand = table["greedy"], table["random"]
    assert greedy["games"] == 40 * 6 and rand["games"] == 2 * 40 * 6
    assert greedy["mean"] - greedy["ci95"] > rand["mean"] + rand["ci95"]
