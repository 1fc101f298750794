"""The bidders and their data: solver labels, the shipped knowledge base and LMS weights,
k-NN and LMS chances, and bid decisions that follow the valuation."""

import numpy as np
import pytest

from bots.skat.bidders import BIDDERS
from bots.skat.bidding import (
    NEIGHBOURS,
    SOLVED_CANDIDATES,
    HandValuation,
    candidate_games,
    value_hand,
)
from bots.skat.budget import MIN_WORLDS
from bots.skat.discard import candidates_for_bid
from bots.skat.evaluation import base_game_value, shared_world_wins, win_odds
from bots.skat.features import features
from bots.skat.knowledge import (
    GAMES,
    PASS,
    KnowledgeBase,
    LabelledHand,
    label_deals,
    load_knowledge,
    to_arrays,
)
from bots.skat.lms import LinearBidder, load_lms, train_lms
from bots.skat.montecarlo import shared_solver
from engine.skat.cards import GameType, parse_cards
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


@pytest.mark.parametrize("bidder", [b for b in BIDDERS if b != "score"])
def test_every_risk_bidder_gives_a_consistent_valuation(bidder: str) -> None:
    for hand in LABELLED[:6]:
        valuation = value_hand(hand.cards, hand.position, bidder=bidder, risk=0.6, worlds=4)
        assert (valuation.game == "pass") == (valuation.limit == 0)
        assert all(0.0 <= p <= 1.0 for p in valuation.chances.values())
        if valuation.game != "pass" and valuation.chances:
            assert valuation.chances[valuation.game] >= 0.6


@pytest.mark.parametrize("bidder", ["lms", "knn", "montecarlo"])
def test_the_likeliest_playable_game_is_named_and_the_most_valuable_sets_the_limit(
    bidder: str,
) -> None:
    for hand in LABELLED:
        valuation = value_hand(hand.cards, hand.position, bidder=bidder, risk=0.3, worlds=6)
        playable = {g: p for g, p in valuation.chances.items() if p >= 0.3}
        if not playable:
            assert valuation.game == "pass"
            continue
        assert valuation.chances[valuation.game] == max(playable.values())
        assert valuation.limit == max(
            base_game_value(hand.cards, g, hand=False) for g in GAMES if g in playable
        )


def test_montecarlo_bidder_solves_the_likeliest_games_of_the_knowledge_base() -> None:
    knowledge = load_knowledge()
    for hand in LABELLED[:6]:
        prior = {
            g: knowledge.win_chance(hand.cards, hand.position, g, hand=False, k=NEIGHBOURS)
            for g in GAMES
        }
        valuation = value_hand(hand.cards, hand.position, bidder="montecarlo", risk=0.5, worlds=4)
        solved = [prior[g] for g in GAMES if g in valuation.chances]
        unsolved = [prior[g] for g in GAMES if g not in valuation.chances]
        assert len(solved) == SOLVED_CANDIDATES and min(solved) >= max(unsolved)


def test_shared_worlds_agree_with_one_game_at_a_time() -> None:
    """The same generator deals the same worlds: one game's column is `win_odds`' count."""
    hand = LABELLED[3]
    games: list[GameType] = ["clubs", "grand", "null"]
    wins = shared_world_wins(
        shared_solver(), hand.cards, games, position=1, worlds=8, rng=np.random.default_rng(5)
    )
    assert wins.shape == (8, 3)
    for g, game in enumerate(games):
        odds = win_odds(
            shared_solver(),
            hand.cards,
            game,
            position=1,
            hand=False,
            worlds=8,
            rng=np.random.default_rng(5),
        )
        assert odds.wins == int(wins[:, g].sum())


def test_a_spent_time_budget_still_solves_the_minimum_of_worlds() -> None:
    """A budget of no time cuts every estimate to `MIN_WORLDS` worlds, never to none, and
    the rows solved are the first worlds of the unbudgeted estimate."""
    hand = LABELLED[3]
    games: list[GameType] = ["clubs", "grand"]
    full = shared_world_wins(
        shared_solver(), hand.cards, games, position=1, worlds=8, rng=np.random.default_rng(5)
    )
    cut = shared_world_wins(
        shared_solver(),
        hand.cards,
        games,
        position=1,
        worlds=8,
        rng=np.random.default_rng(5),
        seconds=0.0,
    )
    assert cut.shape == (MIN_WORLDS, 2) and (cut == full[:MIN_WORLDS]).all()
    odds = win_odds(
        shared_solver(),
        hand.cards,
        "clubs",
        position=1,
        hand=False,
        worlds=8,
        rng=np.random.default_rng(5),
        seconds=0.0,
    )
    assert odds.worlds == MIN_WORLDS and odds.wins == int(full[:MIN_WORLDS, 0].sum())
    valuation = value_hand(
        hand.cards, hand.position, bidder="montecarlo", risk=0.5, worlds=8, seconds=0.0
    )
    assert all(p in (0, 0.25, 0.5, 0.75, 1) for p in valuation.chances.values())


def test_benchmark_counts_any_winnable_game_as_correct_as_published() -> None:
    from bench.skat_bidding import Report

    both = LabelledHand(
        0, 0, (False, False, False, True, True, False), (False,) * 6, (18, 20, 22, 24, 48, 23)
    )
    nothing = LabelledHand(0, 1, (False,) * 6, (False,) * 6, (18, 20, 22, 24, 48, 23))
    report = Report("test")
    for hand, bid in [
        (both, "clubs"),
        (both, "grand"),
        (both, "spades"),
        (both, "pass"),
        (nothing, "pass"),
        (nothing, "grand"),
    ]:
        report.add(hand, HandValuation(bid, 0 if bid == "pass" else 24, {}), 0.0)
    assert (report.hands, report.correct, report.most_valuable) == (6, 3, 2)


def test_skat_decisions_add_grand_when_only_grand_reaches_the_bid() -> None:
    """Three top jacks and long clubs: the strength heuristic names clubs and diamonds
    (48 and 36), a bidder may have gone to 72 for grand (96)."""
    twelve = parse_cards(["JC", "JS", "JH", "AC", "TC", "KC", "QC", "9C", "AS", "AH", "7D", "8D"])
    assert "grand" not in candidate_games(twelve)
    assert "grand" not in candidates_for_bid(twelve, 48)
    assert candidates_for_bid(twelve, 72) == [*candidate_games(twelve), "grand"]
    assert candidates_for_bid(twelve, 120) == candidate_games(twelve)
