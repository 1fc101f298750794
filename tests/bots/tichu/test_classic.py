"""The classic bot never makes an absurd move, and its special decisions follow the thesis."""

import numpy as np
import pytest

from bots.tichu.classic import ClassicPolicy
from bots.tichu.situation import situation
from bots.tichu.strong import StrongPolicy
from bots.tichu.wish import choose_wish
from engine.tichu.actions import CallTichu, Exchange, GiveDragon, Pass, Play
from engine.tichu.cards import parse_card, parse_cards
from engine.tichu.combos import classify, is_bomb
from engine.tichu.rules import Rules
from engine.tichu.state import State
from tests.engine.tichu.helpers import decide_all, passes, play, table_state

BOTS = [ClassicPolicy(), StrongPolicy()]
RNG_SEED = 7


def decide(policy: ClassicPolicy | StrongPolicy, state: State, seat: int) -> object:
    return policy(state.observation(seat), np.random.default_rng(RNG_SEED)).action


def played_cards(action: object) -> int:
    assert isinstance(action, Play)
    return parse_cards(action.cards)


@pytest.mark.parametrize("bot", BOTS)
class TestNoAbsurdMoves:
    def test_a_partners_ace_that_nothing_out_can_beat_is_not_overtaken(self, bot) -> None:
        # seat 0 holds the Dragon and the Phoenix: the partner's Ace is sure to win
        state = table_state("Dragon Phoenix 3j 5s 8p", "2j 2s 9t", "Aj 4p 6t", "7j 7s Kt", turn=2)
        state = passes(play(state, 2, "Aj"), 3)
        assert isinstance(decide(bot, state, 0), Pass)

    def test_no_bomb_on_the_partner_on_turn(self, bot) -> None:
        state = table_state("9j 9s 9p 9t 3j 4s", "2j 2s", "Kj 4p 6t", "7j 7s Qt", turn=2)
        state = passes(play(state, 2, "Kj"), 3)
        action = decide(bot, state, 0)
        assert isinstance(action, Pass) or not is_bomb(classify(played_cards(action)))

    def test_no_bomb_on_the_partner_out_of_turn(self, bot) -> None:
        state = table_state("9j 9s 9p 9t 3j 4s", "2j 2s", "Kj 4p 6t", "7j 7s Qt", turn=2)
        state = play(state, 2, "Kj")
        assert decide(bot, state, 0) is None

    def test_the_last_combination_is_always_played(self, bot) -> None:
        state = table_state("7j 7s", "2j 2s 3p 5t 9j", "Kj 4p", "8j 8s Qt Ap", turn=0)
        assert played_cards(decide(bot, state, 0)) == parse_cards("7j 7s")
        state = table_state("9j 9s", "5j 5s 3p", "Kj 4p", "8j Qt", turn=1)
        state = passes(play(state, 1, "5j 5s"), 2, 3)
        assert played_cards(decide(bot, state, 0)) == parse_cards("9j 9s")

    def test_going_out_first_waits_while_the_partners_tichu_is_alive(self, bot) -> None:
        state = table_state(
            "7j 7s",
            "2j 2s 3p 5t 9j 4s 6s",
            "Kj 4p 6t 8t Tj Qs",
            "8j 8s Qt Ap 3s 6p Jj",
            turn=0,
            calls=("", "", "tichu", ""),
        )
        assert played_cards(decide(bot, state, 0)) != parse_cards("7j 7s")


def test_the_dragon_trick_goes_to_the_opponent_with_most_cards() -> None:
    state = table_state("Dragon 3j", "2j 4s 6p 8t 9j", "Kj", "5s 5p", turn=0)
    state = passes(play(state, 0, "Dragon"), 1, 2, 3)
    assert state.phase == "dragon"
    assert decide(ClassicPolicy(), state, 0) == GiveDragon(to=1)


class TestWish:
    def test_the_lowest_rank_of_which_no_card_was_seen(self) -> None:
        hand = parse_cards("MahJong 2j 3s 4p 6t")
        assert choose_wish(hand, parse_cards("5j"), parse_cards("MahJong"), 0) == 7

    def test_else_the_card_passed_to_the_next_opponent(self) -> None:
        every_rank_seen = parse_cards("2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj")
        hand = parse_cards("MahJong 2s")
        given = 1 << parse_card("9s")
        assert choose_wish(hand, every_rank_seen, parse_cards("MahJong"), given) == 9

    def test_a_high_rank_after_a_mahjong_straight(self) -> None:
        hand = parse_cards("MahJong 2j 3s 4p 5t Aj")
        wish = choose_wish(hand, 0, parse_cards("MahJong 2j 3s 4p 5t"), 0)
        assert wish == 13  # the highest rank of which no card is seen (we hold an Ace)


def _exchange_state(hands: list[str], grand: tuple[int, ...] = ()) -> State:
    from engine.tichu.deal import parse_deal
    from engine.tichu.state import new_game

    cards = [h.split() for h in hands]
    deal = parse_deal([c[:8] for c in cards], [c[8:] for c in cards])
    return decide_all(new_game(Rules(), seed=0, deal=deal), grand=grand)


HANDS = [
    "Dog 2j 3s 5p 7t 8j 9s Tp Jt Qj Ks Ap Aj Dragon",
    "MahJong 2s 2p 3j 4s 5j 6p 7j 8s 9p Tj Js Qs Kp",
    "2t 3p 4p 5s 6s 7s 8p 9t Tt Jp Qp Kt At Phoenix",
    "3t 4j 4t 5t 6j 6t 7p 8t 9j Ts Jj Qt Kj As",
]


class TestExchange:
    def test_the_partner_gets_a_high_card_and_the_opponents_low_ones(self) -> None:
        state = _exchange_state(HANDS)
        action = decide(ClassicPolicy(tichu_threshold=2.0), state, 1)
        assert isinstance(action, Exchange)
        assert parse_card(action.partner) > parse_card(action.left)
        assert parse_card(action.partner) > parse_card(action.right)

    def test_an_opponent_who_called_grand_tichu_gets_the_dog(self) -> None:
        state = _exchange_state(HANDS, grand=(3,))
        action = decide(ClassicPolicy(tichu_threshold=2.0), state, 0)
        assert isinstance(action, Exchange)
        assert "Dog" in (action.left, action.right)
        assert action.left == "Dog"  # seat 3 is seat 0's left

    def test_a_partner_who_called_grand_tichu_gets_the_best_card(self) -> None:
        state = _exchange_state(HANDS, grand=(2,))
        action = decide(ClassicPolicy(), state, 0)
        assert isinstance(action, Exchange) and action.partner == "Dragon"


STRONG_HAND = "Dragon Phoenix Aj As Ap Kj Ks Qj Qs Jj Js Tj 9j 9s"
OTHER_HANDS = (
    "2j 2s 2p 3j 3s 3p 4j 4s 4p 5j 5s 5p 6j 6s",
    "MahJong 6p 7j 7s 7p 8j 8s 8p 9p Tp Tt Jp Jt Qp",
    "Dog 2t 3t",
)


@pytest.mark.parametrize(
    "calls,expected", [(("", "", "", ""), True), (("", "", "grand", ""), False)]
)
def test_tichu_is_called_with_a_strong_hand_unless_the_partner_called(
    calls: tuple[str, str, str, str], expected: bool
) -> None:
    state = table_state(STRONG_HAND, *OTHER_HANDS, turn=1, calls=calls)
    obs = state.observation(0)
    assert situation(obs).can_call
    action = ClassicPolicy()(obs, np.random.default_rng(0)).action
    assert isinstance(action, CallTichu) == expected


@pytest.mark.parametrize("bot", BOTS)
def test_same_observation_and_seed_give_the_same_decision(bot) -> None:
    state = _exchange_state(HANDS)
    for seat in range(4):
        obs = state.observation(seat)
        assert bot(obs, np.random.default_rng(3)) == bot(obs, np.random.default_rng(3))
