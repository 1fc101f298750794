"""Every Skat bot plays a Schieberamsch (docs/skat-rules.md section 3.3): the push decisions
come from the greedy rules (the search levels hand every Ramsch to them), the card play too."""

import numpy as np
import pytest

from bots.registry import skat_policy
from engine.skat.actions import Discard, Pass, PickUpSkat
from engine.skat.rules import Rules
from engine.skat.state import State, new_game


def all_passed(seed: int) -> State:
    state = new_game(Rules(all_pass="schieberamsch"), seed=seed)
    for seat in (1, 2, 0):
        state = state.apply(seat, Pass())
    return state


@pytest.mark.parametrize("level", ["greedy", "beginner", "random"])
def test_bots_push_and_play_a_schieberamsch_to_its_end(level: str) -> None:
    policy = skat_policy(level)
    rng = np.random.default_rng(1)
    for seed in range(3):
        state = all_passed(seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state = state.apply(seat, policy(state.observation(seat), rng).action)
        assert state.result.ramsch


def test_greedy_picks_up_a_dangerous_hand_and_pushes_its_costliest_cards() -> None:
    policy = skat_policy("greedy")
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(20):
        state = all_passed(seed)
        obs = state.observation(0)
        decision = policy(obs, rng).action
        seen.add(type(decision).__name__)
        jacks = sum(card.startswith("J") for card in obs.hand)
        assert (decision == PickUpSkat()) == (jacks >= 2 or obs_points(obs.hand) >= 40)
        if decision == PickUpSkat():
            state = state.apply(0, decision)
            push = policy(state.observation(0), rng).action
            assert isinstance(push, Discard) and not any(c.startswith("J") for c in push.cards)
            others = [c for c in state.observation(0).hand if not c.startswith("J")]
            top = sorted((POINTS[c[0]] for c in others), reverse=True)[:2]
            assert sorted(POINTS[c[0]] for c in push.cards) == sorted(top)
    assert seen == {"PickUpSkat", "Pass"}


POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def obs_points(hand: tuple[str, ...]) -> int:
    return sum(POINTS[card[0]] for card in hand)
