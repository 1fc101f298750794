"""Bots play whole rounds legally through the driver; duplicate deals measure them."""

import msgspec
import numpy as np
import pytest

from bots.registry import TICHU_POLICIES, tichu_policy
from bots.tichu.duplicate import RoundRecord, duplicate_rounds, summarize
from bots.tichu.match import DecisionTime, play_match, play_round
from engine.rng import make_stream_rng
from engine.tichu.deal import deal_from_seed
from engine.tichu.rules import Rules
from engine.tichu.state import new_game, replay


@pytest.mark.parametrize("name", TICHU_POLICIES)
def test_every_bot_plays_only_legal_moves(name: str) -> None:
    """The driver applies every decision through State.apply, which rejects illegal ones."""
    others = [tichu_policy(n) for n in ("greedy", "random", "classic")]
    bot = tichu_policy(name)
    for deal in range(3):
        seating = [bot, others[deal], bot, others[(deal + 1) % 3]]
        start = new_game(Rules(max_rounds=1), seed=deal, deal=deal_from_seed(deal, 0))
        timings: list[DecisionTime] = []
        rngs = [make_stream_rng(deal, s) for s in range(4)]
        state = play_round(start, seating, rngs, timings=timings)
        assert state.is_over and len(state.rounds) == 1
        assert {t.kind for t in timings} >= {"grand_tichu", "exchange", "play"}


def test_a_match_replays_from_its_record() -> None:
    policies = [tichu_policy(n) for n in ("classic", "greedy", "classic", "greedy")]
    state = play_match(policies, seed=3, rules=Rules(max_rounds=3))
    assert state.is_over and len(state.rounds) == 3
    assert replay(state.start, state.moves) == state


def test_a_match_is_deterministic_per_seed() -> None:
    policies = [tichu_policy("classic")] * 4
    first = play_match(policies, seed=8, rules=Rules(max_rounds=2))
    assert play_match(policies, seed=8, rules=Rules(max_rounds=2)).moves == first.moves


def test_duplicate_rounds_swap_the_teams_on_the_same_deal() -> None:
    greedy, rand = tichu_policy("greedy"), tichu_policy("random")
    records = duplicate_rounds(greedy, rand, [4], seed=2)
    assert [(r.deal, r.swapped) for r in records] == [(4, False), (4, True)]


def test_summary_pairs_the_two_seatings_of_a_deal() -> None:
    def record(deal: int, swapped: bool, a: int, b: int, double: int | None) -> RoundRecord:
        return RoundRecord(deal, swapped, (a, b), (1, 0), (1, 0), (0, 0), (0, 0), double)

    records = [
        record(0, False, 100, 0, None),
        record(0, True, 0, 100, None),
        record(1, False, 300, 0, 0),
        record(1, True, 200, 0, 0),
    ]
    summary = summarize(records)
    assert summary.mean == pytest.approx(125.0)  # deal 0: 0, deal 1: 250
    assert summary.ci95 == pytest.approx(1.96 * np.std([0.0, 250.0], ddof=1) / np.sqrt(2))
    assert summary.tichu_rate == (1.0, 0.0) and summary.tichu_success == (1.0, None)
    assert summary.double_rate == (0.5, 0.0)
    assert msgspec.json.decode(msgspec.json.encode(summary), type=type(summary)) == summary


def test_greedy_beats_random_by_a_wide_margin() -> None:
    greedy, rand = tichu_policy("greedy"), tichu_policy("random")
    summary = summarize(duplicate_rounds(greedy, rand, range(30), seed=1))
    assert summary.mean - summary.ci95 > 0


def test_classic_beats_greedy() -> None:
    classic, greedy = tichu_policy("classic"), tichu_policy("greedy")
    summary = summarize(duplicate_rounds(classic, greedy, range(40), seed=1))
    assert summary.mean > 0
