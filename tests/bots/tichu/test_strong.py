"""Card tracking, sampled worlds and the look-ahead's hypothetical states."""

import contextlib

import numpy as np
import pytest

from bots.tichu.classic import ClassicPolicy
from bots.tichu.lookahead import rollout, world_state
from bots.tichu.match import play_round
from bots.tichu.situation import situation
from bots.tichu.tracking import knowledge, sample_hands
from engine.bits import popcount
from engine.rng import make_stream_rng
from engine.tichu.actions import Action, Exchange
from engine.tichu.cards import MAHJONG, RANK_MASK, parse_card
from engine.tichu.deal import deal_from_seed
from engine.tichu.rules import Rules
from engine.tichu.state import State, new_game
from tests.engine.tichu.helpers import passes, play, table_state

ONE_ROUND = Rules(max_rounds=1)


class _Stop(Exception):
    pass


def midgame(deal: int, actions: int) -> State:
    """The state after `actions` actions of a classic round (exchange and all)."""
    seen: list[State] = []

    def hook(before: State, seat: int, action: Action, after: State) -> None:
        if after.phase == "play" and before.phase == "play":
            seen.append(after)
            if len(seen) == actions:
                raise _Stop

    start = new_game(ONE_ROUND, seed=deal, deal=deal_from_seed(deal, 0))
    policy = ClassicPolicy()
    rngs = [make_stream_rng(deal, s) for s in range(4)]
    with contextlib.suppress(_Stop):
        play_round(start, [policy] * 4, rngs, on_action=hook)
    return seen[-1]


class TestKnowledge:
    def test_cards_passed_are_known_until_played(self) -> None:
        state = midgame(3, 1)
        sit = situation(state.observation(0))
        given = state.gifts[0]
        assert given is not None
        known = knowledge(sit)
        for offset, card in zip((1, 2, 3), given, strict=True):
            if not card & sit.played:
                assert known.held[offset] & card

    def test_the_mahjong_stays_with_the_first_leader(self) -> None:
        state = midgame(5, 2)
        leader = next(e.seat for e in state.log if type(e.action).__name__ == "Play")
        for seat in range(4):
            sit = situation(state.observation(seat))
            if seat != leader and not sit.played & MAHJONG:
                assert knowledge(sit).held[leader] & MAHJONG

    def test_a_seat_that_passes_a_low_single_under_a_wish_holds_no_wished_card(self) -> None:
        state = table_state("MahJong 3j 4s", "9j 2s", "5j 6s 7p", "8p Kt", turn=0)
        state = passes(play(state, 0, "MahJong", wish="Q"), 1)
        known = knowledge(situation(state.observation(2)))
        assert known.excluded[1] & RANK_MASK[12] == RANK_MASK[12]
        assert not known.excluded[3]

    @pytest.mark.parametrize("deal", range(6))
    def test_sampled_hands_fit_sizes_and_facts(self, deal: int) -> None:
        state = midgame(deal, 9)
        seat = state.turn
        sit = situation(state.observation(seat))
        known = knowledge(sit)
        hands = sample_hands(sit, known, np.random.default_rng(deal))
        assert hands[seat] == sit.hand
        for other in range(4):
            assert popcount(hands[other]) == sit.sizes[other]
            assert hands[other] & known.held[other] == known.held[other]
            assert not hands[other] & known.excluded[other]
        assert hands[0] | hands[1] | hands[2] | hands[3] == sit.hand | sit.unseen


@pytest.mark.parametrize("deal,actions", [(1, 4), (2, 13), (4, 22), (7, 30), (8, 41)])
def test_a_world_of_the_true_hands_is_the_true_state(deal: int, actions: int) -> None:
    """Built from the observation and the real hands, the hypothetical state offers the same
    actions and ends the round with the same score as the real one."""
    state = midgame(deal, actions)
    seat = state.turn
    world = world_state(situation(state.observation(seat)), state.hands)
    for other in range(4):
        assert world.legal_actions(other, exchanges=False) == state.legal_actions(
            other, exchanges=False
        )
    player = ClassicPolicy()
    assert rollout(world, player, 0).rounds[-1] == rollout(state, player, 0).rounds[-1]


def test_an_exchange_observation_has_given_cards() -> None:
    state = midgame(3, 1)
    obs = state.observation(2)
    assert isinstance(obs.given, Exchange)
    assert situation(obs).given[1] == 1 << parse_card(obs.given.partner)
