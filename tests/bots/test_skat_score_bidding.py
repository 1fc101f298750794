"""The score bidder (issue 17): Seeger-Fabian arithmetic, grand on grand hands, holding what
the expectation supports and passing junk; the named levels and the frozen baseline."""

import pickle

import numpy as np
import pytest

from bots.registry import SKAT_MONTE_CARLO_LEVELS, policy
from bots.skat.bidding import bid_decision, value_hand
from bots.skat.expected import (
    LOST,
    PASS_SCORE,
    SCHNEIDER,
    WON,
    Contract,
    Outcomes,
    calibrated,
    candidate_games,
    contracts_of,
    declarer_score,
    expected_score,
    pickup_score,
    solved_rate,
)
from bots.skat.levels import LEVELS, SkatBot
from bots.skat.score_bidding import best_contract, bid_limit, estimate_hand, score_bid
from engine.skat.actions import Bid, Declare, Hold, Pass
from engine.skat.cards import ALL_CARDS, parse_cards
from engine.skat.deal import Deal
from engine.skat.rules import Rules
from engine.skat.state import new_game

GRAND_HAND = "JC JS JH JD AC AS AH TC 9C 8S"
JUNK = "7C 9C KC 8S TS QS 9H KH 8D QD"
CLUBS_HAND = "JC JH AC TC KC 9C 8C AS TS 7H"


def _cards(text: str) -> int:
    return parse_cards(text.split())


def test_seeger_fabian_scores_match_hand_computed_values() -> None:
    grand = Contract("grand")
    # Grand with 2 (x3 = 72): won 72 + 50; lost 2 x 72 + 50.
    assert declarer_score(grand, 2, 18, WON) == 122
    assert declarer_score(grand, 2, 18, LOST) == -194
    # Schneider adds a level: 24 x 4 = 96.
    assert declarer_score(grand, 2, 18, SCHNEIDER) == 146
    # Clubs with 1 is worth 24; bid 30 overbids: lost at 36 (the next multiple), -2 x 36 - 50.
    assert declarer_score(Contract("clubs"), 1, 30, WON) == -122
    # Grand hand with 4, schneider announced and made: 24 x (4 + 1 + 1 + 2) = 192.
    assert declarer_score(Contract("grand", True, schneider=True), 4, 18, SCHNEIDER) == 242
    # ... announced but not made: lost at the announced value.
    assert declarer_score(Contract("grand", True, schneider=True), 4, 18, WON) == -434
    # Null hand is 35; a null worth less than the bid cannot be declared.
    assert declarer_score(Contract("null", True), 0, 18, WON) == 85
    assert declarer_score(Contract("null"), 0, 24, WON) is None


def test_expected_score_weighs_won_and_lost_worlds_by_the_calibrated_chance() -> None:
    contract = Contract("grand")
    outcomes = Outcomes("grand", False, (WON, WON, LOST, WON), (1, 1, 1, 1))
    p = calibrated("grand", 0.75)
    assert 0.0 < p <= 1.0
    expected = expected_score(contract, outcomes, 18)
    assert expected == pytest.approx(p * (48 + 50) + (1 - p) * (-96 - 50))


def test_a_null_with_the_skat_lost_in_one_world_of_five_is_not_worth_declaring() -> None:
    # Against outside defenders the plain nulls promised about 0.6 were lost about every
    # second time (docs/bots.md "Null"): a null won in 4 of 5 worlds now scores below
    # passing, while one won in all of 32 worlds is still worth far more.
    shaky = Outcomes("null", False, (WON, WON, WON, WON, LOST), (0,) * 5)
    safe = Outcomes("null", False, (WON,) * 32, (0,) * 32)
    assert calibrated("null", 0.8) < 0.5
    assert (expected_score(Contract("null"), shaky, 18) or 0.0) < PASS_SCORE
    assert (expected_score(Contract("null", ouvert=True), safe, 18) or 0.0) > PASS_SCORE + 40


def test_a_null_won_in_the_few_worlds_a_loaded_machine_solves_is_not_declared() -> None:
    # 4 worlds won of 4 counts as 5/6 (rule of succession), not as a certain null; other
    # games keep the plain share.
    lucky = Outcomes("null", False, (WON,) * 4, (0,) * 4)
    won = np.array([True] * 4)
    assert solved_rate(Contract("null"), won) == pytest.approx(5 / 6)
    assert solved_rate(Contract("grand"), won) == 1.0
    for contract in contracts_of(lucky):
        assert (expected_score(contract, lucky, 18) or 0.0) < PASS_SCORE
    eight = Outcomes("null", False, (WON,) * 8, (0,) * 8)
    assert (expected_score(Contract("null", ouvert=True), eight, 18) or 0.0) > PASS_SCORE


@pytest.mark.parametrize("kind", ["suit", "grand", "null", "suit hand", "grand hand", "null hand"])
def test_the_calibration_is_a_non_decreasing_chance(kind: str) -> None:
    chances = [calibrated(kind, x) for x in np.linspace(0.0, 1.0, 21)]
    assert chances[0] == 0.0 and all(0.0 <= c <= 1.0 for c in chances)
    assert chances == sorted(chances)


def test_the_pickup_chooses_the_game_after_seeing_the_skat() -> None:
    """Clubs wins when the skat brings a club trump, spades when it brings a spade: picking
    up and then choosing is worth more than either game fixed before the pickup."""
    clubs = Outcomes("clubs", False, (WON, WON, LOST, LOST), (1, 1, 1, 1), (1, 1, 0, 0))
    spades = Outcomes("spades", False, (LOST, LOST, WON, WON), (1, 1, 1, 1), (0, 0, 1, 1))
    found = pickup_score([clubs, spades], 18)
    assert found is not None
    score, chosen = found
    assert chosen == {"clubs": 2, "spades": 2}
    fixed = max(expected_score(Contract(g.game), g, 18) or 0.0 for g in (clubs, spades))
    assert score > fixed
    assert score == pytest.approx(
        0.5 * (expected_score(Contract("clubs"), clubs.subset([0, 1]), 18) or 0.0)
        + 0.5 * (expected_score(Contract("spades"), spades.subset([2, 3]), 18) or 0.0)
    )


def test_grand_is_solved_even_when_a_suit_game_is_likelier() -> None:
    assert "grand" in candidate_games(_cards(GRAND_HAND), hand=False)
    assert "grand" in candidate_games(_cards(CLUBS_HAND), hand=True)
    assert candidate_games(_cards(JUNK), hand=False) == []


def test_the_bidder_declares_grand_on_a_clear_grand_hand() -> None:
    outcomes = estimate_hand(_cards(GRAND_HAND), 0, 16, None)
    best = best_contract(outcomes, 18)
    assert best is not None and best[0].game == "grand"
    # Grand with 4 reaches 120 with the skat; the limit is at least that.
    assert bid_limit(outcomes, 0.0) >= 120


def _bidding_state(forehand: str) -> tuple[object, int]:
    """A deal whose forehand holds `forehand`; the rest dealt in a fixed order."""
    mine = _cards(forehand)
    rest = [c for c in range(32) if (ALL_CARDS & ~mine) >> c & 1]
    middle = sum(1 << c for c in rest[:10])
    rear = sum(1 << c for c in rest[10:20])
    skat = sum(1 << c for c in rest[20:])
    state = new_game(Rules(), deal=Deal((mine, middle, rear), skat))
    return state, state.observation(state.to_move).forehand


def test_a_bid_is_held_while_its_expectation_beats_passing_and_junk_is_passed() -> None:
    state, _ = _bidding_state(CLUBS_HAND)
    # Middlehand bids to forehand first: say 18, then forehand answers.
    state = state.apply(state.to_move, Bid(18))
    obs = state.observation(state.to_move)
    assert obs.seat == obs.forehand and Hold() in obs.legal
    decision = score_bid(obs, worlds=12, seconds=None, margin=0.0)
    assert decision.action == Hold()
    assert decision.diagnostics["expected"] > PASS_SCORE
    # A margin above every expectation makes the same hand pass.
    cautious = score_bid(obs, worlds=12, seconds=None, margin=1000.0)
    assert cautious.action == Pass()
    junk, _ = _bidding_state(JUNK)
    junk = junk.apply(junk.to_move, Bid(18))
    obs = junk.observation(junk.to_move)
    assert score_bid(obs, worlds=12, seconds=None, margin=0.0).action == Pass()


def test_the_score_level_plays_a_grand_hand_as_grand_through_the_skat_phase() -> None:
    state, _ = _bidding_state(GRAND_HAND)
    bot = SkatBot(worlds=8, skat_worlds=12, margin=0.0)
    rng = np.random.default_rng(1)
    while state.phase in ("bidding", "skat", "discard", "declare"):
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        if seat == obs.forehand:
            action = bot(obs, rng).action
        else:
            action = Pass() if Pass() in obs.legal else obs.legal[0]
        state = state.apply(seat, action)
        if isinstance(action, Declare):
            assert action.game == "grand"
    assert state.contract is not None and state.contract.game == "grand"


@pytest.mark.parametrize("level", SKAT_MONTE_CARLO_LEVELS)
def test_levels_resolve_by_name_and_pickle(level: str) -> None:
    bot = policy("skat", level)
    assert bot == LEVELS[level]
    assert pickle.loads(pickle.dumps(bot)) == bot


def test_the_levels_solve_fewer_worlds_and_bid_more_simply_towards_club() -> None:
    expert, strong, club = (LEVELS[n] for n in ("expert", "strong", "club"))
    assert expert.bidder == strong.bidder == "score" and expert.margin < strong.margin
    assert club.bidder == "greedy"
    assert expert.worlds > strong.worlds > club.worlds
    assert expert.skat_worlds > strong.skat_worlds > club.skat_worlds


def test_baseline_is_the_former_strong_level() -> None:
    """The former `strong`: montecarlo bidder at risk 0.6, 100 worlds in 0.8 s per card,
    16 skat worlds in 0.6 s; its bids are the risk bidder's."""
    baseline = LEVELS["baseline"]
    assert baseline == SkatBot(
        worlds=100, seconds=0.8, skat_worlds=16, skat_seconds=0.6, bidder="montecarlo", risk=0.6
    )
    state, _ = _bidding_state(CLUBS_HAND)
    state = state.apply(state.to_move, Bid(18))
    obs = state.observation(state.to_move)
    rng = np.random.default_rng(3)
    expected = bid_decision(obs, rng, bidder="montecarlo", risk=0.6, worlds=16, seconds=0.6)
    assert baseline(obs, np.random.default_rng(3)).action == expected.action


def test_the_score_valuation_names_a_game_exactly_when_it_bids() -> None:
    for text in (GRAND_HAND, CLUBS_HAND, JUNK):
        valuation = value_hand(_cards(text), 0, bidder="score", risk=0.0, worlds=8)
        assert (valuation.game == "pass") == (valuation.limit == 0)
        assert all(0.0 <= p <= 1.0 for p in valuation.chances.values())
    assert value_hand(_cards(GRAND_HAND), 0, bidder="score", risk=0.0, worlds=8).game == "grand"
