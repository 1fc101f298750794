"""The conformance suite every game engine passes (docs/conventions.md section 11, after OpenSpiel's
games_sim_test): random playouts where every legal action applies and every probed illegal
one raises with a code, cards are conserved, replay(log) == state, actions round-trip through
msgspec JSON, results stay within bounds, and nothing is legal once the game is over."""

import random

import msgspec
import pytest

from engine.errors import IllegalAction
from tests.conformance.games import GAMES, GameAdapter

PLAYOUTS = 25
MAX_STEPS = 5000
LISTED_SAMPLE = 4  # listed actions per seat and step whose fast path is compared


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_random_playout(game: GameAdapter, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new(seed)
    cards = game.cards(state)
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        choices = [(seat, a) for seat in game.seats(state) for a in state.legal_actions(seat)]
        assert choices, "a game that is not over must offer some action"
        for seat in game.seats(state):
            legal = state.legal_actions(seat)
            for probe in game.probes(state):  # `apply` checks, listed or not (section 3)
                if probe in legal:
                    continue
                with pytest.raises(IllegalAction) as error:
                    state.apply(seat, probe)
                assert error.value.code
            for listed in rng.sample(legal, min(len(legal), LISTED_SAMPLE)):
                assert state.apply_listed(seat, listed) == state.apply(seat, listed)
        seat, action = rng.choice(choices)
        encoded = msgspec.json.encode(action)
        assert msgspec.json.decode(encoded, type=game.action_type) == action
        state = state.apply(seat, action)
        assert game.cards(state) == cards
    assert state.is_over, "random play must end the game"
    assert all(not state.legal_actions(seat) for seat in game.seats(state))
    assert game.replay(state) == state
    game.check_result(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_an_observation_without_history_is_the_observation_minus_its_history(
    game: GameAdapter,
) -> None:
    """What the server sends with every event: the same observation, history left out."""
    rng = random.Random(1)
    state = game.new(1)
    for _ in range(MAX_STEPS):
        for viewer in (None, *game.seats(state)):
            full = state.observation(viewer)
            assert full.history or not state.is_over
            short = state.observation(viewer, history=False)
            assert short == msgspec.structs.replace(full, history=())
        if state.is_over:
            break
        seat, action = rng.choice(
            [(seat, a) for seat in game.seats(state) for a in state.legal_actions(seat)]
        )
        state = state.apply(seat, action)
    assert state.is_over
