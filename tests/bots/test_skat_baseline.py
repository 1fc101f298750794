"""The simple Skat bots: legal, deterministic per seed, and `greedy` beats `random`."""

import numpy as np
import pytest

from bots.registry import SKAT_POLICIES, skat_policy
from bots.skat.match import duplicate_series, play_deal, summarize
from engine.skat.rules import Rules
from engine.skat.state import new_game


@pytest.mark.parametrize("name", SKAT_POLICIES)
def test_bot_plays_only_legal_moves_in_every_variant(name: str) -> None:
    policy = skat_policy(name)
    for seed in range(30):
        rules = Rules(players=3 + seed % 2, all_pass="ramsch" if seed % 3 else "throw_in")
        state = play_deal([policy] * rules.players, seed, rules=rules)
        assert state.is_over


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
