"""The Monte Carlo Skat bot: legal in every variant, deterministic per seed, the declarer's own
count of worlds, optimal when the observation leaves a single world, and the target it plays
for."""

import numpy as np
import pytest

from bots.skat.levels import SkatBot
from bots.skat.match import play_deal
from bots.skat.montecarlo import choose_card, declarer_target, position_of, shared_solver
from bots.skat.sampling import World, count_worlds
from engine.skat.actions import Bid, Declare, Hold, Pass, Play
from engine.skat.cards import format_card
from engine.skat.rules import Rules
from engine.skat.state import State, new_game
from tests.engine.skat.helpers import deal_state, declared, run

TINY = SkatBot(worlds=3, skat_worlds=3)


@pytest.mark.parametrize("seed", range(6))
def test_tiny_bot_plays_whole_deals_in_every_variant(seed: int) -> None:
    rules = Rules(players=3 + seed % 2, all_pass="ramsch" if seed % 3 == 0 else "throw_in")
    state = play_deal([TINY] * rules.players, seed, rules=rules)
    assert state.is_over


def test_same_observation_and_seed_give_the_same_card() -> None:
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    state = state.apply(0, Declare("grand"))
    obs = state.observation(0)
    first = choose_card(obs, np.random.default_rng(4), worlds=6)
    assert first == choose_card(obs, np.random.default_rng(4), worlds=6)


def test_the_declarer_plays_over_his_own_count_of_worlds() -> None:
    bot = SkatBot(worlds=3, declarer_worlds=7, skat_worlds=3)
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    state = state.apply(0, Declare("grand"))  # seat 0 declares and leads
    solved = {}
    while len(solved) < 2:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        plays = [a for a in obs.legal if isinstance(a, Play)]
        decision = bot(obs, np.random.default_rng(seat))
        if len(plays) > 1:
            solved.setdefault(seat == 0, decision.diagnostics["worlds"])
        assert isinstance(decision.action, Play)
        state = state.apply(seat, decision.action)
    assert solved == {True: 7, False: 3}


def _single_world_positions() -> list[State]:
    """Positions from random deals where the mover's observation allows one world only."""
    found = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        state = new_game(Rules(), seed=seed)
        state = run(state, (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
        state = state.apply(0, Declare("grand", schneider=False))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            obs = state.observation(seat)
            plays = [a for a in obs.legal if isinstance(a, Play)]
            if len(plays) > 1 and count_worlds(obs) == 1:
                found.append(state)
                break
            state = state.apply(seat, plays[int(rng.integers(len(plays)))])
        if len(found) >= 5:
            break
    return found


def test_with_one_consistent_world_the_bot_plays_a_solver_best_card() -> None:
    positions = _single_world_positions()
    assert positions, "random deals should reach single-world positions"
    for state in positions:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        decision = choose_card(obs, np.random.default_rng(0), worlds=4)
        truth = World(hands=state.hands, skat=state.skat)
        moves = shared_solver().solve(position_of(obs, truth), "best").moves
        is_declarer = seat == state.declarer
        best_wins = max(m.declarer_wins == is_declarer for m in moves)
        chosen = next(m for m in moves if decision.action.card in [format_card(c) for c in m.cards])  # type: ignore[attr-defined]
        assert (chosen.declarer_wins == is_declarer) == best_wins


def test_declarer_who_needs_schneider_for_his_bid_plays_for_90() -> None:
    # Forehand holds JC JS: grand hand with 2 is worth 4 x 24 = 96, with schneider 120.
    state = run(deal_state(), (1, Bid(99)), (0, Hold()), (1, Pass()), (2, Pass()))
    state = state.apply(0, Declare("grand"))
    assert declarer_target(state.observation(0)) == 90
    plain = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    assert declarer_target(plain.apply(0, Declare("grand")).observation(0)) == 61


def test_null_declarer_sheds_his_highest_card_among_tied_ones() -> None:
    # Forehand's null hand: the three lowest clubs, spades and hearts and the seven of
    # diamonds. Every lead keeps the null in every world, so only the tie-break chooses; a
    # nine goes first (the highest card), not the first card by name.
    state = deal_state(
        fh="7C 8C 9C 7S 8S 9S 7H 8H 9H 7D",
        mh="TC JC QC KC TS JS QS KS AS TH",
        hh="JH QH KH AH 8D 9D TD JD QD KD",
        skat="AC AD",
    )
    state = declared(0, Declare("null"), state=state)
    decision = choose_card(state.observation(0), np.random.default_rng(0), worlds=8)
    cards = decision.diagnostics["cards"]
    assert isinstance(cards, dict)
    assert all(won == 1.0 for won, _ in cards.values())
    assert decision.action.card[0] == "9"  # type: ignore[attr-defined]
