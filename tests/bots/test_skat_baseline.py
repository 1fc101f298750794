"""The simple Skat bots: legal, deterministic per seed, and `greedy` beats `random`."""

import itertools
import statistics

import numpy as np
import pytest

from bots.registry import SKAT_POLICIES, skat_policy
from engine.skat.rules import Rules
from engine.skat.state import State, new_game


def play(policies: list[object], seed: int, rules: Rules | None = None) -> State:
    rng = np.random.default_rng(seed)
    state = new_game(rules or Rules(players=len(policies)), seed=seed)  # type: ignore[arg-type]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        decision = policies[seat](state.observation(seat), rng)  # type: ignore[operator]
        assert decision.action in state.legal_actions(seat)
        state = state.apply(seat, decision.action)
    return state


@pytest.mark.parametrize("name", SKAT_POLICIES)
def test_bot_plays_only_legal_moves_in_every_variant(name: str) -> None:
    policy = skat_policy(name)
    for seed in range(30):
        rules = Rules(players=3 + seed % 2, all_pass="ramsch" if seed % 3 else "throw_in")
        play([policy] * rules.players, seed, rules)


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
    names = ["greedy", "random", "random"]
    scores: dict[str, list[int]] = {"greedy": [], "random": []}
    for seed in range(40):
        for order in itertools.permutations(range(3)):
            state = play([skat_policy(names[i]) for i in order], seed)
            for seat, who in enumerate(order):
                scores[names[who]].append(state.result.seeger_fabian[seat])
    greedy, rand = statistics.mean(scores["greedy"]), statistics.mean(scores["random"])
    spread = statistics.stdev(scores["random"]) / len(scores["random"]) ** 0.5
    assert greedy - rand > 4 * spread
