"""The bidders and their data: solver labels, the shipped knowledge base and LMS weights,
k-NN and LMS chances, and bid decisions that follow the valuation."""

import numpy as np
import pytest

from bots.skat.bidders import BIDDERS
from bots.skat.bidding import value_hand
from bots.skat.features import features
from bots.skat.knowledge import (
    GAMES,
    PASS,
    KnowledgeBase,
    label_deals,
    load_knowledge,
    to_arrays,
)
from bots.skat.lms import LinearBidder, load_lms, train_lms
from bots.skat.montecarlo import shared_solver
from engine.skat.solver import Position

LABELLED = label_deals(range(20_000_000, 20_000_012))


def test_labels_are_the_most_valuable_won_game_or_pass() -> None:
    for hand in LABELLED:
        won = [
            (hand.values[i], game)
            for i, game in enumerate(GAMES)
            if hand.pickup_wins[i] or hand.hand_wins[i]
        ]
        assert hand.label == (max(won)[1] if won else PASS)


def test_a_hand_label_agrees_with_a_direct_solve() -> None:
    """Hand-game flags are the open-card answer for the real deal."""
    from engine.skat.cards import card_points
    from engine.skat.deal import deal_from_seed

    deal = deal_from_seed(20_000_000)
    first = LABELLED[0]
    for i, game in enumerate(GAMES):
        result = shared_solver().solve(
            Position(
                hands=deal.hands,
                game=game,
                declarer=0,
                leader=0,
                declarer_points=card_points(deal.skat) if game != "null" else 0,
            ),
            "win",
        )
        assert result.declarer_wins == first.hand_wins[i]


def test_nearest_neighbour_of_a_known_hand_shares_its_features_and_outcome() -> None:
    knowledge = KnowledgeBase(to_arrays(LABELLED))  # type: ignore[arg-type]
    for hand in LABELLED[:6]:
        for g, game in enumerate(GAMES):
            chance = knowledge.win_chance(hand.cards, hand.position, game, hand=False, k=1)
            twins = [
                h.pickup_wins[g]
                for h in LABELLED
                if h.position == hand.position
                and np.array_equal(features(h.cards, game), features(hand.cards, game))
            ]
            assert chance in [float(t) for t in twins]


def test_shipped_knowledge_base_matches_the_feature_code() -> None:
    knowledge = load_knowledge()
    assert len(knowledge) >= 10_000
    rng = np.random.default_rng(0)
    for row in rng.choice(len(knowledge), size=50, replace=False):
        for g, game in enumerate(GAMES):
            expected = features(int(knowledge.cards[row]), game)
            assert np.array_equal(knowledge.features[row, g, : len(expected)], expected)


def test_lms_fit_on_a_tiny_base_and_the_shipped_weights() -> None:
    tiny = LinearBidder(train_lms(KnowledgeBase(to_arrays(LABELLED))))  # type: ignore[arg-type]
    shipped = load_lms()
    for bidder in (tiny, shipped):
        for hand in LABELLED[:5]:
            for game in GAMES:
                assert 0.0 <= bidder.win_chance(hand.cards, hand.position, game) <= 1.0


def test_lms_weights_must_have_the_right_shape() -> None:
    with pytest.raises(ValueError, match="shape"):
        LinearBidder(np.zeros((2, 3, 4)))


@pytest.mark.parametrize("bidder", BIDDERS)
def test_every_bidder_gives_a_consistent_valuation(bidder: str) -> None:
    for hand in LABELLED[:6]:
        valuation = value_hand(hand.cards, hand.position, bidder=bidder, risk=0.6, worlds=4)
        assert (valuation.game == "pass") == (valuation.limit == 0)
        assert all(0.0 <= p <= 1.0 for p in valuation.chances.values())
        if valuation.game != "pass" and valuation.chances:
            assert valuation.chances[valuation.game] >= 0.6
