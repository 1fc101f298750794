"""Bockrunden (house rule, docs/skat-rules.md section 3.5): which deals earn a round of Bock
deals, how the rounds queue up, and that a Bock deal's list value counts double while the
Seeger-Fabian bonus and the opponents' 40 or 30 stay single."""

import random

import msgspec
import pytest

from engine.errors import InvalidInput
from engine.skat.actions import Bid, Declare, Hold, Kontra, Pass, Play, Re
from engine.skat.rules import Rules
from engine.skat.scoring import (
    Result,
    bock_deals_due,
    doubled,
    earns_bock,
    ramsch_scores,
    seeger_fabian,
    value_trump_game,
)
from engine.skat.state import State, new_game
from tests.engine.skat.helpers import run

BOCK = Rules(bock=True, kontra=True)
PLAIN = Rules(kontra=True)


def play_out(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
        state = state.apply(seat, rng.choice(plays))
    return state


def grand_by_middlehand(rules: Rules, seed: int, *, bock: bool, kontra: int = 0) -> Result:
    """Middlehand bids 18, forehand holds then passes at 20; middlehand plays grand hand;
    forehand (who bid) may say Kontra, middlehand Re; the cards are played at random."""
    state = new_game(rules, seed=seed, bock=bock)
    state = run(state, (1, Bid(18)), (0, Hold()), (1, Bid(20)), (0, Pass()), (2, Pass()))
    state = state.apply(1, Declare("grand"))
    if kontra >= 1:
        state = state.apply(0, Kontra())
    if kontra >= 2:
        state = state.apply(1, Re())
    return play_out(state, seed).result


def trump_game(game: str, matadors: int, points: int) -> int:
    """The undoubled list value of a suit or grand game, not hand, bid 18, played out."""
    value = value_trump_game(
        game,  # type: ignore[arg-type]
        matadors,
        hand=False,
        schneider_announced=False,
        schwarz_announced=False,
        ouvert=False,
        bid=18,
        declarer_points=points,
        declarer_tricks=5,
    )
    return value.list_value


class TestWorkedCases:
    """docs/skat-rules.md section 3.5, rows B1-B5, at a 3-table with the declarer in seat 0."""

    @pytest.mark.parametrize(
        ("row", "game", "matadors", "points", "kontra", "list_value", "sf"),
        [
            ("B1", "clubs", 2, 75, 0, 72, (122, 0, 0)),
            ("B2", "grand", 1, 50, 0, -192, (-242, 40, 40)),
            ("B3", "grand", 1, 50, 1, -384, (-434, 40, 40)),
            ("B4", "grand", 1, 50, 2, -768, (-818, 40, 40)),
        ],
    )
    def test_declared(
        self,
        row: str,
        game: str,
        matadors: int,
        points: int,
        kontra: int,
        list_value: int,
        sf: tuple[int, ...],
    ) -> None:
        value = doubled(trump_game(game, matadors, points), kontra=kontra, bock=True)
        assert value == list_value, row
        assert seeger_fabian(3, 0, value > 0, value) == sf, row

    def test_b5_ramsch(self) -> None:
        scores = ramsch_scores((62, 40, 18), (4, 3, 3))
        assert tuple(doubled(v, kontra=0, bock=True) for v in scores) == (-124, 0, 0)


class TestBockDeal:
    """A Bock deal against the same deal played without Bock: the same cards and moves."""

    @pytest.mark.parametrize("seed", range(8))
    def test_the_list_value_doubles_the_bonus_and_fabian_points_do_not(self, seed: int) -> None:
        plain = grand_by_middlehand(PLAIN, seed, bock=False)
        bock = grand_by_middlehand(BOCK, seed, bock=True)
        assert bock.bock and not plain.bock
        assert bock.won == plain.won and bock.game_value == plain.game_value
        assert bock.list_value == 2 * plain.list_value
        bonus = 50 if bock.won else -50
        fabian = 0 if bock.won else 40
        assert bock.seeger_fabian == (fabian, bock.list_value + bonus, fabian)

    @pytest.mark.parametrize(("kontra", "factor"), [(1, 4), (2, 8)])
    def test_kontra_and_re_double_on_top(self, kontra: int, factor: int) -> None:
        result = grand_by_middlehand(BOCK, 3, bock=True, kontra=kontra)
        single = result.game_value if result.won else -2 * result.game_value
        assert result.kontra == kontra
        assert result.list_value == factor * single

    @pytest.mark.parametrize("seed", range(5))
    def test_a_ramsch_in_a_bock_deal_counts_double(self, seed: int) -> None:
        def ramsch(rules: Rules, bock: bool) -> Result:
            state = new_game(rules, seed=seed, bock=bock)
            state = run(state, (1, Pass()), (2, Pass()), (0, Pass()))
            return play_out(state, seed).result

        plain = ramsch(Rules(all_pass="ramsch"), False)
        bock = ramsch(Rules(all_pass="ramsch", bock=True), True)
        assert bock.ramsch and bock.bock
        assert bock.seeger_fabian == tuple(2 * v for v in plain.seeger_fabian)

    def test_a_passed_in_bock_deal_scores_nothing(self) -> None:
        state = new_game(BOCK, seed=1, bock=True)
        result = run(state, (1, Pass()), (2, Pass()), (0, Pass())).result
        assert result.passed_in and result.bock
        assert result.list_value == 0 and result.seeger_fabian == (0, 0, 0)

    def test_only_a_bock_table_deals_bock(self) -> None:
        with pytest.raises(InvalidInput):
            new_game(Rules(), seed=1, bock=True)
        assert not new_game(BOCK, seed=1).observation(0).bock
        assert new_game(BOCK, seed=1, bock=True).observation(None).bock


def result(**fields: object) -> Result:
    """A won clubs game with 2 (36) played out, changed by `fields`."""
    base = Result(
        declarer=0,
        game="clubs",
        hand=False,
        schneider_announced=False,
        schwarz_announced=False,
        ouvert=False,
        bid=18,
        won=True,
        game_value=36,
        list_value=36,
        matadors=2,
        overbid=False,
        declarer_points=75,
        declarer_tricks=6,
        schneider=False,
        schwarz=False,
        seeger_fabian=(86, 0, 0),
    )
    return msgspec.structs.replace(base, **fields)


PASSED_IN = result(declarer=None, game=None, won=None, game_value=0, list_value=0, passed_in=True)


class TestWhatEarnsBock:
    """docs/skat-rules.md section 3.5, case by case."""

    @pytest.mark.parametrize(
        ("case", "deal", "earns"),
        [
            ("an ordinary won game", result(), False),
            ("an ordinary lost game", result(won=False, list_value=-72), False),
            ("passed in", PASSED_IN, True),
            ("a Ramsch (all passed)", result(declarer=None, won=None, ramsch=True), True),
            ("lost after Kontra", result(won=False, kontra=1, list_value=-144), True),
            ("lost after Kontra and Re", result(won=False, kontra=2, list_value=-288), True),
            ("won after Kontra", result(kontra=1, list_value=72), False),
            ("grand with 4 (120)", result(game="grand", game_value=120, list_value=120), True),
            ("clubs worth 108", result(game_value=108, list_value=108), False),
            ("null ouvert hand (59)", result(game="null", game_value=59, list_value=59), False),
            ("60 to 60 played out", result(won=False, declarer_points=60), True),
            (
                "60 after a resignation",
                result(won=False, declarer_points=60, ended_by="resigned"),
                False,
            ),
            ("61 points", result(declarer_points=61), False),
            ("aborted", result(declarer=None, won=None, aborted=True, game_value=0), False),
        ],
    )
    def test_case(self, case: str, deal: Result, earns: bool) -> None:
        assert earns_bock(deal) is earns, case


class TestBockRounds:
    """A deal that earns Bock adds one Bock deal per player after the rounds still owed."""

    def test_a_round_is_one_deal_per_player(self) -> None:
        assert bock_deals_due(3, []) == 0
        assert bock_deals_due(3, [PASSED_IN]) == 3
        assert bock_deals_due(4, [PASSED_IN]) == 4
        assert bock_deals_due(3, [PASSED_IN, result(), result()]) == 1
        assert bock_deals_due(3, [PASSED_IN, result(), result(), result()]) == 0

    def test_rounds_earned_during_a_round_queue_up(self) -> None:
        # Deal 0 earns a round (deals 1-3); deal 2, itself a Bock deal, earns the next (4-6).
        deals = [PASSED_IN, result(), PASSED_IN, result(), result(), result(), result()]
        bock = [bock_deals_due(3, deals[:k]) > 0 for k in range(len(deals) + 1)]
        assert bock == [False, True, True, True, True, True, True, False]

    def test_nothing_earns_nothing(self) -> None:
        assert bock_deals_due(3, [result()] * 10) == 0

    def test_each_result_says_what_its_list_owes_after_it(self) -> None:
        # Deal 0 passed in earns deals 1-3; deal 3 (a Bock deal) passed in earns 4-6 after it.
        results: list[Result] = []
        for number, passed_in in enumerate([True, False, False, True, False, False, False, False]):
            due = bock_deals_due(3, results)
            if passed_in:
                state = new_game(BOCK, seed=number, bock=due > 0, bock_due=due)
                deal = run(state, (1, Pass()), (2, Pass()), (0, Pass())).result
            else:  # diamonds hand by middlehand, played at random: worth far less than 120
                state = new_game(BOCK, seed=40 + number, bock=due > 0, bock_due=due)
                state = run(state, (1, Bid(18)), (0, Pass()), (2, Pass()))
                deal = play_out(state.apply(1, Declare("diamonds")), number).result
            assert deal.bock_due == bock_deals_due(3, [*results, deal])
            results.append(deal)
        assert [r.bock_due for r in results] == [3, 2, 1, 3, 2, 1, 0, 0]
        assert [r.bock for r in results] == [False, True, True, True, True, True, True, False]

    def test_a_table_without_bock_owes_none(self) -> None:
        state = new_game(PLAIN, seed=1)
        assert run(state, (1, Pass()), (2, Pass()), (0, Pass())).result.bock_due == 0
        with pytest.raises(InvalidInput):
            new_game(BOCK, seed=1, bock_due=2)  # the deals owed count this one: a Bock deal
